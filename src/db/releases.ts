// The releases this database ran (migration 0024): workflows started before the first of them are
// an older major version's, which it does not take over.
import { asc } from 'drizzle-orm';
import type { Db } from './connection.js';
import { serviceReleases } from './schema.js';

export async function firstRelease(db: Db): Promise<{ version: string; releasedAt: Date }> {
  const [row] = await db.select().from(serviceReleases).orderBy(asc(serviceReleases.releasedAt)).limit(1);
  return row!;
}
