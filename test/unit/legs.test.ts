// The rule behind the optional legs: a suite that touches PostgreSQL or starts a worker process of
// its own must declare it (so a newcomer without DATABASE_URL has it skipped, not failed).
import { describe, expect, it } from 'vitest';
import { describeNeeding, requireLeg } from '../helpers/legs.js';
import { freshDatabase } from '../helpers/databases.js';
import { legMarker } from '../helpers/legCatalog.js';

describe('an undeclared suite', () => {
  it('cannot open a PostgreSQL database, with or without DATABASE_URL', async () => {
    await expect(freshDatabase('postgres')).rejects.toThrow(/did not declare it: wrap it in describeNeeding\('postgres'/);
  });

  it('cannot start a worker process', () => {
    expect(() => requireLeg('workerProcess', 'A worker process')).toThrow(/needs a worker process \(PostgreSQL\), but this suite did not declare it/);
  });
});

describeNeeding('workerProcess', 'a suite that declares a worker process', () => {
  it('may use PostgreSQL too (a worker process implies it) and is marked in its title', async ({ task }) => {
    expect(() => requireLeg('postgres', 'A database')).not.toThrow();
    expect(task.fullName).toContain(legMarker('workerProcess'));
    const database = await freshDatabase('postgres');
    await database.close();
  });
});

describe('after a declared suite ended', () => {
  it('the declaration is gone', () => {
    expect(() => requireLeg('postgres', 'A database')).toThrow(/did not declare it/);
  });
});
