// The media probe against a real HTTP server: durations, the byte cap and broken transfers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { probeMediaDuration } from '../../src/net/probe.js';
import { createOutboundClient, FetchError as MediaError } from '../../src/net/outbound.js';

describe('probeMediaDuration', () => {
  let media: MediaServer;
  beforeAll(async () => { media = await startMediaServer(); });
  // The media server is on loopback: allowed here (the guard itself is tested in ssrf.test.ts).
  const client = createOutboundClient({ allowCidrs: ['127.0.0.0/8'], log: () => undefined });
  afterAll(async () => { await media.close(); await client.close(); });

  const limits = { maxBytes: 10_000_000, timeoutMs: 2000 };

  it('reads the duration of a WAV file, rounded up to whole seconds', async () => {
    expect(await probeMediaDuration(client, media.audio(1), 'url', limits)).toBe(1);
    expect(await probeMediaDuration(client, media.audio(3600), 'url', limits)).toBe(3600);
  });

  it('reads only the header when the container states the duration', async () => {
    expect(await probeMediaDuration(client, media.audio(7200), 'url', { ...limits, maxBytes: 1_000_000 })).toBe(7200);
  });

  it('stops at the byte cap', async () => {
    await expect(probeMediaDuration(client, `${media.url}/noise.mp3`, 'audio_url', { ...limits, maxBytes: 100_000 }))
      .rejects.toThrow(new MediaError('audio_url: the file is larger than 100000 bytes'));
  });

  it('fails cleanly, without hanging, when the transfer breaks', async () => {
    const started = Date.now();
    await expect(probeMediaDuration(client, `${media.url}/drop.mp3`, 'url', limits)).rejects.toThrow(MediaError);
    expect(Date.now() - started).toBeLessThan(limits.timeoutMs + 1000);
  });
});
