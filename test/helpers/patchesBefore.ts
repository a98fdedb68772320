// src/workflows/patches.ts as the workflows saw it before any of its patches shipped (test/helpers/workflowsBefore.ts).
import type { PatchName } from '../../src/workflows/patches.js';

export { PATCHES, PATCH_MARKERS, type PatchInfo, type PatchName } from '../../src/workflows/patches.js';

/** The old branch of every patch, and no marker recorded: the code as it was before the patch. */
export const patched = (_name: PatchName): boolean => false;
