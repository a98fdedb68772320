// The suites' side of the optional legs (test/helpers/legCatalog.ts): a suite that needs one says
// so with `describeNeeding(leg, …)` (or `describeOnEachDatabase`), which skips it when the leg is
// absent and marks its title, so the summary reporter prints once, at the end, which legs were
// skipped and how to run them. Declaring is also checked: the helpers that touch PostgreSQL or
// start a worker process refuse to run outside a suite that declared it, with or without
// DATABASE_URL (`requireLeg`), so a new suite cannot forget it.
import { afterAll, beforeAll, describe } from 'vitest';
import { hasLeg, legMarker, LEGS, type Leg } from './legCatalog.js';

export { hasLeg, type Leg } from './legCatalog.js';

/** The legs declared by the suites running now (a suite's beforeAll adds, its afterAll removes). */
const declared = new Map<Leg, number>();

/** A suite that runs only where `leg` is present, marked in its title. */
export function describeNeeding(leg: Leg | Leg[], title: string, body: () => void): void {
  const legs = Array.isArray(leg) ? leg : [leg];
  const absent = legs.some((l) => !hasLeg(l));
  describe.skipIf(absent)(`${title} ${legs.map(legMarker).join(' ')}`, () => {
    // Registered before the body's hooks, so they run first (and are undone last).
    const declaring = [...new Set(legs.flatMap((l) => [l, ...(LEGS[l].implies ?? [])]))];
    beforeAll(() => {
      for (const l of declaring) declared.set(l, (declared.get(l) ?? 0) + 1);
    });
    afterAll(() => {
      for (const l of declaring) declared.set(l, declared.get(l)! - 1);
    });
    body();
  });
}

export type DatabaseEngine = 'pglite' | 'postgres';

/** The same suite on PGlite (always) and on PostgreSQL (where DATABASE_URL is set). */
export function describeOnEachDatabase(title: string, body: (engine: DatabaseEngine) => void): void {
  describe(`${title} on pglite`, () => body('pglite'));
  describeNeeding('postgres', `${title} on postgres`, () => body('postgres'));
}

/**
 * Throws unless the running suite declared `leg`: a suite that touched PostgreSQL without saying
 * so would fail on a newcomer's machine (no DATABASE_URL) instead of being skipped.
 */
export function requireLeg(leg: Leg, what: string): void {
  if ((declared.get(leg) ?? 0) > 0) return;
  throw new Error(
    `${what} needs ${LEGS[leg].label}, but this suite did not declare it: wrap it in ` +
      `describeNeeding('${leg}', …) from test/helpers/legs.ts, so it is skipped where ${LEGS[leg].missing}`,
  );
}
