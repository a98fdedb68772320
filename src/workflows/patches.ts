// Every patch of the workflows since 1.0.0 in one list: the id (its marker in histories), the day it
// shipped and what it changed. 1.0.0 started from none: it does not take over orders opened by 0.x
// (CHANGELOG.md; `order-ops patches` says when none is open). A change of a workflow's commands from
// now on follows the patching-api sample: `patched(name)` keeps the old branch for workflows started
// before it, `deprecatePatch` once `order-ops patches` counts none of them open, then the old branch
// and the entry here are removed once no open workflow has the marker either (docs/decisions/workflow-versions-and-patches.md).
import * as wf from '@temporalio/workflow';

export interface PatchInfo {
  /** The marker's id: never changes. */
  id: string;
  /** The day it shipped (UTC): workflows started before it run the old branch. */
  since: string;
  /** What the new branch does. */
  change: string;
}

export const PATCHES = {
  draftsQueue: {
    id: 'drafts-queue',
    since: '2026-11-29',
    change: "the engine's draft of people's work is asked for on the drafts' task queue, no longer on the engine queue",
  },
} as const satisfies Record<string, PatchInfo>;

export type PatchName = keyof typeof PATCHES;

/** Every marker a workflow may record (what `order-ops patches` counts). */
export const PATCH_MARKERS: readonly PatchInfo[] = Object.values(PATCHES);

/** Whether this workflow runs the code of `name`: Temporal's `patched` with the patch's listed id. */
export const patched = (name: PatchName): boolean => wf.patched((PATCHES as Record<string, PatchInfo>)[name]!.id);
