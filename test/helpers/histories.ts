// Recorded workflow histories: `RECORD_HISTORIES=1 npx vitest run test/integration/products.test.ts
// test/integration/proofreading.test.ts` writes one per product and path into test/histories/, and
// test/integration/replay.test.ts replays them all against the current workflow code, so a change
// that would break orders already running fails the build.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import type { temporal } from '@temporalio/proto';
import { orderWorkflowId } from '../../src/contracts/orders.js';
import type { TestService } from './service.js';

export const HISTORIES_DIR = 'test/histories';

/** Waits for the order's workflow (or another, e.g. a task's) to close and keeps its history, when recording is asked for. */
export async function recordHistory(service: TestService, orderId: number, name: string, workflowId = orderWorkflowId(orderId)): Promise<void> {
  if (!process.env.RECORD_HISTORIES) return;
  await service.temporal.workflow.getHandle(workflowId).result();
  // The Temporal CLI writes the history as protobuf JSON, the form replay reads. Payloads are
  // encrypted with the test service's keys: the CLI decodes them through the service's codec
  // endpoint, so the file is readable and replays with any keys (decode passes plain payloads).
  const cli = process.env.TEMPORAL_CLI_PATH ?? resolve('.temporal/bin/temporal');
  const { stdout } = await promisify(execFile)(
    cli,
    [
      'workflow',
      'show',
      '--workflow-id',
      workflowId,
      '--output',
      'json',
      '--address',
      inject('temporalAddress'),
      '--codec-endpoint',
      `${service.baseUrl}/codec`,
      '--codec-auth',
      `Bearer ${service.opsToken}`,
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  await mkdir(HISTORIES_DIR, { recursive: true });
  await writeFile(`${HISTORIES_DIR}/${name}.json`, stdout);
}

// The SDK's historyFromJSON uses @temporalio/common's own copy of protobufjs, which npm installs
// apart from @temporalio/proto's (grpc keeps protobufjs 7 at the top level): its types then do
// not match ("type must be a Type"). Reading with proto's own copy avoids the mismatch.
const protoRequire = createRequire(createRequire(import.meta.url).resolve('@temporalio/proto'));
const { fromJson } = protoRequire('protobufjs/ext/protojson') as { fromJson: (type: unknown, json: unknown, options: object) => unknown };
const { patchProtobufRoot } = protoRequire('@temporalio/proto/lib/patch-protobuf-root') as {
  patchProtobufRoot(root: unknown): { lookupType(name: string): unknown };
};
const historyType = patchProtobufRoot(protoRequire('@temporalio/proto')).lookupType('temporal.api.history.v1.History');

/** A recorded history file as the History message replay takes. */
export function loadHistory(path: string): temporal.api.history.v1.IHistory {
  return fromJson(historyType, JSON.parse(readFileSync(path, 'utf8')), { ignoreUnknownFields: true }) as temporal.api.history.v1.IHistory;
}

/** The ids of a history's patch markers (the SDK's `core_patch`), in order. */
export function patchMarkerIds(history: temporal.api.history.v1.IHistory): string[] {
  return (history.events ?? [])
    .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
    .map((e) => JSON.parse(Buffer.from(e.markerRecordedEventAttributes!.details!['patch-data']!.payloads![0]!.data!).toString()).id as string);
}
