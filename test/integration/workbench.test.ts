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
import { changeBetween, textDigest } from '../../src/domain/humanWork/textChange.js';
import { recordHistory } from '../helpers/histories.js';
import { englishAudio, placeOrder as placeOrderOf } from '../helpers/orders.js';
import { PATCH_MARKERS } from '../../src/workflows/patches.js';
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
    // Workers here keep tasks from one test to the next: the limit on tasks held is tested on a service of its own.
    [service, media] = await Promise.all([startService({ engine, maxHeldTasks: 100 }), startMediaServer()]);
    env = { ...process.env, ORDER_SERVICE_URL: service.baseUrl, OPS_TOKEN: service.opsToken };
    for (const [name, skills] of [
      ['ann', 'transcription:english'],
      ['bob', 'Transcription:English, review:english'],
      ['fran', 'transcription:french'],
      ['rita', 'review:english'],
    ] as const) {
      workers[name] = await json('worker', 'create', '--name', name, '--skills', skills);
    }
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
  });

  async function placeOrder(seconds = 30, on = service): Promise<{ orderId: number; taskId: string }> {
    const account = await on.createAccount(20);
    const { orderId } = await placeOrderOf(on, { token: account.token, fields: englishAudio(media, seconds) });
    const taskId = await waitFor(async () => (await tasksOfOrder(on.database.db, orderId))[0]?.id, 'the work task');
    return { orderId, taskId };
  }

  it('order-ops creates, lists, re-skills and disables workers; skills are checked and named', async () => {
    expect(workers.bob).toMatchObject({ worker_id: expect.any(Number), sign_in_token: expect.any(String) });
    const listed = (await orderOps('worker', 'list'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(listed.find((w) => w.worker_id === workers.bob!.worker_id)).toMatchObject({
      name: 'bob',
      skills: ['transcription:english', 'review:english'],
      disabled: false,
    });
    const wrong = await orderOps('worker', 'create', '--name', 'x', '--skills', 'typing:english').catch((err: { stderr: string }) => err.stderr);
    expect(wrong).toContain("skill 'typing:english' is not kind:language");
    const temp = await json('worker', 'create', '--name', 'temp', '--skills', 'ocr:english');
    expect(await json('worker', 'skills', String(temp.worker_id), 'ocr:english,translation:english>french')).toMatchObject({
      skills: ['ocr:english', 'translation:english>french'],
    });
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
    // An autosave sends only what changed, against the digest of the text saved.
    const save = (body: object, by = winner) => by.request('POST', `/work/tasks/${taskId}/save`, body, true);
    const edited = 'Speaker 1: the winner 🎉 said';
    expect((await save({ change: changeBetween('Speaker 1: winner', edited), base: textDigest('Speaker 1: winner') })).status).toBe(204);
    expect((await getTask(service.database.db, taskId))!.draft).toBe(edited);
    // Made against another text (a save from another tab came first): 412, and nothing changes.
    const stale = await save({ change: { from: 0, to: 0, insert: 'x' }, base: textDigest('Speaker 1: winner') });
    expect(stale.status).toBe(412);
    expect(JSON.parse(stale.text).error).toContain('send the whole text');
    const outside = await save({ change: { from: 5, to: edited.length + 4, insert: '' }, base: textDigest(edited) });
    expect(outside.status).toBe(412);
    expect((await getTask(service.database.db, taskId))!.draft).toBe(edited);
    // A malformed change names its field; the loser may not change the text either.
    const malformed = await save({ change: { from: -1, to: 2, insert: '' }, base: textDigest(edited) });
    expect([malformed.status, JSON.parse(malformed.text).error]).toEqual([400, 'change.from: must not be negative']);
    expect(JSON.parse((await save({ change: { from: 0, to: 0, insert: 'x' } })).text).error).toBe('base: must be the digest of the text saved');
    expect((await save({ change: { from: 0, to: 0, insert: 'x' }, base: textDigest(edited) }, loser)).status).toBe(409);
    expect((await getTask(service.database.db, taskId))!.draft).toBe(edited);
    const page = (await winner.request('GET', `/work/tasks/${taskId}`)).text;
    expect(page).toContain(`/work/tasks/${taskId}/media`);
    expect(page).not.toContain(media.url);
  });

  it("an idle claim expires (lease short here): back in the queue with its draft for the next worker; the lease is the workers' setting", async () => {
    // A service of its own: its workers' lease is seconds long; the API that places the order has the default two hours.
    const short = await startService({ engine, taskLeaseMs: LEASE_MS });
    try {
      await expireLease(short);
    } finally {
      await short.close();
    }
  });

  async function expireLease(short: TestService): Promise<void> {
    const { taskId } = await placeOrder(30, short);
    const tokens = await Promise.all(
      ['transcription:english', 'transcription:english'].map(
        async (skills, i) => (await short.ops('POST', '/ops/workers', { name: `w${i}`, skills })).body.sign_in_token as string,
      ),
    );
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

  it("serves the media from the service: the customer's server read once, ranges answered", async () => {
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
    // The release this database first ran and the open workflows started before it (an older major
    // version's, which it does not take over): none here, where everything started with it; then
    // each patch since.
    const [release, ...patches] = (await orderOps('patches'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(release).toEqual({ release: { version: '1.0.0', since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), open_workflows_started_before: 0 } });
    expect(patches.map((p) => p.patch)).toEqual(PATCH_MARKERS.map((p) => p.id));
    const waiting = (await orderOps('tasks', '--status', 'waiting'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(waiting.find((t) => t.task_id === taskId)).toMatchObject({
      order_id: orderId,
      stage: 'work',
      skill: 'transcription:english',
      status: 'waiting',
      late: false,
    });
    const ann = await WorkerSession.signIn(service.baseUrl, workers.ann!.sign_in_token);
    await ann.request('POST', `/work/tasks/${taskId}/claim`, {});
    expect(await json('release', taskId, '--reason', 'ann is away')).toEqual({ task_id: taskId, status: 'waiting', claimed_by: null });
    expect(await json('reassign', taskId, String(workers.bob!.worker_id))).toEqual({ task_id: taskId, status: 'claimed', claimed_by: workers.bob!.worker_id });
    const refused = await orderOps('reassign', taskId, String(workers.fran!.worker_id)).catch((err: { stderr: string }) => err.stderr);
    expect(refused).toMatch(/task .* is claimed; only|lacks the skill/);
    const bob = await WorkerSession.signIn(service.baseUrl, workers.bob!.sign_in_token);
    expect((await bob.request('POST', `/work/tasks/${taskId}/submit`, { text: 'Speaker 1: done by Bob.' })).location).toBe('/work/queue');
    const reviewId = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId)).find((t) => t.stage === 'review')?.id, 'the review task');
    // Bob has the review skill, but this review checks his own work: an operator cannot give it to him either.
    const ownWork = await orderOps('reassign', reviewId, String(workers.bob!.worker_id)).catch((err: { stderr: string }) => err.stderr);
    expect(ownWork).toContain(`checks work that worker ${workers.bob!.worker_id} did on order ${orderId}`);
    const rita = await WorkerSession.signIn(service.baseUrl, workers.rita!.sign_in_token);
    await rita.request('POST', `/work/tasks/${reviewId}/claim`, {});
    expect((await rita.request('POST', `/work/tasks/${reviewId}/review`, { text: 'Speaker 1: done by Bob.', decision: 'approve' })).location).toBe(
      '/work/queue',
    );
    await waitFor(async () => (await json('show', String(orderId))).status === 'finished', 'the order finished');
    const csv = await orderOps('earnings');
    expect(csv.split('\r\n')[0]).toBe('approved_utc,worker_id,worker_name,order_id,task_id,amount_usd');
    expect(csv).toContain(`,${workers.bob!.worker_id},bob,${orderId},${taskId},`);
    expect(csv).toContain(`,${workers.rita!.worker_id},rita,${orderId},${reviewId},`);

    expect((await json('show', String(orderId))).tasks.map((t: { status: string }) => t.status)).toEqual(['submitted', 'approved']);
    for (const id of [taskId, reviewId]) {
      expect((await getTask(service.database.db, id))!.workflowId).toBe(`order-${orderId}`);
      await expect(service.temporal.workflow.getHandle(id).describe()).rejects.toThrow(/not found/i);
    }
    // The order's workflow held both tasks: none has a workflow of its own (task-*.json in
    // test/histories are of task workflows started before that, which in-flight orders still run).
    if (engine === 'pglite') await recordHistory(service, orderId, 'transcription-workbench-finished');
  });

  it('long media in parts: a task per part worked at once by two workers, merged in time order, then reviewed as one', async () => {
    // A service of its own: parts of 12 seconds, so 30 seconds of media make three.
    const parted = await startService({ engine, workbench: { partSeconds: 12 } });
    try {
      const create = async (name: string, skills: string) =>
        (await parted.ops('POST', '/ops/workers', { name, skills })).body as { worker_id: number; sign_in_token: string };
      const [ann, bob, rita] = await Promise.all(
        [create('pa', 'transcription:english'), create('pb', 'transcription:english'), create('pr', 'review:english')].map(async (w) =>
          WorkerSession.signIn(parted.baseUrl, (await w).sign_in_token),
        ),
      );
      const { orderId } = await placeOrder(30, parted);
      const parts = await waitFor(async () => {
        const tasks = await tasksOfOrder(parted.database.db, orderId);
        return tasks.length === 3 && tasks;
      }, 'three part tasks');
      expect(parts.map((t) => [t.id, t.partNo, t.spanStart, t.spanEnd])).toEqual([
        [`task-${orderId}-part-1`, 1, 0, 12],
        [`task-${orderId}-part-2`, 2, 12, 24],
        [`task-${orderId}-part-3`, 3, 24, 30],
      ]);
      // Ann takes the first and the last, Bob the middle one; they hand them in out of order.
      const texts = ['Speaker 1: The first part.', 'Speaker 1: The second part.', 'Speaker 1: The third part.'];
      const claims: Array<[WorkerSession, number]> = [
        [ann!, 0],
        [bob!, 1],
        [ann!, 2],
      ];
      for (const [session, i] of claims)
        expect((await session.request('POST', `/work/tasks/${parts[i]!.id}/claim`, {})).location).toBe(`/work/tasks/${parts[i]!.id}`);
      for (const [session, i] of [claims[2]!, claims[1]!, claims[0]!]) {
        expect((await session.request('POST', `/work/tasks/${parts[i]!.id}/submit`, { text: texts[i]! })).location).toBe('/work/queue');
      }
      const review = await waitFor(async () => getTask(parted.database.db, `task-${orderId}-review-1`), 'the review of the merged parts');
      // In time order, whatever order they came in.
      const at = ['first', 'second', 'third'].map((word) => review.draft.indexOf(`The ${word} part.`));
      expect(at.every((i) => i >= 0) && at[0]! < at[1]! && at[1]! < at[2]!, review.draft).toBe(true);
      await rita!.request('POST', `/work/tasks/${review.id}/claim`, {});
      await rita!.request('POST', `/work/tasks/${review.id}/review`, { text: review.draft, decision: 'approve' });
      expect(await parted.temporal.workflow.getHandle(`order-${orderId}`).result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      if (engine === 'pglite') await recordHistory(parted, orderId, 'transcription-workbench-parts');
    } finally {
      await parted.close();
    }
  });

  it('nobody checks their own work (review, quality check); a worker holds at most two tasks; a send-back to a worker disabled meanwhile waits in the queue', async () => {
    // A service of its own: every finished order is picked for the quality check.
    const own = await startService({ engine, qualityCheckProbability: 1 });
    try {
      await checksAndHolds(own);
    } finally {
      await own.close();
    }
  });

  async function checksAndHolds(own: TestService): Promise<void> {
    const create = async (name: string, skills: string) =>
      (await own.ops('POST', '/ops/workers', { name, skills })).body as { worker_id: number; sign_in_token: string };
    const [wa, wb, wr, wq, wc] = await Promise.all([
      create('wa', 'transcription:english'),
      create('wb', 'transcription:english,review:english'),
      create('wr', 'review:english'),
      create('wq', 'review:english'),
      create('wc', 'transcription:english'),
    ]);
    const [ann, bob, rita, quinn, carl] = await Promise.all([wa, wb, wr, wq, wc].map((w) => WorkerSession.signIn(own.baseUrl, w.sign_in_token)));
    const [a, b, c] = [await placeOrder(30, own), await placeOrder(30, own), await placeOrder(30, own)];
    const taskOf = async (orderId: number, name: string) => waitFor(async () => getTask(own.database.db, `task-${orderId}-${name}`), `task-${orderId}-${name}`);

    // Two held at once; a third claim, one by one or "next", is refused with the reason.
    for (const order of [a, b]) expect((await ann!.request('POST', `/work/tasks/${order.taskId}/claim`, {})).location).toBe(`/work/tasks/${order.taskId}`);
    expect((await ann!.request('POST', `/work/tasks/${c.taskId}/claim`, {})).location).toBe('/work/queue');
    expect((await ann!.request('GET', '/work/queue')).text).toContain('You hold as many tasks as you may');
    expect((await ann!.request('POST', '/work/claim-next', {})).location).toBe('/work/queue');
    expect((await ann!.request('GET', '/work/queue')).text).toContain('You hold as many tasks as you may');
    expect((await getTask(own.database.db, c.taskId))!.status).toBe('waiting');
    expect((await ann!.request('POST', `/work/tasks/${b.taskId}/release`, {})).location).toBe('/work/queue');

    // Order A: sent back to its worker, fixed, approved (a reviewer may review the fix of work they sent back).
    expect((await ann!.request('POST', `/work/tasks/${a.taskId}/submit`, { text: 'Speaker 1: Hello from Ann.' })).location).toBe('/work/queue');
    const reviewA = await taskOf(a.orderId, 'review-1');
    await rita!.request('POST', `/work/tasks/${reviewA.id}/claim`, {});
    await rita!.request('POST', `/work/tasks/${reviewA.id}/review`, { text: 'Speaker 1: Hello from Ann.', decision: 'send_back', note: 'Check the name.' });
    const fixA = await taskOf(a.orderId, 'fix-1');
    expect(fixA).toMatchObject({ status: 'claimed', claimedBy: wa.worker_id, payCents: 0 });
    expect((await ann!.request('POST', `/work/tasks/${fixA.id}/submit`, { text: 'Speaker 1: Hello from Anne.' })).location).toBe('/work/queue');
    const review2 = await taskOf(a.orderId, 'review-2');
    expect((await rita!.request('POST', `/work/tasks/${review2.id}/claim`, {})).location).toBe(`/work/tasks/${review2.id}`);
    await rita!.request('POST', `/work/tasks/${review2.id}/review`, { text: 'Speaker 1: Hello from Anne.', decision: 'approve' });

    // The quality check of A: not the worker's, not the reviewer's; a third person's.
    const qc = await taskOf(a.orderId, 'qc');
    for (const [session, name] of [
      [rita!, 'rita'],
      [quinn!, 'quinn'],
    ] as const) {
      expect((await session.request('GET', '/work/queue')).text.includes(`Quality check: human transcription, order ${a.orderId}`), name).toBe(
        name === 'quinn',
      );
    }
    expect((await rita!.request('POST', `/work/tasks/${qc.id}/claim`, {})).location).toBe('/work/queue');
    expect((await rita!.request('GET', '/work/queue')).text).toContain('That task checks work you did on the order');
    expect((await quinn!.request('POST', `/work/tasks/${qc.id}/claim`, {})).location).toBe(`/work/tasks/${qc.id}`);
    expect((await quinn!.request('POST', `/work/tasks/${qc.id}/review`, { text: 'Speaker 1: Hello from Anne.', decision: 'approve' })).location).toBe(
      '/work/queue',
    );
    if (engine === 'pglite') await recordHistory(own, a.orderId, 'transcription-workbench-sent-back');

    // Order C: Bob does the work; its review is not offered to him, and his claim is refused.
    expect((await bob!.request('POST', `/work/tasks/${c.taskId}/claim`, {})).location).toBe(`/work/tasks/${c.taskId}`);
    expect((await bob!.request('POST', `/work/tasks/${c.taskId}/submit`, { text: 'Speaker 1: Hello from Bob.' })).location).toBe('/work/queue');
    const reviewC = await taskOf(c.orderId, 'review-1');
    expect((await bob!.request('GET', '/work/queue')).text).not.toContain(`order ${c.orderId}`);
    expect((await rita!.request('GET', '/work/queue')).text).toContain(`Review: human transcription, order ${c.orderId}`);
    expect((await bob!.request('POST', `/work/tasks/${reviewC.id}/claim`, {})).location).toBe('/work/queue');
    expect((await bob!.request('GET', '/work/queue')).text).toContain('That task checks work you did on the order');
    expect((await getTask(own.database.db, reviewC.id))!.status).toBe('waiting');

    // Bob is disabled while Rita reviews; her send-back waits in the queue, paid, for whoever takes it.
    expect((await rita!.request('POST', `/work/tasks/${reviewC.id}/claim`, {})).location).toBe(`/work/tasks/${reviewC.id}`);
    expect((await own.ops('POST', `/ops/workers/${wb.worker_id}/disable`, {})).status).toBe(200);
    await rita!.request('POST', `/work/tasks/${reviewC.id}/review`, { text: 'Speaker 1: Hello from Bob.', decision: 'send_back', note: 'Who is speaking?' });
    const fixC = await taskOf(c.orderId, 'fix-1');
    expect(fixC).toMatchObject({ status: 'waiting', claimedBy: null, note: 'Who is speaking?' });
    expect(fixC.payCents).toBeGreaterThan(0);
    expect((await carl!.request('POST', `/work/tasks/${fixC.id}/claim`, {})).location).toBe(`/work/tasks/${fixC.id}`);
    expect((await carl!.request('POST', `/work/tasks/${fixC.id}/submit`, { text: 'Speaker 1: Hello, Bob speaking.' })).location).toBe('/work/queue');
    const reviewC2 = await taskOf(c.orderId, 'review-2');
    await rita!.request('POST', `/work/tasks/${reviewC2.id}/claim`, {});
    expect((await rita!.request('POST', `/work/tasks/${reviewC2.id}/review`, { text: 'Speaker 1: Hello, Bob speaking.', decision: 'approve' })).location).toBe(
      '/work/queue',
    );
    const qcC = await taskOf(c.orderId, 'qc');
    expect((await quinn!.request('POST', `/work/tasks/${qcC.id}/claim`, {})).location).toBe(`/work/tasks/${qcC.id}`);
    await quinn!.request('POST', `/work/tasks/${qcC.id}/review`, { text: 'Speaker 1: Hello, Bob speaking.', decision: 'approve' });
    if (engine === 'pglite') await recordHistory(own, c.orderId, 'transcription-workbench-sent-back-to-disabled-worker');
  }
});
