// The order workflows built as they ran before the patches shipped since 1.0 (src/workflows/patches.ts):
// `patched` answers false and records no marker, as the code before each patch did. A worker on this
// build opens orders as they were in flight before a change; one on the current build then takes them
// over, as a deployment does.
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import webpack from 'webpack';
import { bundleWorkflowCode } from '@temporalio/worker';
import { NO_WORKFLOW_STACK_TRACES } from '../../src/temporal/workflowBundle.js';

const noop = () => undefined;
const quietLogger = { trace: noop, debug: noop, info: noop, warn: console.warn, error: console.error, log: noop };

/** Builds the workflows with every patch's old branch; resolves to the bundle's file. */
export async function workflowsBeforePatches(): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: resolve('src/workflows/index.ts'),
    logger: quietLogger,
    webpackConfigHook: (config) => ({
      ...config,
      plugins: [
        ...(config.plugins ?? []),
        // The workflows' relative imports of patches.js; the replacement's own import of the real list
        // (../../src/workflows/patches.js) does not match.
        new webpack.NormalModuleReplacementPlugin(/^(\.\.?\/)+patches\.js$/, resolve('test/helpers/patchesBefore.ts')),
      ],
    }),
  });
  const path = join(tmpdir(), `workflows-before-patches-${process.pid}.js`);
  await writeFile(path, NO_WORKFLOW_STACK_TRACES + code);
  return path;
}
