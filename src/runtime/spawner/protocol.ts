// What the service and its spawner (process.ts) say to each other over the spawner's IPC channel
// (v8 serialization, so that output arrives as bytes).

export interface SpawnRequest {
  type: 'spawn';
  id: number;
  command: string;
  args: string[];
  /** The child's environment (default: the spawner's, which is the service's at its start). */
  env?: Record<string, string>;
  /** A process group of its own (so that a kill of the group reaches a pipeline's every process). */
  detached?: boolean;
  /** Its CPU priority (nice), from its first instruction. */
  nice?: number;
  /** Under SCHED_IDLE (`chrt --idle 0`): only CPU time nothing else wants, from its first instruction. */
  idle?: boolean;
  /** 'pipe': its stdout and stderr come back as OutputMessage; 'inherit': they are the service's. */
  output: 'pipe' | 'inherit';
}

export interface KillRequest {
  type: 'kill';
  id: number;
  signal: NodeJS.Signals;
  /** The child's whole process group (a detached child's). */
  group?: boolean;
}

export type SpawnerRequest = SpawnRequest | KillRequest;

export type SpawnerMessage =
  | { type: 'ready' }
  | { type: 'spawned'; id: number; pid: number }
  | { type: 'failed'; id: number; message: string }
  | { type: 'output'; id: number; fd: 1 | 2; chunk: Uint8Array }
  | { type: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null };
