// All activities, built from their dependencies so tests and roles can wire their own.
import type { ActivityDeps } from './deps.js';
import { createOrderActivities } from './orders.js';
import { createCallbackActivities } from './callbacks.js';
import { createEngineActivities } from './engines.js';
import { createTaskActivities } from './tasks.js';
import { createDraftActivities } from './drafts.js';
import { createUploadActivities } from './uploads.js';
import { createDeletionActivities } from './deletion.js';

export type { ActivityDeps } from './deps.js';

export function createActivities(deps: ActivityDeps) {
  const drafts = createDraftActivities(deps);
  return {
    ...createOrderActivities(deps),
    ...createCallbackActivities(deps),
    ...createEngineActivities(deps),
    ...createTaskActivities(deps, drafts.machineDraft),
    ...createUploadActivities(deps),
    ...createDeletionActivities(deps),
  };
}
