// Temporal's time-skipping test server as the workflow tests start it: the binary npm install
// fetched, the service's payload codec, quiet logs, and the service's search attributes.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { DataConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTE_FLAGS } from '../../src/contracts/orders.js';

export async function startTimeSkipping(dataConverter: DataConverter): Promise<TestWorkflowEnvironment> {
  const path = process.env.TEMPORAL_TEST_SERVER_PATH ?? resolve('.temporal/bin/temporal-test-server');
  if (!existsSync(path)) throw new Error(`the time-skipping test server is missing at ${path} (npm install fetches it)`);
  // Retried callbacks and engine faults are expected in these tests: keep workflow and core warnings out of the output.
  if (!Runtime._instance) Runtime.install({ logger: new DefaultLogger('ERROR'), telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' } } } });
  const env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } }, client: { dataConverter } });
  // The test server knows none of the service's search attributes (the dev server gets them as flags).
  const { IndexedValueType } = temporal.api.enums.v1;
  await env.connection.operatorService.addSearchAttributes({
    namespace: 'default',
    searchAttributes: Object.fromEntries(
      SEARCH_ATTRIBUTE_FLAGS.map((flag) => {
        const [name, type] = flag.split('=') as [string, string];
        return [name, IndexedValueType[`INDEXED_VALUE_TYPE_${type.toUpperCase()}` as keyof typeof IndexedValueType]];
      }),
    ),
  });
  return env;
}
