// The generated Python client (clients/python) as an integrator installs it: pip install from its
// folder into a new venv, then a script (test/helpers/pythonClientScript.py) quotes every product,
// lists the sample orders page by page, places a live order with its own callback receiver; the
// service finishes it (an operator completes it here), and the script verifies the callback's
// signature with standardwebhooks, downloads the result and meets a refusal as one typed error; a
// second service's rate limit (429) and full capacity (503) arrive as that error with Retry-After.
// Another script (test/helpers/pythonUploadScript.py) uploads local files with the client's upload()
// (tus) and orders them by their URL, resuming an interrupted upload.
import { spawn, execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, wavFile, type MediaServer } from '../helpers/mediaServer.js';
import { longContractPdf, pngImage, startDocumentServer, type DocumentServer } from '../helpers/documents.js';

const run = promisify(execFile);
const ROOT = resolve('.');

describe('the Python client installed from its folder', () => {
  let service: TestService;
  let small: TestService;
  let media: MediaServer;
  let docs: DocumentServer;
  let venv: string;

  beforeAll(async () => {
    // The second service has one document reader that lets nothing wait, and two reads a minute.
    [service, small, media, docs] = await Promise.all([
      startService(),
      startService({ sandbox: { children: 1, queueWaitMs: 1 }, rateLimits: { readsPerMinute: 2 } }),
      startMediaServer(),
      startDocumentServer(),
    ]);
    venv = await mkdtemp(join(tmpdir(), 'python-client-'));
    await run('python3', ['-m', 'venv', venv]);
    // A copy of the folder, as an integrator's checkout (a build writes into the folder it installs).
    await cp(join(ROOT, 'clients', 'python'), join(venv, 'client'), { recursive: true });
    // Its dependencies (httpx, attrs) and, by its `callbacks` extra, standardwebhooks from PyPI, as an
    // integrator gets them.
    await run(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `${join(venv, 'client')}[callbacks]`], {
      timeout: 240_000,
    });
  }, 300_000);
  afterAll(async () => {
    await Promise.all([service?.close(), small?.close(), media?.close(), docs?.close()]);
    if (venv) await rm(venv, { recursive: true, force: true });
  });

  it('quotes every product, pages through the orders, places a live order, verifies its signed callback and downloads the result', async () => {
    const account = (await service.ops('POST', '/ops/accounts', { name: 'python', balance: 20 })).body as { api_token: string; webhook_secret: string };
    const script = spawn(
      join(venv, 'bin', 'python'),
      [
        join(ROOT, 'test', 'helpers', 'pythonClientScript.py'),
        service.baseUrl,
        account.api_token,
        account.webhook_secret,
        media.audio(60),
        docs.serve('/words.txt', 'Hello there, and welcome back to the show.', 'text/plain'),
        docs.serve('/scan.png', pngImage(), 'image/png'),
        small.baseUrl,
        (await small.createAccount(10)).token,
        docs.serve('/long.pdf', await longContractPdf(40), 'application/pdf'),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    script.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => script.on('exit', done));
    const lines = createInterface({ input: script.stdout })[Symbol.asyncIterator]();

    const first = await lines.next();
    expect(first.done, stderr).toBe(false);
    const { order_id: orderId } = JSON.parse(first.value as string) as { order_id: number };
    // The service finishes it: an operator completes it with the transcript.
    expect((await service.complete(orderId, 'done.txt', 'Speaker 1: Hello from the Python client.')).status).toBe(200);

    const last = await lines.next();
    expect(await exited, stderr).toBe(0);
    const found = JSON.parse(last.value as string);
    expect(Object.keys(found.quotes).sort()).toEqual(
      ['ai_transcription', 'captions', 'forced_alignment', 'human_ocr', 'proofreading', 'subtitles', 'transcription', 'translation'].sort(),
    );
    for (const total of Object.values(found.quotes)) expect(total).toBeGreaterThan(0);
    expect(found.sample_ids.length).toBeGreaterThanOrEqual(8);
    expect(new Set(found.sample_ids).size).toBe(found.sample_ids.length);
    expect(found).toMatchObject({ signature: 'valid', tampered: 'refused', status: 'finished', docx_head: 'PK', vocabulary: ['Siobhan', 'Zyphrex'] });
    expect(found.text).toContain('Hello from the Python client.');
    expect(found.refusal).toMatchObject({ status: 400, retryable: false });
    expect(found.refusal.message).toMatch(/^url: /);
    // The small service's own answers: the token's rate limit and its full capacity.
    expect(found.limited).toMatchObject({ status: 429, retryable: true, message: expect.stringMatching(/\S/) });
    expect(found.limited.retry_after_seconds).toBeGreaterThan(0);
    expect(found.busy).toEqual({
      status: 503,
      message: 'the service is reading many documents at once; retry in a few seconds',
      retry_after_seconds: expect.any(Number),
      retryable: true,
    });
    expect(found.busy.retry_after_seconds).toBeGreaterThan(0);
  }, 240_000);

  it('uploads local files by tus with upload() and orders them by their URL, resuming an interrupted upload', async () => {
    const { token } = await service.createAccount(20);
    const [large, small] = [join(venv, 'twenty minutes.wav'), join(venv, 'ninety seconds.wav')];
    await Promise.all([writeFile(large, wavFile(1200)), writeFile(small, wavFile(90))]);
    const script = join(ROOT, 'test', 'helpers', 'pythonUploadScript.py');
    const { stdout } = await run(join(venv, 'bin', 'python'), [script, service.baseUrl, token, large, small, join(venv, 'uploads.json')], {
      timeout: 120_000,
    }).catch((err: { stderr?: string }) => {
      throw new Error(`the upload script failed:\n${err.stderr ?? String(err)}`);
    });
    const found = JSON.parse(stdout);
    const uploadUrl = new RegExp(`^${service.baseUrl}/api/v4/uploads/[0-9a-f]{32}$`);

    // 9.6 MB in chunks of 8 MiB, ordered live and measured from its bytes.
    expect(found.default_chunk_size).toBe(8 * 1024 * 1024);
    expect(found.large.url).toMatch(uploadUrl);
    expect(found.large.offsets).toEqual([
      [8 * 1024 * 1024, 9_600_044],
      [9_600_044, 9_600_044],
    ]);
    expect(found.large.seconds).toBe(1200);

    // Stopped after three chunks of 64 KiB; the second upload() continued the same upload from there.
    expect(found.interrupted).toBe(true);
    expect(found.resumed.remembered).toHaveLength(1);
    expect(found.resumed.held_offset).toBe(3 * 65536);
    expect(found.resumed.url).toBe(found.resumed.remembered[0]);
    expect(found.resumed.first_progress).toBe(4 * 65536);
    expect(found.resumed.store_after).toEqual({});
    expect(found.resumed.seconds).toBe(90);

    // 11 chunks over connections that lost one PATCH's answer (not sent again: HEAD said it was taken)
    // and one PATCH (sent again): 12 PATCHes, the file whole.
    expect(found.dropped).toEqual({ patches: 12, seconds: 90 });

    // The generated one-shot upload_file, quoted by its url.
    expect(found.one_shot).toEqual({ url: expect.stringMatching(uploadUrl), size: 720_044, seconds: 90 });
    expect(found.refusal).toEqual({ status: 400, message: 'api_token: invalid token', retryable: false });
  }, 180_000);
});
