// The local speech engine (engines/server.py: Whisper through faster-whisper, English alignment
// through pocketsphinx) as a child process speaking the OpenAI-compatible interface, the way
// `npm start` runs the Temporal dev server. `npm install` puts it in .engines/. It dies with this
// process (tiedCommand; without setpriv, server.py watches its parent), and `pidFile` lets a start
// stop one that outlived its run before it starts its own on the port.
import { spawn, type ChildProcess } from 'node:child_process';
import { watchChild } from '../runtime/childProcess.js';
import { stopOrphan, tiedCommand } from '../runtime/tiedChild.js';
import { BACKGROUND_NICE, runInBackground } from '../runtime/priority.js';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface LocalEngineOptions {
  /** The project-local engine folder (.engines): its venv and models. */
  dir: string;
  host: string;
  port: number;
  threads: number;
  /** Where the engine's pid is recorded (main.ts: DATA_DIR/engine.pid), for the next start. */
  pidFile?: string;
}

export interface LocalEngine {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** The engine's CPU priority (nice): the background's, below the API's and the workers' (0). */
export const LOCAL_ENGINE_NICE = BACKGROUND_NICE;

export const localEngineInstalled = (dir: string): boolean => existsSync(`${dir}/manifest.json`);

/**
 * Whether this CPU runs senko: its feature extractor (a native library in its wheel) is built with
 * AVX-512 BW, and on a CPU without it the first diarization kills the engine (an illegal instruction).
 */
export function cpuRunsSenko(cpuinfo = '/proc/cpuinfo'): boolean {
  try {
    return /^flags\s*:.*\bavx512bw\b/m.test(readFileSync(cpuinfo, 'utf8'));
  } catch {
    return false;
  }
}

/** The local engine has the diarizer (npm install put senko in, DIARIZER=none left it out) and this CPU runs it. */
export function localDiarizerInstalled(dir: string): boolean {
  if (!localEngineInstalled(dir) || !cpuRunsSenko()) return false;
  try {
    return Boolean((JSON.parse(readFileSync(`${dir}/manifest.json`, 'utf8')) as { diarizer?: { senko?: string } }).diarizer?.senko);
  } catch {
    return false;
  }
}

const SERVER_SCRIPT = fileURLToPath(new URL('../../engines/server.py', import.meta.url));

export async function startLocalEngine(opts: LocalEngineOptions): Promise<LocalEngine> {
  if (!localEngineInstalled(opts.dir)) {
    throw new Error(`the local speech engine is not installed in ${opts.dir}: run npm install (without ENGINES=none), or set AI_ENGINE=operator`);
  }
  const python = `${opts.dir}/venv/bin/python`;
  const args = [
    SERVER_SCRIPT,
    '--host',
    opts.host,
    '--port',
    String(opts.port),
    '--model-dir',
    `${opts.dir}/models/whisper-base`,
    '--threads',
    String(opts.threads),
  ];
  if (opts.pidFile) await stopOrphan(opts.pidFile, [SERVER_SCRIPT, '--port', String(opts.port)], 'local speech engine');
  const tied = tiedCommand(python, args);
  const child = spawn(tied.command, tied.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // Drafts and transcription are CPU-bound and can wait: on one machine the engine yields to the
  // API and the workers, whose orders are placed and answered meanwhile.
  try {
    runInBackground(child.pid);
  } catch {
    // Gone already: the wait below reports its exit and output.
  }
  const watched = await watchChild(child, opts.pidFile);
  const url = `http://${opts.host}:${opts.port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ended = watched.ended();
    if (ended !== undefined) throw new Error(`the local speech engine exited (${ended}): ${watched.output()}`);
    const healthy = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      await watched.stop();
      throw new Error(`the local speech engine did not answer on ${url}: ${watched.output()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, process: child, stop: watched.stop };
}
