// Claims racing over HTTP against the running service (issue 41, item 7): one worker's claims at
// once, several workers' claims for the same tasks, and a worker already holding one. A worker ends
// holding up to TASK_MAX_HELD, never more at any moment the task rows show, and never none when
// fewer were held; each task is claimed once. On PGlite and on PostgreSQL (a pool of connections:
// the claims' transactions run side by side, as in several API processes).
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { waitFor } from '../helpers/net.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import { dropClaim, getTask, reserveClaim, tasksOfOrder } from '../../src/db/tasks.js';
import { openDatabase } from '../../src/db/connection.js';
import { tasks } from '../../src/db/schema.js';
import { WorkerSession } from '../helpers/workerSession.js';

const MAX_HELD = 2;

describeOnEachDatabase('claims racing for the workbench', (engine) => {
  let service: TestService;
  let media: MediaServer;

  beforeAll(async () => {
    [service, media] = await Promise.all([startService({ engine, maxHeldTasks: MAX_HELD }), startMediaServer()]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
  });

  /** `n` orders of human transcription, each one work task waiting; their task ids. */
  async function openTasks(n: number): Promise<string[]> {
    return Promise.all(
      Array.from({ length: n }, async () => {
        const account = await service.createAccount(20);
        const { orderId } = await placeOrder(service, { token: account.token, fields: englishAudio(media, 30) });
        return waitFor(async () => (await tasksOfOrder(service.database.db, orderId))[0]?.id, 'the work task');
      }),
    );
  }

  async function newWorker(name: string): Promise<{ id: number; session: WorkerSession }> {
    const created = (await service.ops('POST', '/ops/workers', { name, skills: 'transcription:english' })).body as { worker_id: number; sign_in_token: string };
    return { id: created.worker_id, session: await WorkerSession.signIn(service.baseUrl, created.sign_in_token) };
  }

  const heldBy = async (workerId: number) =>
    (
      await service.database.db
        .select({ n: count() })
        .from(tasks)
        .where(and(eq(tasks.status, 'claimed'), eq(tasks.claimedBy, workerId)))
    )[0]!.n;

  /** Runs the claims at once while reading the task rows; the most each worker held at any reading. */
  async function racing<T>(workerIds: number[], claims: Array<() => Promise<T>>): Promise<{ answers: T[]; most: Map<number, number> }> {
    const most = new Map(workerIds.map((id) => [id, 0]));
    let running = true;
    const watching = (async () => {
      while (running) {
        for (const id of workerIds) most.set(id, Math.max(most.get(id)!, await heldBy(id)));
      }
    })();
    try {
      const answers = await Promise.all(claims.map((claim) => claim()));
      return { answers, most };
    } finally {
      running = false;
      await watching;
      for (const id of workerIds) most.set(id, Math.max(most.get(id)!, await heldBy(id)));
    }
  }

  const claim = (session: WorkerSession, taskId: string) => async () => (await session.request('POST', `/work/tasks/${taskId}/claim`, {})).location;

  it('one worker claims five tasks at once: holds exactly two, never more, never none; five "claim next" at once: the same', async () => {
    const ids = await openTasks(5);
    const ann = await newWorker('ann');
    const { answers, most } = await racing(
      [ann.id],
      ids.map((id) => claim(ann.session, id)),
    );
    expect(answers.filter((a) => a?.startsWith('/work/tasks/'))).toHaveLength(MAX_HELD);
    expect(answers.filter((a) => a === '/work/queue')).toHaveLength(5 - MAX_HELD);
    expect(most.get(ann.id)).toBe(MAX_HELD);
    expect(await heldBy(ann.id)).toBe(MAX_HELD);
    // The tasks the answers named are the ones held; the others wait.
    const won = answers.filter((a) => a?.startsWith('/work/tasks/')).map((a) => a!.slice('/work/tasks/'.length));
    for (const id of ids) expect((await getTask(service.database.db, id))!.status).toBe(won.includes(id) ? 'claimed' : 'waiting');
    expect((await ann.session.request('GET', '/work/queue')).text).toContain('You hold as many tasks as you may');

    // "Claim next task" five times at once: each would take the soonest task.
    const bob = await newWorker('bob');
    const next = await racing(
      [bob.id],
      Array.from({ length: 5 }, () => async () => (await bob.session.request('POST', '/work/claim-next', {})).location),
    );
    expect(next.answers.filter((a) => a?.startsWith('/work/tasks/'))).toHaveLength(MAX_HELD);
    expect(next.most.get(bob.id)).toBe(MAX_HELD);
    expect(await heldBy(bob.id)).toBe(MAX_HELD);
  });

  it('five workers race for two tasks: each task claimed once, by one of them', async () => {
    const ids = await openTasks(2);
    const racers = await Promise.all(['w1', 'w2', 'w3', 'w4', 'w5'].map(newWorker));
    const { answers, most } = await racing(
      racers.map((w) => w.id),
      racers.flatMap((w) => ids.map((id) => claim(w.session, id))),
    );
    expect(answers.filter((a) => a?.startsWith('/work/tasks/'))).toHaveLength(2);
    const holders = await Promise.all(ids.map(async (id) => (await getTask(service.database.db, id))!));
    for (const task of holders) expect(task).toMatchObject({ status: 'claimed', claimedBy: expect.toBeOneOf(racers.map((w) => w.id)) });
    for (const w of racers) expect(most.get(w.id)).toBeLessThanOrEqual(MAX_HELD);
  });

  it('a worker holding one races three claims: ends holding two', async () => {
    const [first, ...others] = await openTasks(4);
    const cleo = await newWorker('cleo');
    expect(await claim(cleo.session, first!)()).toBe(`/work/tasks/${first}`);
    const { answers, most } = await racing(
      [cleo.id],
      others.map((id) => claim(cleo.session, id)),
    );
    expect(answers.filter((a) => a?.startsWith('/work/tasks/'))).toHaveLength(1);
    expect(most.get(cleo.id)).toBe(MAX_HELD);
    expect(await heldBy(cleo.id)).toBe(MAX_HELD);
    expect((await getTask(service.database.db, first!))!.claimedBy).toBe(cleo.id);
  });

  it('slots: taken one at a time from two connection pools at once (two API processes), a task counted once, a lapsed slot freed', async () => {
    const dan = await newWorker('dan');
    // On PostgreSQL a second pool of its own, as another process has; PGlite has one connection.
    const other = engine === 'postgres' ? await openDatabase({ databaseUrl: service.database.url! }) : undefined;
    try {
      const dbs = [service.database.db, other?.db ?? service.database.db];
      const taskIds = Array.from({ length: 10 }, (_, i) => `task-1-race-${i}`);
      const slots = await Promise.all(taskIds.map((id, i) => reserveClaim(dbs[i % 2]!, dan.id, id, MAX_HELD, 60_000)));
      const taken = taskIds.filter((_, i) => slots[i] !== undefined);
      expect(taken).toHaveLength(MAX_HELD);
      // A second claim of a task in flight shares its slot (only one can win the task); another task waits.
      const again = await reserveClaim(dbs[1]!, dan.id, taken[0]!, MAX_HELD, 60_000);
      expect(again).toBeDefined();
      expect(await reserveClaim(dbs[0]!, dan.id, 'task-1-race-other', MAX_HELD, 60_000)).toBeUndefined();
      for (const slot of [...slots, again]) if (slot !== undefined) await dropClaim(dbs[0]!, slot);
      // A slot left behind (its process died) lapses: here after 1 ms.
      expect(await reserveClaim(dbs[0]!, dan.id, 'task-1-left-a', MAX_HELD, 1)).toBeDefined();
      expect(await reserveClaim(dbs[0]!, dan.id, 'task-1-left-b', MAX_HELD, 1)).toBeDefined();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await reserveClaim(dbs[1]!, dan.id, 'task-1-after', MAX_HELD, 60_000)).toBeDefined();
    } finally {
      await other?.close();
    }
  });
});
