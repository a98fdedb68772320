// The local speech engine (engines/server.py: Whisper through faster-whisper, English alignment
// through pocketsphinx) as a child process speaking the OpenAI-compatible interface, the way
// `npm start` runs the Temporal dev server. `npm install` puts it in .engines/.
import { spawn, type ChildProcess } from 'node:child_process';
import { stopChild } from '../runtime/childProcess.js';
import { existsSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

export interface LocalEngineOptions {
  /** The project-local engine folder (.engines): its venv and models. */
  dir: string;
  host: string;
  port: number;
  threads: number;
}

export interface LocalEngine {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** The engine's CPU priority (nice): below the API's and the workers' (0). */
export const LOCAL_ENGINE_NICE = 10;

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
  const child = spawn(
    `${opts.dir}/venv/bin/python`,
    [SERVER_SCRIPT, '--host', opts.host, '--port', String(opts.port), '--model-dir', `${opts.dir}/models/whisper-base`, '--threads', String(opts.threads)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Drafts and transcription are CPU-bound and can wait: on one machine the engine yields to the
  // API and the workers, whose orders are placed and answered meanwhile.
  try {
    if (child.pid) setPriority(child.pid, LOCAL_ENGINE_NICE);
  } catch {
    // Gone already: the wait below reports its exit and output.
  }
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://${opts.host}:${opts.port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the local speech engine exited (${child.exitCode}): ${output}`);
    const healthy = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      await stopChild(child, exited);
      throw new Error(`the local speech engine did not answer on ${url}: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, process: child, stop: () => stopChild(child, exited) };
}
