// Replays the recorded history of every product and path (test/histories/, see
// test/helpers/histories.ts) against the current workflow bundle: a change to the workflow that
// would break orders already running fails here.
import { readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { describe, expect, it, inject } from 'vitest';
import { Worker } from '@temporalio/worker';
import { PRODUCT_LIST } from '../../src/products/registry.js';
import { HISTORIES_DIR, loadHistory, patchMarkerIds } from '../helpers/histories.js';
import { payloadDataConverter } from '../../src/temporal/payloadCodec.js';
import { BASELINE, PATCHES, type PatchName } from '../../src/workflows/patches.js';

const files = readdirSync(HISTORIES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
// As the service's workers run: with the payload codec, which passes the recorded (plain) payloads through.
const dataConverter = payloadDataConverter([{ id: 'replay', key: randomBytes(32) }]);

describe('recorded workflow histories', () => {
  it('cover every product', () => {
    for (const product of PRODUCT_LIST)
      expect(
        files.some((f) => f.startsWith(`${product.key}-`)),
        product.key,
      ).toBe(true);
  });

  it("records an order's current paths on the patch baseline, and keeps those from before it without", () => {
    // A history from before a patch shipped after the baseline was recorded on the baseline.
    const afterBaseline = Object.values(PATCHES)
      .filter((p) => !(BASELINE.covers as readonly string[]).some((name) => PATCHES[name as PatchName].id === p.id))
      .map((p) => `-before-${p.id}.json`);
    for (const file of files.filter((f) => !f.startsWith('task-'))) {
      const onBaseline = !file.includes('-before-') || afterBaseline.some((suffix) => file.endsWith(suffix));
      expect(patchMarkerIds(loadHistory(`${HISTORIES_DIR}/${file}`)).includes(BASELINE.id), file).toBe(onBaseline);
    }
  });

  it.each(files)('%s replays without nondeterminism', async (file) => {
    const history = loadHistory(`${HISTORIES_DIR}/${file}`);
    await expect(
      Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') }, dataConverter }, history, file),
    ).resolves.toBeUndefined();
  });
});
