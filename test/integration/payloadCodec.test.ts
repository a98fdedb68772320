// Workflow payloads are encrypted: a real order's comment, callback URL, media URL and result file
// name are nowhere in the history Temporal keeps, while the service's codec (and its /codec
// endpoint, which the Temporal UI and CLI call) reads them back.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import express from 'express';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import proto from '@temporalio/proto';
import { startService, CODEC_TEST_UI_ORIGIN, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { close, listen } from '../helpers/net.js';
import { loadHistory } from '../helpers/histories.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import { orderWorkflowId } from '../../src/contracts/orders.js';
import { codecRouter } from '../../src/api/routes/codec.js';
import { errorHandler } from '../../src/api/errors.js';
import { createPayloadCodec, decodePayloads, ENCRYPTED_ENCODING, KEY_ID_METADATA } from '../../src/temporal/payloadCodec.js';

const COMMENT = 'Interview of Zebediah Quillfeather about the Ostrander estate';
const CALLBACK_PATH = '/hooks/quillfeather-7731';
const FILE_NAME = 'quillfeather-ostrander-final.txt';
const MEDIA_FILE = 'audio-137.wav';
const SECRETS = [COMMENT, 'Quillfeather', 'Ostrander', CALLBACK_PATH, FILE_NAME, MEDIA_FILE];

type History = proto.temporal.api.history.v1.IHistory;
const HistoryType = proto.temporal.api.history.v1.History;

/**
 * Every payload in a history, with whether it sits under search attributes (indexed, never encoded).
 * What the SDK core writes itself is left out: patch markers (`wf.patched`, the patch id) and the
 * bookkeeping of a local activity's marker (its type, attempt and times); the local activity's
 * result (the charge) is the service's payload and is kept.
 */
function payloadsIn(value: unknown, underSearchAttributes = false, out: Array<{ payload: Payload; indexed: boolean }> = []) {
  if (!value || typeof value !== 'object' || ArrayBuffer.isView(value)) return out;
  const marker = value as { markerName?: string; details?: Record<string, unknown> };
  if (marker.markerName === 'core_patch') return out;
  if (marker.markerName === 'core_local_activity') return payloadsIn(marker.details?.result, underSearchAttributes, out);
  const metadata = (value as Payload).metadata;
  if (metadata && typeof metadata === 'object' && ArrayBuffer.isView(metadata.encoding)) {
    out.push({ payload: value as Payload, indexed: underSearchAttributes });
    return out;
  }
  for (const [k, v] of Object.entries(value)) payloadsIn(v, underSearchAttributes || k === 'searchAttributes', out);
  return out;
}

const toJson = (p: Payload) => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  data: Buffer.from(p.data ?? []).toString('base64'),
});
const fromJson = (p: { metadata: Record<string, string>; data?: string }): Payload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  data: Buffer.from(p.data ?? '', 'base64'),
});

describe('encrypted workflow payloads', () => {
  let service: TestService;
  let media: MediaServer;
  let receiver: CallbackReceiver;
  let workflowId: string;
  let raw: History;
  let rawBytes: Buffer;

  beforeAll(async () => {
    [service, media, receiver] = await Promise.all([startService(), startMediaServer(), startCallbackReceiver()]);
    const { token } = await service.createAccount(20);
    const { orderId } = await placeOrder(service, {
      token,
      fields: { ...englishAudio(media, 137), comment: COMMENT },
      callbackUrl: receiver.url + CALLBACK_PATH,
    });
    expect((await service.complete(orderId, FILE_NAME, 'Ann: Hello there.')).status).toBe(200);
    workflowId = orderWorkflowId(orderId);
    await service.temporal.workflow.getHandle(workflowId).result();
    expect(receiver.received.some((c) => c.path === CALLBACK_PATH)).toBe(true);

    // A client without the codec sees what Temporal stores.
    const plainClient = new Client({ connection: service.temporal.connection, namespace: 'default' });
    raw = await plainClient.workflow.getHandle(workflowId).fetchHistory();
    rawBytes = Buffer.from(HistoryType.encode(raw).finish());
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close(), receiver?.close()]);
  });

  it('stores no comment, URL or file name readable in the history', async () => {
    const asJson = JSON.stringify(HistoryType.toObject(HistoryType.decode(rawBytes), { bytes: String }));
    for (const secret of SECRETS) {
      expect(rawBytes.includes(secret), `${secret} in the raw history bytes`).toBe(false);
      expect(asJson.includes(secret), `${secret} in the raw history JSON`).toBe(false);
    }
    const payloads = payloadsIn(raw);
    const encoded = payloads.filter((p) => !p.indexed);
    expect(encoded.length).toBeGreaterThan(5);
    for (const { payload } of encoded) {
      expect(Buffer.from(payload.metadata!.encoding!).toString()).toBe(ENCRYPTED_ENCODING);
      expect(Buffer.from(payload.metadata![KEY_ID_METADATA]!).toString()).toBe(service.payloadKeys[0]!.id);
    }
  });

  it('reads them all back through the service codec', async () => {
    const codecs = service.temporal.options.loadedDataConverter.payloadCodecs;
    const decoded = await decodePayloads(
      codecs,
      payloadsIn(raw).map((p) => p.payload),
    );
    const text = decoded.map((p) => Buffer.from(p.data ?? []).toString('utf8')).join('\n');
    for (const secret of SECRETS) expect(text, secret).toContain(secret);
  });

  it('replays the encrypted history with the codec', async () => {
    const dataConverter = { payloadCodecs: [createPayloadCodec(service.payloadKeys)] };
    await expect(
      Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') }, dataConverter }, raw, workflowId),
    ).resolves.toBeUndefined();
  });

  describe('the /codec endpoint', () => {
    const started = () => payloadsIn(raw.events![0]!.workflowExecutionStartedEventAttributes!.input)[0]!.payload;
    const codecPost = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${service.baseUrl}/codec/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-namespace': 'default', ...headers },
        body: JSON.stringify(body),
      });
    const bearer = () => ({ authorization: `Bearer ${service.opsToken}` });

    it('decodes a payload of the history for the operator', async () => {
      const res = await codecPost('decode', { payloads: [toJson(started())] }, bearer());
      expect(res.status).toBe(200);
      const { payloads } = (await res.json()) as { payloads: Array<{ metadata: Record<string, string>; data: string }> };
      expect(payloads).toHaveLength(1);
      const input = defaultPayloadConverter.fromPayload<{ order: { params: { comment: string }; callbackUrl: string } }>(fromJson(payloads[0]!));
      expect(input.order.params.comment).toBe(COMMENT);
      expect(input.order.callbackUrl).toBe(receiver.url + CALLBACK_PATH);
    });

    it('refuses a request without the operator token, or with a wrong one', async () => {
      const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong' }, { origin: CODEC_TEST_UI_ORIGIN }];
      for (const headers of attempts) {
        const res = await codecPost('decode', { payloads: [toJson(started())] }, headers);
        expect(res.status).toBe(401);
        expect(JSON.stringify(await res.json())).not.toContain('Quillfeather');
      }
    });

    it('encodes with the current key, and round-trips', async () => {
      const plain = defaultPayloadConverter.toPayload({ note: 'from the UI' });
      const encoded = (await codecPost('encode', { payloads: [toJson(plain)] }, bearer()).then((r) => r.json())) as {
        payloads: Array<{ metadata: Record<string, string>; data: string }>;
      };
      const payload = fromJson(encoded.payloads[0]!);
      expect(Buffer.from(payload.metadata![KEY_ID_METADATA]!).toString()).toBe(service.payloadKeys[0]!.id);
      const back = (await codecPost('decode', encoded, bearer()).then((r) => r.json())) as {
        payloads: Array<{ metadata: Record<string, string>; data: string }>;
      };
      expect(defaultPayloadConverter.fromPayload(fromJson(back.payloads[0]!))).toEqual({ note: 'from the UI' });
    });

    it('answers 400 naming an unknown key id, and for a body that is not payloads', async () => {
      const [foreign] = await createPayloadCodec([{ id: 'elsewhere', key: Buffer.alloc(32, 7) }]).encode([defaultPayloadConverter.toPayload('x')]);
      const res = await codecPost('decode', { payloads: [toJson(foreign!)] }, bearer());
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/key id "elsewhere"/);
      expect((await codecPost('decode', { payloads: 'none' }, bearer())).status).toBe(400);
      // Protobuf JSON leaves an empty list out: {} is no payloads.
      expect(await codecPost('decode', {}, bearer()).then((r) => r.json())).toEqual({ payloads: [] });
    });

    it('answers the CORS preflight of the configured UI origin only', async () => {
      const preflight = (origin: string) =>
        fetch(`${service.baseUrl}/codec/decode`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,x-namespace' },
        });
      const ok = await preflight(CODEC_TEST_UI_ORIGIN);
      expect(ok.status).toBe(204);
      expect(ok.headers.get('access-control-allow-origin')).toBe(CODEC_TEST_UI_ORIGIN);
      expect(ok.headers.get('access-control-allow-methods')).toContain('POST');
      for (const h of ['authorization', 'content-type', 'x-namespace']) expect(ok.headers.get('access-control-allow-headers')).toContain(h);
      const other = await preflight('http://evil.test');
      expect(other.status).toBe(403);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      // The answer to the UI's request carries the origin too, so the browser lets the UI read it.
      const res = await codecPost('decode', { payloads: [toJson(started())] }, { ...bearer(), origin: CODEC_TEST_UI_ORIGIN });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(CODEC_TEST_UI_ORIGIN);
    });

    it('lets the embedded UI in from its origin on loopback without the token, and nobody else', async () => {
      // As npm start configures it: the dev UI's origin, trusted on loopback.
      const app = express();
      app.use(express.json());
      app.use(codecRouter({ temporal: service.temporal, opsToken: service.opsToken, codec: { uiOrigins: ['http://localhost:8233'], trustLoopbackUi: true } }));
      app.use(errorHandler(() => undefined));
      const server = createServer(app);
      const base = await listen(server);
      try {
        const post = (headers: Record<string, string>) =>
          fetch(`${base}/codec/decode`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body: JSON.stringify({ payloads: [toJson(started())] }),
          });
        expect((await post({ origin: 'http://localhost:8233' })).status).toBe(200);
        expect((await post({})).status).toBe(401);
        expect((await post({ origin: 'http://localhost:9999' })).status).toBe(401);
        expect((await post({ origin: 'http://localhost:8233', 'x-forwarded-for': '203.0.113.9' })).status).toBe(401);
      } finally {
        await close(server);
      }
    });

    it('serves the Temporal CLI, so recorded histories come out decoded and replay', async () => {
      const cli = process.env.TEMPORAL_CLI_PATH ?? resolve('.temporal/bin/temporal');
      const show = (...extra: string[]) =>
        promisify(execFile)(cli, ['workflow', 'show', '--workflow-id', workflowId, '--output', 'json', '--address', inject('temporalAddress'), ...extra], {
          maxBuffer: 64 * 1024 * 1024,
        });
      expect((await show()).stdout).not.toContain('Quillfeather');
      const { stdout } = await show('--codec-endpoint', `${service.baseUrl}/codec`, '--codec-auth', `Bearer ${service.opsToken}`);
      const dir = await mkdtemp(join(tmpdir(), 'codec-history-'));
      try {
        await writeFile(join(dir, 'history.json'), stdout);
        const history = loadHistory(join(dir, 'history.json')) as History;
        const decoded = payloadsIn(history)
          .map((p) => Buffer.from(p.payload.data ?? []).toString('utf8'))
          .join('\n');
        expect(decoded).toContain(COMMENT);
        expect(decoded).toContain(FILE_NAME);
        // A decoded recording replays (decode passes plain payloads through), as test/histories/ do.
        await expect(Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history, 'decoded')).resolves.toBeUndefined();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});
