// The people who do the human work: their sign-in tokens (kept as a keyed hash, like API tokens),
// skills, and earnings.
import { asc, desc, eq, gte, sql } from 'drizzle-orm';
import type { Db } from './connection.js';
import { workerEarnings, workers, type WorkerRow } from './schema.js';
import { newApiToken, tokenHash } from '../domain/tokens.js';
import type { EditorSettings } from '../domain/humanWork/editorSettings.js';

export async function createWorker(db: Db, key: Buffer, input: { name: string; skills: string[] }): Promise<{ workerId: number; signInToken: string }> {
  const signInToken = newApiToken();
  const [row] = await db
    .insert(workers)
    .values({ name: input.name, skills: input.skills, tokenHash: tokenHash(key, signInToken) })
    .returning({ id: workers.id });
  return { workerId: row!.id, signInToken };
}

/** The enabled worker of a sign-in token. */
export async function findWorkerByToken(db: Db, key: Buffer, token: string): Promise<WorkerRow | undefined> {
  const [row] = await db
    .select()
    .from(workers)
    .where(eq(workers.tokenHash, tokenHash(key, token)));
  return row && !row.disabledAt ? row : undefined;
}

export async function getWorker(db: Db, workerId: number): Promise<WorkerRow | undefined> {
  const [row] = await db.select().from(workers).where(eq(workers.id, workerId));
  return row;
}

export async function listWorkers(db: Db): Promise<WorkerRow[]> {
  return db.select().from(workers).orderBy(asc(workers.id));
}

export async function setWorkerSkills(db: Db, workerId: number, skills: string[]): Promise<WorkerRow | undefined> {
  const [row] = await db.update(workers).set({ skills }).where(eq(workers.id, workerId)).returning();
  return row;
}

/** A disabled worker cannot sign in or claim; their open claims are released by the caller. */
export async function setEditorSettings(db: Db, workerId: number, settings: EditorSettings): Promise<void> {
  await db.update(workers).set({ editorSettings: settings }).where(eq(workers.id, workerId));
}

export async function disableWorker(db: Db, workerId: number): Promise<WorkerRow | undefined> {
  const [row] = await db
    .update(workers)
    .set({ disabledAt: sql`COALESCE(${workers.disabledAt}, now())` })
    .where(eq(workers.id, workerId))
    .returning();
  return row;
}

export interface EarningRow {
  taskId: string;
  workerId: number;
  orderId: number;
  cents: number;
  createdAt: Date;
}

export async function earningsOf(db: Db, workerId: number): Promise<{ totalCents: number; entries: EarningRow[] }> {
  const entries = await db.select().from(workerEarnings).where(eq(workerEarnings.workerId, workerId)).orderBy(desc(workerEarnings.createdAt)).limit(200);
  const [total] = await db
    .select({ cents: sql<string>`COALESCE(SUM(${workerEarnings.cents}), 0)` })
    .from(workerEarnings)
    .where(eq(workerEarnings.workerId, workerId));
  return { totalCents: Number(total?.cents ?? 0), entries };
}

/** Every earning since `since` (all when absent), oldest first: the operators' CSV. */
export async function allEarnings(db: Db, since?: Date): Promise<Array<EarningRow & { workerName: string }>> {
  return db
    .select({
      taskId: workerEarnings.taskId,
      workerId: workerEarnings.workerId,
      orderId: workerEarnings.orderId,
      cents: workerEarnings.cents,
      createdAt: workerEarnings.createdAt,
      workerName: workers.name,
    })
    .from(workerEarnings)
    .innerJoin(workers, eq(workers.id, workerEarnings.workerId))
    .where(since ? gte(workerEarnings.createdAt, since) : undefined)
    .orderBy(asc(workerEarnings.createdAt));
}

/** Credits each approved task once (UNIQUE task_id): a retried activity pays nothing twice. */
export async function creditWorkers(db: Db, credits: Array<{ taskId: string; workerId: number; orderId: number; cents: number }>): Promise<number> {
  if (credits.length === 0) return 0;
  const inserted = await db.insert(workerEarnings).values(credits).onConflictDoNothing().returning({ taskId: workerEarnings.taskId });
  return inserted.length;
}

export const workerIsEnabled = (w: WorkerRow | undefined): w is WorkerRow => !!w && !w.disabledAt;
