// The order workflows' bundle, as `npm run build` makes it (scripts/bundle-workflows.mjs), the
// tests make it (test/globalSetup.ts) and a worker started without a build makes it.
import { bundleWorkflowCode, type BundleOptions } from '@temporalio/worker';

/**
 * Workflow code runs without stack traces. The SDK (1.24) records a stack for every promise a
 * workflow creates, each frame mapped through the bundle's source map, for its `__stack_trace`
 * query: that was half of the workflow thread's CPU per human order
 * (docs/decisions/workflow-bundle.md). It stands first in the bundle, which runs before the SDK freezes the sandbox's globals
 * (a workflow module may no longer assign it then), and on the first line, so the source map's
 * lines still match.
 */
export const NO_WORKFLOW_STACK_TRACES = 'Error.stackTraceLimit = 0; ';

export async function bundleOrderWorkflows(workflowsPath: string, logger?: BundleOptions['logger']): Promise<string> {
  const { code } = await bundleWorkflowCode({ workflowsPath, ...(logger ? { logger } : {}) });
  return NO_WORKFLOW_STACK_TRACES + code;
}
