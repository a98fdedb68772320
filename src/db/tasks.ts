// The workbench's task rows. The workflow holding a task (its order's, or a child named as the task:
// src/workflows/order/heldTask.ts) decides claims and writes them here through activities; the web layer reads the queue here and writes autosaves, which
// are allowed only to the worker who holds the claim. A claim takes a slot of the worker's first
// (`reserveClaim`): the limit on tasks held counts the claims still in flight.
import { and, asc, eq, inArray, lt, lte, notExists, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from './connection.js';
import { claimReservations, tasks, workers, type TaskRow } from './schema.js';
import type { TaskStage, TaskStatus } from '../contracts/tasks.js';
import { barredPairs } from '../domain/humanWork/ownWork.js';
import { applyChange, textDigest, type TextChange } from '../domain/humanWork/textChange.js';
import { changeProblem } from '../domain/humanWork/workText.js';

export type NewTask = Pick<
  TaskRow,
  | 'id'
  | 'orderId'
  | 'product'
  | 'stage'
  | 'partNo'
  | 'spanStart'
  | 'spanEnd'
  | 'words'
  | 'skill'
  | 'deadline'
  | 'draft'
  | 'baseText'
  | 'note'
  | 'payCents'
  | 'workflowId'
> & { claimedBy?: number | null };

/** Creates the tasks' rows in one statement, each once (a retried activity finds them). */
export async function insertTasks(db: Db, rows: NewTask[]): Promise<void> {
  const now = new Date();
  await db
    .insert(tasks)
    .values(
      rows.map((task) => ({
        ...task,
        status: task.claimedBy != null ? ('claimed' as const) : ('waiting' as const),
        claimedBy: task.claimedBy ?? null,
        claimedAt: task.claimedBy != null ? now : null,
      })),
    )
    .onConflictDoNothing();
}

export async function getTask(db: Db, taskId: string): Promise<TaskRow | undefined> {
  const [row] = await db.select().from(tasks).where(eq(tasks.id, taskId));
  return row;
}

export async function recordClaim(db: Db, taskId: string, workerId: number): Promise<void> {
  // The lease counts this claim's saves from zero (the task workflow needs no read of them at a claim).
  await db.update(tasks).set({ status: 'claimed', claimedBy: workerId, claimedAt: new Date(), savedAt: null, saves: 0 }).where(eq(tasks.id, taskId));
}

/** By the database's clock, as every process sharing it reads it. */
const expiresIn = (ms: number) => sql`now() + ${ms}::integer * interval '1 millisecond'`;

/**
 * Takes one of the worker's `max` slots for a claim of `taskId` (answers its id), or answers undefined
 * when the tasks they hold and their claims in flight fill them. A task counts once: claims of one
 * task share a slot, as only one of them can win it. Under a lock on the worker's row, so that racing
 * claims, from this process or another, count one after the other.
 */
export async function reserveClaim(db: Db, workerId: number, taskId: string, max: number, ttlMs: number): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    // NO KEY UPDATE: a task row naming the worker (its foreign key) is written meanwhile without waiting.
    await tx.select({ id: workers.id }).from(workers).where(eq(workers.id, workerId)).for('no key update');
    await tx.delete(claimReservations).where(and(eq(claimReservations.workerId, workerId), lte(claimReservations.expiresAt, sql`now()`)));
    const held = await tx
      .select({ taskId: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.status, 'claimed'), eq(tasks.claimedBy, workerId)));
    const inFlight = await tx.select({ taskId: claimReservations.taskId }).from(claimReservations).where(eq(claimReservations.workerId, workerId));
    if (new Set([...held, ...inFlight].map((r) => r.taskId)).add(taskId).size > max) return undefined;
    const [slot] = await tx
      .insert(claimReservations)
      .values({ workerId, taskId, expiresAt: expiresIn(ttlMs) })
      .returning({ id: claimReservations.id });
    return slot!.id;
  });
}

/** A claim whose update still runs keeps its slot. */
export async function renewClaim(db: Db, slotId: number, ttlMs: number): Promise<void> {
  await db
    .update(claimReservations)
    .set({ expiresAt: expiresIn(ttlMs) })
    .where(eq(claimReservations.id, slotId));
}

/** The claim's update answered: the task row now says whether the worker holds the task. */
export async function dropClaim(db: Db, slotId: number): Promise<void> {
  await db.delete(claimReservations).where(eq(claimReservations.id, slotId));
}

/** Back to the queue; the draft stays for the next worker. */
export async function recordRelease(db: Db, taskId: string, expired: boolean): Promise<void> {
  await db
    .update(tasks)
    .set({
      status: 'waiting',
      claimedBy: null,
      claimedAt: null,
      ...(expired ? { leaseExpiries: sql`${tasks.leaseExpiries} + 1` } : {}),
    })
    .where(eq(tasks.id, taskId));
}

/** Saves so far, and how long ago the last one (or the claim) was, by the database's clock. */
export async function leaseState(db: Db, taskId: string): Promise<{ saves: number; msSinceSave: number }> {
  const [row] = await db
    .select({
      saves: tasks.saves,
      ms: sql<string>`EXTRACT(EPOCH FROM (now() - COALESCE(${tasks.savedAt}, ${tasks.claimedAt}, now()))) * 1000`,
    })
    .from(tasks)
    .where(eq(tasks.id, taskId));
  return { saves: row?.saves ?? 0, msSinceSave: Math.max(0, Number(row?.ms ?? 0)) };
}

/** An autosave: only the worker holding the claim may write; false otherwise. */
export async function saveDraft(db: Db, taskId: string, workerId: number, text: string): Promise<boolean> {
  const saved = await db
    .update(tasks)
    .set({ draft: text, saves: sql`${tasks.saves} + 1`, savedAt: sql`now()` })
    .where(and(eq(tasks.id, taskId), eq(tasks.claimedBy, workerId), eq(tasks.status, 'claimed')))
    .returning({ id: tasks.id });
  return saved.length === 1;
}

/**
 * An autosave of one change made against the text last saved (`base`, its digest): 'saved';
 * 'stale' when another text is saved or the change does not fit it (the page then sends all of its
 * text); 'refused' when the worker does not hold the claim; `{ problem }` (named by its field) when
 * the change would split a character of the text saved, or make it too long, and nothing is written.
 */
export async function saveDraftChange(
  db: Db,
  taskId: string,
  workerId: number,
  change: TextChange,
  base: string,
  maxLength: number,
): Promise<'saved' | 'stale' | 'refused' | { problem: string }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ draft: tasks.draft })
      .from(tasks)
      .where(and(eq(tasks.id, taskId), eq(tasks.claimedBy, workerId), eq(tasks.status, 'claimed')))
      .for('update');
    if (!row) return 'refused';
    if (textDigest(row.draft) !== base) return 'stale';
    const problem = changeProblem(row.draft, change, maxLength);
    if (problem) return { problem };
    const next = applyChange(row.draft, change);
    if (next === undefined) return 'stale';
    await tx
      .update(tasks)
      .set({ draft: next, saves: sql`${tasks.saves} + 1`, savedAt: sql`now()` })
      .where(eq(tasks.id, taskId));
    return 'saved';
  });
}

export async function recordOutcome(
  db: Db,
  taskId: string,
  outcome: { status: TaskStatus; workerId: number; text: string; note?: string | null },
): Promise<void> {
  await db
    .update(tasks)
    .set({
      status: outcome.status,
      draft: outcome.text,
      submittedBy: outcome.workerId,
      closedAt: new Date(),
      ...(outcome.note !== undefined ? { note: outcome.note } : {}),
    })
    .where(eq(tasks.id, taskId));
}

/** Open tasks of a finished or settled order close (an operator completed it, or it was refunded). */
export async function closeTask(db: Db, taskId: string): Promise<void> {
  await db
    .update(tasks)
    .set({ status: 'closed', closedAt: new Date(), claimedBy: null })
    .where(and(eq(tasks.id, taskId), inArray(tasks.status, ['waiting', 'claimed'])));
}

const done = alias(tasks, 'done');

/**
 * What a worker may take (their skills, soonest deadline first; never a check of their own work:
 * `checksOwnWork` of src/domain/humanWork/ownWork.ts, in SQL) and what they hold.
 */
export async function queueOf(db: Db, workerId: number, skills: string[], limit = 100): Promise<{ waiting: TaskRow[]; claimed: TaskRow[] }> {
  const barred = barredPairs().map(({ stage, barredBy }) => and(eq(tasks.stage, stage as TaskStage), inArray(done.stage, barredBy as TaskStage[])));
  const ownWork = db
    .select({ one: sql`1` })
    .from(done)
    .where(and(eq(done.orderId, tasks.orderId), eq(done.submittedBy, workerId), or(...barred)));
  const waiting =
    skills.length === 0
      ? []
      : await db
          .select()
          .from(tasks)
          .where(and(eq(tasks.status, 'waiting'), inArray(tasks.skill, skills), notExists(ownWork)))
          .orderBy(asc(tasks.deadline), asc(tasks.createdAt))
          .limit(limit);
  const claimed = await db
    .select()
    .from(tasks)
    .where(and(eq(tasks.status, 'claimed'), eq(tasks.claimedBy, workerId)))
    .orderBy(asc(tasks.deadline));
  // A task sent back waits for the worker it was assigned to, not for everyone: it is `claimed` by them.
  return { waiting, claimed };
}

/** Open tasks for operators: waiting and claimed, late ones (past their deadline) first. */
export async function openTasks(db: Db, filter: { status?: 'waiting' | 'claimed'; late?: boolean } = {}): Promise<TaskRow[]> {
  const conditions = [filter.status ? eq(tasks.status, filter.status) : inArray(tasks.status, ['waiting', 'claimed'])];
  if (filter.late) conditions.push(lt(tasks.deadline, new Date()));
  return db
    .select()
    .from(tasks)
    .where(and(...conditions))
    .orderBy(asc(tasks.deadline), asc(tasks.id));
}

export async function tasksOfOrder(db: Db, orderId: number): Promise<TaskRow[]> {
  return db.select().from(tasks).where(eq(tasks.orderId, orderId)).orderBy(asc(tasks.createdAt), asc(tasks.id));
}

/** Queue depth and the oldest waiting task per skill (/metrics). */
export async function queueStats(db: Db): Promise<Array<{ skill: string; waiting: number; oldestMs: number }>> {
  const rows = await db
    .select({
      skill: tasks.skill,
      waiting: sql<string>`COUNT(*)`,
      oldestMs: sql<string>`EXTRACT(EPOCH FROM (now() - MIN(${tasks.createdAt}))) * 1000`,
    })
    .from(tasks)
    .where(eq(tasks.status, 'waiting'))
    .groupBy(tasks.skill);
  return rows.map((r) => ({ skill: r.skill, waiting: Number(r.waiting), oldestMs: Number(r.oldestMs) }));
}

/**
 * Every open task of an order closes (unpaid) when the order is finished, refunded or its quality
 * check decided by other means: its workflow may be ended with the order's before it can say so.
 */
export async function closeOpenTasks(db: Db, orderId: number): Promise<number> {
  const closed = await db
    .update(tasks)
    .set({ status: 'closed', closedAt: new Date(), claimedBy: null })
    .where(and(eq(tasks.orderId, orderId), inArray(tasks.status, ['waiting', 'claimed'])))
    .returning({ id: tasks.id });
  return closed.length;
}
