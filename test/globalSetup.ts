// One Temporal dev server and one workflow bundle for the whole test run.
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundleOrderWorkflows } from '../src/temporal/workflowBundle.js';
import { startDevServer } from '../src/temporal/devServer.js';
import { freePort } from './helpers/net.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    workflowBundlePath: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'order-service-test-'));
  const [server, bundle] = await Promise.all([
    startDevServer({
      cliPath: process.env.TEMPORAL_CLI_PATH ?? resolve('.temporal/bin/temporal'),
      port: await freePort(),
      namespace: 'default',
      // As the Temporal SDK's own CI runs it: fast, not durable.
      extraArgs: ['--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=off'],
    }),
    bundleOrderWorkflows(resolve('src/workflows/index.ts'), quietLogger),
  ]);
  const bundlePath = join(dir, 'workflow-bundle.js');
  await writeFile(bundlePath, bundle);
  project.provide('temporalAddress', server.address);
  project.provide('workflowBundlePath', bundlePath);
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

const noop = () => undefined;
const quietLogger = { trace: noop, debug: noop, info: noop, warn: console.warn, error: console.error, log: noop };
