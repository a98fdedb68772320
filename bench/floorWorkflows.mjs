// Floors 2 and 3 of bench/floor.mjs: the least an Update-with-Start order can do. The update runs
// one no-op activity (kind 'activity') or one no-op local activity (kind 'local') and returns;
// the workflow then ends. Bundled at run time by bench/floorWorker.mjs.
import * as wf from '@temporalio/workflow';

export const runUpdate = wf.defineUpdate('run');
const { noop } = wf.proxyActivities({ startToCloseTimeout: '10 seconds' });
const { noop: localNoop } = wf.proxyLocalActivities({ startToCloseTimeout: '10 seconds' });

export async function floorWorkflow(kind) {
  let done = false;
  wf.setHandler(runUpdate, async () => {
    await (kind === 'local' ? localNoop() : noop());
    done = true;
    return { ok: true };
  });
  await wf.condition(() => done);
}
