// The workbench through the service as it runs (HTTP API, /work pages, worker, PGlite, the run's
// Temporal dev server) and order-ops as a separate process: workers and skills, the claim race over
// HTTP, a lease that expires (short here) and keeps the draft, the media served once from the
// customer's server with ranges, operators' tasks, release, reassign, earnings CSV and metrics.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, wavFile, type MediaServer } from '../helpers/mediaServer.js';
import { waitFor } from '../helpers/net.js';
import { getTask, tasksOfOrder } from '../../src/db/tasks.js';
import { recordHistory } from '../helpers/histories.js';
import { WorkerSession } from '../helpers/workerSession.js';

const LEASE_MS = 2_500;


describeOnEachDatabase('the workbench through the running service', (engine) => {
  let service: TestService;
  let media: MediaServer;
  let env: NodeJS.ProcessEnv;
  const orderOps = async (...args: string[]) => {
    const { stdout } = await promisify(execFile)(process.execPath, ['dist/cli/order-ops.js', ...args], { env });
    return stdout;
  };
  const json = async (...args: string[]) => JSON.parse(await orderOps(...args));
  const workers: Record<string, { worker_id: number; sign_in_token: string }> = {};

  beforeAll(async () => {
    [service, media] = await Promise.all([startService({ engine }), startMediaServer()]);
    env = { ...process.env, ORDER_SERVICE_URL: service.baseUrl, OPS_TOKEN: service.opsToken };
    for (const [name, skills] of [['ann', 'transcription:english'], ['bob', 'Transcription:English, review:english'], ['fran', 'transcription:french']] as const) {
      workers[name] = await json('worker', 'create', '--name', name, '--skills', skills);
    }
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
  });

  async function placeOrder(seconds = 30, on = service): Promise<{ orderId: number; taskId: string }> {
    const account = await on.createAccount(20);
    const placed = await on.post('/api/v4/transcriptions', { api_token: account.token, mode: 'live', url: media.audio(seconds), language: 'english' });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const orderId = placed.body.order_id as number;
    const taskId = await waitFor(async () => (await tasksOfOrder(on.database.db, orderId))[0]?.id, 'the work task');
    return { orderId, taskId };
  }

  it('order-ops creates, lists, re-skills and disables workers; skills are checked and named', async () => {
    expect(workers.bob).toMatchObject({ worker_id: expect.any(Number), sign_in_token: expect.any(String) });
    const listed = (await orderOps('worker', 'list')).trim().split('\n').map((line) => JSON.parse(line));
    expect(listed.find((w) => w.worker_id === workers.bob!.worker_id)).toMatchObject({ name: 'bob', skills: ['transcription:english', 'review:english'], disabled: false });
    const wrong = await orderOps('worker', 'create', '--name', 'x', '--skills', 'typing:english').catch((err: { stderr: string }) => err.stderr);
    expect(wrong).toContain("skill 'typing:english' is not kind:language");
    const temp = await json('worker', 'create', '--name', 'temp', '--skills', 'ocr:english');
    expect(await json('worker', 'skills', String(temp.worker_id), 'ocr:english,translation:english>french')).toMatchObject({ skills: ['ocr:english', 'translation:english>french'] });
    expect(await json('worker', 'disable', String(temp.worker_id))).toMatchObject({ disabled: true });
    await expect(WorkerSession.signIn(service.baseUrl, temp.sign_in_token)).rejects.toThrow('sign-in refused: 401');
  });

  it('two workers race for one task over HTTP: exactly one claim; a worker without the skill never sees it', async () => {
    const { orderId, taskId } = await placeOrder();
    const [ann, bob, fran] = await Promise.all(['ann', 'bob', 'fran'].map((w) => WorkerSession.signIn(service.baseUrl, workers[w]!.sign_in_token)));
    expect((await fran!.request('GET', '/work/queue')).text).not.toContain(`order ${orderId}`);
    expect((await fran!.request('GET', `/work/tasks/${taskId}`)).status).toBe(403);
    expect((await ann!.request('GET', '/work/queue')).text).toContain(`order ${orderId}`);
    const answers = await Promise.all([ann!, bob!].map((s) => s.request('POST', `/work/tasks/${taskId}/claim`, {})));
    const won = answers.filter((a) => a.location === `/work/tasks/${taskId}`);
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.location === '/work/queue')).toHaveLength(1);
    const task = (await getTask(service.database.db, taskId))!;
    expect(task.status).toBe('claimed');
    const [winner, loser] = task.claimedBy === workers.ann!.worker_id ? [ann!, bob!] : [bob!, ann!];
    expect((await loser.request('GET', '/work/queue')).text).toContain('Another worker claimed that task first.');
    // Only the holder saves; the holder's page plays the media through the service.
    expect((await loser.request('POST', `/work/tasks/${taskId}/save`, { text: 'mine' }, true)).status).toBe(409);
    expect((await winner.request('POST', `/work/tasks/${taskId}/save`, { text: 'Speaker 1: winner' }, true)).status).toBe(204);
    const page = (await winner.request('GET', `/work/tasks/${taskId}`)).text;
    expect(page).toContain(`/work/tasks/${taskId}/media`);
    expect(page).not.toContain(media.url);
  });

  it('an idle claim expires (lease short here): back in the queue with its draft for the next worker', async () => {
    // A service of its own: its lease is seconds long.
    const short = await startService({ engine, workbench: { leaseMs: LEASE_MS } });
    try {
      await expireLease(short);
    } finally {
      await short.close();
    }
  });

  async function expireLease(short: TestService): Promise<void> {
    const { taskId } = await placeOrder(30, short);
    const tokens = await Promise.all(['transcription:english', 'transcription:english'].map(async (skills, i) =>
      (await short.ops('POST', '/ops/workers', { name: `w${i}`, skills })).body.sign_in_token as string));
    const [ann, bob] = await Promise.all(tokens.map((token) => WorkerSession.signIn(short.baseUrl, token)));
    await ann!.request('POST', `/work/tasks/${taskId}/claim`, {});
    expect((await ann!.request('POST', `/work/tasks/${taskId}/save`, { text: 'Speaker 1: started by Ann' }, true)).status).toBe(204);
    await waitFor(async () => (await getTask(short.database.db, taskId))?.status === 'waiting', 'the lease expiry', 20_000);
    expect(await getTask(short.database.db, taskId)).toMatchObject({ claimedBy: null, leaseExpiries: 1, draft: 'Speaker 1: started by Ann' });
    expect((await ann!.request('POST', `/work/tasks/${taskId}/save`, { text: 'too late' }, true)).status).toBe(409);
    // Claims, the expiry, and the task waiting again: in /metrics.
    const metrics = await (await fetch(`${short.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/workbench_lease_expiries_total\{skill="transcription:english"\} [1-9]/);
    expect(metrics).toMatch(/workbench_claims_total\{skill="transcription:english"\} [1-9]/);
    expect(metrics).toContain('workbench_paid_to_first_claim_seconds_count');
    expect(metrics).toMatch(/workbench_queue_depth\{skill="transcription:english"\} [1-9]/);
    expect((await bob!.request('POST', `/work/tasks/${taskId}/claim`, {})).location).toBe(`/work/tasks/${taskId}`);
    expect((await bob!.request('GET', `/work/tasks/${taskId}`)).text).toContain('Speaker 1: started by Ann');
  }

  it('serves the media from the service: the customer\'s server read once, ranges answered', async () => {
    const { orderId, taskId } = await placeOrder(20);
    const ann = await WorkerSession.signIn(service.baseUrl, workers.ann!.sign_in_token);
    await ann.request('POST', `/work/tasks/${taskId}/claim`, {});
    const before = media.hits.filter((h) => h === '/audio-20.wav').length;
    // The session's cookie, as the browser's player sends it.
    const headers = { cookie: ann.cookieHeader() };
    const whole = await fetch(`${service.baseUrl}/work/tasks/${taskId}/media`, { headers });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(wavFile(20))).toBe(true);
    const part = await fetch(`${service.baseUrl}/work/tasks/${taskId}/media`, { headers: { ...headers, range: 'bytes=44-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 44-99/${wavFile(20).length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(wavFile(20).subarray(44, 100))).toBe(true);
    // The quote, the placement's probe and the first play: the first play fetched it, the second did not.
    expect(media.hits.filter((h) => h === '/audio-20.wav').length - before).toBe(1);
    const show = await json('show', String(orderId));
    expect(show.input_files.media).toMatchObject({ key: expect.any(String) });
  });

  it('operators list tasks, release and reassign claims, and export earnings', async () => {
    const { orderId, taskId } = await placeOrder();
    const waiting = (await orderOps('tasks', '--status', 'waiting')).trim().split('\n').map((l) => JSON.parse(l));
    expect(waiting.find((t) => t.task_id === taskId)).toMatchObject({ order_id: orderId, stage: 'work', skill: 'transcription:english', status: 'waiting', late: false });
    const ann = await WorkerSession.signIn(service.baseUrl, workers.ann!.sign_in_token);
    await ann.request('POST', `/work/tasks/${taskId}/claim`, {});
    expect(await json('release', taskId, '--reason', 'ann is away')).toEqual({ task_id: taskId, status: 'waiting', claimed_by: null });
    expect(await json('reassign', taskId, String(workers.bob!.worker_id))).toEqual({ task_id: taskId, status: 'claimed', claimed_by: workers.bob!.worker_id });
    const refused = await orderOps('reassign', taskId, String(workers.fran!.worker_id)).catch((err: { stderr: string }) => err.stderr);
    expect(refused).toMatch(/task .* is claimed; only|lacks the skill/);
    const bob = await WorkerSession.signIn(service.baseUrl, workers.bob!.sign_in_token);
    expect((await bob.request('POST', `/work/tasks/${taskId}/submit`, { text: 'Speaker 1: done by Bob.' })).location).toBe('/work/queue');
    const reviewId = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId)).find((t) => t.stage === 'review')?.id, 'the review task');
    // Bob also reviews (his skills say so).
    await bob.request('POST', `/work/tasks/${reviewId}/claim`, {});
    expect((await bob.request('POST', `/work/tasks/${reviewId}/review`, { text: 'Speaker 1: done by Bob.', decision: 'approve' })).location).toBe('/work/queue');
    await waitFor(async () => (await json('show', String(orderId))).status === 'finished', 'the order finished');
    const csv = await orderOps('earnings');
    expect(csv.split('\r\n')[0]).toBe('approved_utc,worker_id,worker_name,order_id,task_id,amount_usd');
    expect(csv).toContain(`,${workers.bob!.worker_id},bob,${orderId},${taskId},`);
    expect(csv).toContain(`,${orderId},${reviewId},`);
    expect((await json('show', String(orderId))).tasks.map((t: { status: string }) => t.status)).toEqual(['submitted', 'approved']);
    if (engine === 'pglite') await recordHistory(service, orderId, 'transcription-workbench-finished');
    if (engine === 'pglite') await recordHistory(service, orderId, 'task-work-submitted', taskId);
    if (engine === 'pglite') await recordHistory(service, orderId, 'task-review-approved', reviewId);
  });
});
