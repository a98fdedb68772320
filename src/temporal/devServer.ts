// Runs `temporal server start-dev` as a child process and waits until it answers.
import { spawn } from 'node:child_process';
import { stopChild } from '../runtime/childProcess.js';
import { existsSync } from 'node:fs';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_FLAGS } from '../contracts/orders.js';

export interface DevServerOptions {
  cliPath: string;
  port: number;
  uiPort?: number;
  /** The UI decodes payloads through this codec endpoint (`--ui-codec-endpoint`), e.g. http://localhost:3000/codec. */
  uiCodecEndpoint?: string;
  /** Persist to this SQLite file; in memory when absent. */
  dbFile?: string;
  namespace: string;
  /** Extra arguments, e.g. SQLite pragmas for tests. */
  extraArgs?: string[];
}

export interface DevServer {
  address: string;
  uiUrl?: string;
  stop(): Promise<void>;
}

export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  if (!existsSync(opts.cliPath)) {
    throw new Error(`Temporal CLI not found at ${opts.cliPath}: run npm install (it fetches it into .temporal/) or set TEMPORAL_CLI_PATH`);
  }
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--namespace', opts.namespace, '--log-level', 'warn'];
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort), '--ui-ip', '127.0.0.1');
  if (opts.uiPort && opts.uiCodecEndpoint) args.push('--ui-codec-endpoint', opts.uiCodecEndpoint);
  else args.push('--headless');
  if (opts.dbFile) args.push('--db-filename', opts.dbFile);
  for (const flag of SEARCH_ATTRIBUTE_FLAGS) args.push('--search-attribute', flag);
  args.push(...(opts.extraArgs ?? []));

  const child = spawn(opts.cliPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const address = `127.0.0.1:${opts.port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Temporal dev server exited (${child.exitCode}): ${output}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      await connection.workflowService.describeNamespace({ namespace: opts.namespace });
      await connection.close();
      break;
    } catch (err) {
      if (Date.now() > deadline) {
        await stopChild(child, exited);
        throw new Error(`Temporal dev server did not answer on ${address}: ${(err as Error).message}\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    address,
    uiUrl: opts.uiPort ? `http://localhost:${opts.uiPort}` : undefined,
    stop: () => stopChild(child, exited),
  };
}
