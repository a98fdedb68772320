// One Temporal dev server, one workflow bundle and one migrated embedded database (copied for each
// test's fresh one: test/helpers/databases.ts) for the whole test run.
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundleOrderWorkflows } from '../src/temporal/workflowBundle.js';
import { startDevServer } from '../src/temporal/devServer.js';
import { migrate, openDatabase } from '../src/db/connection.js';
import { freePort } from './helpers/net.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    workflowBundlePath: string;
    /** A migrated PGlite's data directory as a tarball (Database.dump). */
    pgliteTemplatePath: string;
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
    migratedPglite(join(dir, 'pglite-template.tar')),
  ]);
  const bundlePath = join(dir, 'workflow-bundle.js');
  await writeFile(bundlePath, bundle);
  project.provide('temporalAddress', server.address);
  project.provide('workflowBundlePath', bundlePath);
  project.provide('pgliteTemplatePath', join(dir, 'pglite-template.tar'));
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

/** Creating a cluster and migrating it takes seconds of CPU; a copy of one opens in a third of that. */
async function migratedPglite(path: string): Promise<void> {
  const database = await openDatabase({});
  try {
    await migrate(database.db);
    await writeFile(path, await database.dump!());
  } finally {
    await database.close();
  }
}

const noop = () => undefined;
const quietLogger = { trace: noop, debug: noop, info: noop, warn: console.warn, error: console.error, log: noop };
