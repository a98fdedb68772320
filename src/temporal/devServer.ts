// Runs `temporal server start-dev` as a child process and waits until it answers. The child dies
// with this process (tiedCommand); with a database file, `<dbFile>.pid` names it, so that a start
// where it outlived its run (no setpriv) stops it first: the file and the port are the new one's.
import { spawn } from 'node:child_process';
import { watchChild } from '../runtime/childProcess.js';
import { stopOrphan, tiedCommand } from '../runtime/tiedChild.js';
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

/**
 * Temporal's dev server as the service runs it (`npm start`, `npm run start:cluster`) and as every
 * bench with a floor starts it, so that a bench measures what users run: a SQLite file with a
 * write-ahead log, one fsync per commit instead of three (rollback journal), still durable
 * (synchronous stays FULL); workflow histories are many small commits (docs/benchmarks.md).
 */
export function startServiceDevServer(opts: Omit<DevServerOptions, 'extraArgs'> & { dbFile: string }): Promise<DevServer> {
  return startDevServer({ ...opts, extraArgs: ['--sqlite-pragma', 'journal_mode=wal'] });
}

export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  try {
    return await startDevServerOnce(opts);
  } catch (err) {
    // The CLI picks its HTTP API's and metrics' ports itself ("a random free port"), which another
    // process starting at the same moment may take first: started once more, it picks others.
    if (!(err instanceof PortTakenError)) throw err;
    return startDevServerOnce(opts);
  }
}

class PortTakenError extends Error {}

async function startDevServerOnce(opts: DevServerOptions): Promise<DevServer> {
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

  const pidFile = opts.dbFile && `${opts.dbFile}.pid`;
  if (pidFile) await stopOrphan(pidFile, [opts.cliPath, 'start-dev', opts.dbFile!], 'Temporal dev server');
  const tied = tiedCommand(opts.cliPath, args);
  const child = await watchChild(spawn(tied.command, tied.args, { stdio: ['ignore', 'pipe', 'pipe'] }), pidFile);

  const address = `127.0.0.1:${opts.port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ended = child.ended();
    if (ended !== undefined) {
      const output = child.output();
      throw new (/address already in use/.test(output) ? PortTakenError : Error)(`Temporal dev server exited (${ended}): ${output}`);
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      await connection.workflowService.describeNamespace({ namespace: opts.namespace });
      await connection.close();
      break;
    } catch (err) {
      if (Date.now() > deadline) {
        await child.stop();
        throw new Error(`Temporal dev server did not answer on ${address}: ${(err as Error).message}\n${child.output()}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    address,
    uiUrl: opts.uiPort ? `http://localhost:${opts.uiPort}` : undefined,
    stop: child.stop,
  };
}
