// Replays the recorded history of every product and path (test/histories/, see
// test/helpers/histories.ts), recorded on 1.0, against the current workflow bundle: a change to the
// workflows that would break orders already running fails here. 1.0 takes over no order of 0.x, so
// the histories start at 1.0 and hold no patch marker; a patch from now on adds its histories.
import { readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { describe, expect, it, inject } from 'vitest';
import { Worker } from '@temporalio/worker';
import { PRODUCT_LIST } from '../../src/products/registry.js';
import { HISTORIES_DIR, loadHistory, patchMarkerIds } from '../helpers/histories.js';
import { payloadDataConverter } from '../../src/temporal/payloadCodec.js';
import { PATCH_MARKERS } from '../../src/workflows/patches.js';

const files = readdirSync(HISTORIES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
// As the service's workers run: with the payload codec, which passes the recorded (plain) payloads through.
const dataConverter = payloadDataConverter([{ id: 'replay', key: randomBytes(32) }]);

/** Every path an order can take, as its recorded history is named: each must be there. */
const PATHS = [
  // The people's work: the work and its review, a send-back, a second review, parts, the quality check with a fix.
  'transcription-workbench-finished',
  'transcription-workbench-sent-back',
  'transcription-workbench-sent-back-to-disabled-worker',
  'translation-additional-review',
  'transcription-workbench-parts',
  'transcription-quality-check-fixed',
  // Engines: finished, handed to a translator, timed by the aligner.
  'ai_transcription-engine-finished',
  'ai_transcription-translated-in-workbench',
  'forced_alignment-engine-finished',
  'captions-workbench-timed-by-aligner',
  // Proofreading: the automatic check's refund, a rejection, the hand-off and the order it starts.
  'transcription_proofreading-refunded-by-check',
  'transcription_proofreading-rejected',
  'transcription_proofreading-retranscribed',
  'transcription-retranscription',
  // Callbacks retried until the receiver answers.
  'transcription-callback-retried',
  // The workflows beside the orders.
  'upload_expiry',
  'order_deletion',
];

describe('recorded workflow histories', () => {
  it('cover every product finished, refunded and canceled, and every path', () => {
    for (const product of PRODUCT_LIST) {
      for (const ending of ['finished', 'refunded', 'canceled']) expect(files, `${product.key}-${ending}`).toContain(`${product.key}-${ending}.json`);
    }
    for (const path of PATHS) expect(files, path).toContain(`${path}.json`);
  });

  it('were recorded on this version: no marker of a patch it lacks', () => {
    const known = new Set(PATCH_MARKERS.map((p) => p.id));
    for (const file of files)
      expect(
        patchMarkerIds(loadHistory(`${HISTORIES_DIR}/${file}`)).filter((id) => !known.has(id)),
        file,
      ).toEqual([]);
  });

  it.each(files)('%s replays without nondeterminism', async (file) => {
    const history = loadHistory(`${HISTORIES_DIR}/${file}`);
    await expect(
      Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') }, dataConverter }, history, file),
    ).resolves.toBeUndefined();
  });
});
