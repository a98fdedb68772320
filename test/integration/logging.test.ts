// The service's log (docs/operations.md): `node dist/main.js` as a process of its own (PGlite, the
// run's Temporal server, its own task queue), everything it writes captured. An order is placed
// with a token, the account area signed in to, /ops called with the operator token, the order
// completed and called back: no token, secret or cookie appears in any line, and every line about
// the order (API, activities, the workflow, the SDK's own) carries orderId, accountId and workflowId.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { freePort, waitFor } from '../helpers/net.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { createLogger } from '../../src/log.js';

describe('service logs', () => {
  let dataDir: string;
  let media: MediaServer;
  let receiver: CallbackReceiver;
  let child: ChildProcess | undefined;
  let output = '';
  let base: string;
  let metricsPort: number;
  let temporalMetricsPort: number;
  const opsToken = randomBytes(18).toString('hex');
  const secretKey = randomBytes(32).toString('hex');
  const wrongOpsToken = `wrong-${randomBytes(12).toString('hex')}`;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'order-logs-'));
    [media, receiver] = await Promise.all([startMediaServer(), startCallbackReceiver()]);
    const port = await freePort();
    [metricsPort, temporalMetricsPort] = [await freePort(), await freePort()];
    base = `http://localhost:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_TASK_QUEUE: `logs-${randomBytes(6).toString('hex')}`,
      OPS_TOKEN: opsToken,
      SECRET_KEY: secretKey,
      AI_ENGINE: 'operator',
      ALIGN_ENGINE: 'operator',
      CALLBACK_RETRY_MIN_MS: '10',
      CALLBACK_RETRY_MAX_MS: '50',
      QUALITY_CHECK_PROBABILITY: '0',
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
      LOG_LEVEL: 'debug',
      METRICS_PORT: String(metricsPort),
      TEMPORAL_METRICS_PORT: String(temporalMetricsPort),
    };
    delete env.DATABASE_URL; // PGlite in the data directory: one process
    child = spawn(process.execPath, ['dist/main.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => {
      output += d;
    });
    child.stderr!.on('data', (d) => {
      output += d;
    });
    await waitFor(() => output.includes('"msg":"started"') || (child!.exitCode !== null && Promise.reject(new Error(output))), 'the service to start', 90_000);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await Promise.all([media?.close(), receiver?.close()]);
    await rm(dataDir, { recursive: true, force: true });
  });

  const ops = (method: string, path: string, body?: unknown, token = opsToken) =>
    fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': Buffer.isBuffer(body) ? 'application/octet-stream' : 'application/json' },
      body: body === undefined ? undefined : Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body),
    });
  const cookieOf = (res: Response, name: string) =>
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${name}=`))
      ?.split(';')[0];
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1];

  it('redacts every secret and names the order on every line about it', async () => {
    const created = (await (await ops('POST', '/ops/accounts', { name: 'logs', balance: 50 })).json()) as {
      account_id: number;
      api_token: string;
      webhook_secret: string;
    };
    const { account_id: accountId, api_token: apiToken, webhook_secret: webhookSecret } = created;
    expect(apiToken).toBeTruthy();

    // An order placed with the token in its body, read back with the token in the query string.
    const placed = (await fetch(`${base}/api/v4/transcriptions`, {
      method: 'POST',
      body: new URLSearchParams({ api_token: apiToken, mode: 'live', url: media.audio(120), language: 'english', callback_url: receiver.url }),
    }).then((r) => r.json())) as { order_id: number };
    const orderId = placed.order_id;
    expect(orderId).toEqual(expect.any(Number));
    expect((await fetch(`${base}/api/v4/orders/${orderId}?api_token=${apiToken}&mode=live`)).status).toBe(200);

    // The account area: sign in with the token, read the order page with the session cookie.
    const form = await fetch(`${base}/account/sign-in`);
    const pre = cookieOf(form, 'order_sign_in')!;
    const csrf = csrfOf(await form.text())!;
    const signedIn = await fetch(`${base}/account/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: pre },
      body: new URLSearchParams({ csrf, api_token: apiToken }),
    });
    const session = cookieOf(signedIn, 'order_session')!;
    expect(session).toBeTruthy();
    expect((await fetch(`${base}/account/orders/${orderId}`, { headers: { cookie: session } })).status).toBe(200);

    // /ops with the operator token (and once with a wrong one), then the order completed and called back.
    expect((await ops('GET', `/ops/orders/${orderId}`, undefined, wrongOpsToken)).status).toBe(401);
    const upload = (await (await ops('PUT', '/ops/files', Buffer.from('Hello there.'))).json()) as { key: string };
    expect((await ops('POST', `/ops/orders/${orderId}/complete`, { files: [{ kind: 'transcription', key: upload.key, file_name: 't.txt' }] })).status).toBe(
      200,
    );
    await waitFor(() => receiver.received.some((c) => c.fields.order_id === String(orderId)), 'the callback');
    await waitFor(() => output.includes('"msg":"callback delivered"'), 'the callback logged');
    expect((await ops('GET', `/ops/orders/${orderId}`)).status).toBe(200);

    const lines = output.split('\n').filter(Boolean);
    const entries = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    // No secret anywhere in the output: not in a log line, not elsewhere.
    const secrets = { apiToken, webhookSecret, opsToken, wrongOpsToken, secretKey, session: session.split('=')[1]!, preCookie: pre.split('=')[1]!, csrf };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(
        lines.filter((l) => l.includes(secret)),
        `${name} in the output`,
      ).toEqual([]);
    }

    // Every line about the order names it, its account and its workflow (the order's, or one of its tasks' in the workbench).
    const workflowId = `order-${orderId}`;
    const ownWorkflow = new RegExp(`^(order-${orderId}|task-${orderId}-[a-z0-9-]+)$`);
    const aboutOrder = entries.filter((e) => e.orderId === orderId || e.workflowId === workflowId);
    for (const entry of aboutOrder) expect(entry, String(entry.msg)).toMatchObject({ orderId, accountId, workflowId: expect.stringMatching(ownWorkflow) });
    const messages = aboutOrder.map((e) => e.msg);
    for (const msg of ['order placed', 'order paid', 'order finished', 'callback delivered', 'order updated by an operator']) expect(messages).toContain(msg);
    // The workflow's lines (wf.log, here its lifecycle at debug, through the SDK's logger sink) and the activities' (the SDK's activity logger).
    expect(messages).toContain('Workflow started');
    expect(aboutOrder.some((e) => e.sdkComponent === 'activity' && e.activityType === 'chargeWallet')).toBe(true);
    // pino's shape: a level name and an ISO time on each line; the `started` line as tests and supervisors wait for it.
    expect(entries.every((e) => typeof e.level === 'string' && typeof e.time === 'string' && typeof e.msg === 'string')).toBe(true);
    expect(lines.some((l) => l.includes('"msg":"started"'))).toBe(true);

    // The worker's listeners: the service's registry on METRICS_PORT, the SDK's on TEMPORAL_METRICS_PORT.
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/^orders_finished_total\{product="transcription"\} 1$/m);
    expect(metrics).toMatch(/^callback_attempts_total\{outcome="ok"\} 1$/m);
    const temporal = await (await fetch(`http://127.0.0.1:${temporalMetricsPort}/metrics`)).text();
    expect(temporal).toMatch(/^temporal_\w+/m);
  });

  it('censors secret fields by configuration, whatever a call site passes', () => {
    const written: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void written.push(line) } });
    logger.info(
      {
        api_token: 'S3CR3T1',
        authorization: 'Bearer S3CR3T2',
        cookie: 'order_session=S3CR3T3',
        webhook_secret: 'whsec_S3CR3T4',
        webhookSecret: 'whsec_S3CR3T5',
        body: { api_token: 'S3CR3T6', new_api_token: 'S3CR3T7' },
        req: { headers: { authorization: 'Bearer S3CR3T8', cookie: 'a=S3CR3T9' } },
        account: { webhookSecret: 'S3CR3T10', secret: 'S3CR3T11' },
        headers: { authorization: 'S3CR3T12' },
        'set-cookie': 'S3CR3T13',
        opsToken: 'S3CR3T14',
        orderId: 1,
        path: '/api/v4/orders/1',
      },
      'request',
    );
    const line = written.join('');
    expect(line).not.toContain('S3CR3T');
    expect(JSON.parse(line)).toMatchObject({
      api_token: '[Redacted]',
      req: { headers: { authorization: '[Redacted]', cookie: '[Redacted]' } },
      orderId: 1,
      path: '/api/v4/orders/1',
    });
  });
});
