// The local speech engine (engines/server.py: Whisper through faster-whisper, English alignment
// through pocketsphinx) as a child process speaking the OpenAI-compatible interface, the way
// `npm start` runs the Temporal dev server. `npm install` puts it in .engines/. It dies with this
// process (the spawner ties it to itself and itself to this process; without setpriv, server.py
// watches its parent), and `pidFile` lets a start stop one that outlived its run before it starts
// its own on the port. With `restart`, an engine that exits (or went with a spawner that died) is
// started again on the same port.
import { log } from '../log.js';
import { watchChild, type WatchedChild } from '../runtime/childProcess.js';
import { stopOrphan } from '../runtime/tiedChild.js';
import { BACKGROUND_NICE } from '../runtime/priority.js';
import { spawnChild, type SpawnedChild } from '../runtime/spawner/index.js';
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
  /** Start it again whenever it exits before stop() (main.ts). */
  restart?: boolean;
}

export interface LocalEngine {
  url: string;
  /** The engine's process now (another one after a restart). */
  readonly process: SpawnedChild;
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
  if (opts.pidFile) await stopOrphan(opts.pidFile, [SERVER_SCRIPT, '--port', String(opts.port)], 'local speech engine');
  const url = `http://${opts.host}:${opts.port}`;
  let running = await launch(opts, url);
  let stopped = false;
  const restart = async () => {
    for (let attempt = 1; !stopped; attempt++) {
      try {
        const next = await launch(opts, url);
        if (stopped) return void (await next.watched.stop());
        running = next;
        log('local speech engine started again', { url, pid: next.child.pid });
        watch(next);
        return;
      } catch (err) {
        log('the local speech engine could not start again', { attempt, error: String(err) });
        await new Promise((r) => setTimeout(r, Math.min(30_000, 1000 * attempt)));
      }
    }
  };
  const watch = ({ child }: Launched) =>
    child.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      if (stopped) return;
      log('the local speech engine exited; starting it again', { code, signal });
      void restart();
    });
  if (opts.restart) watch(running);
  return {
    url,
    get process() {
      return running.child;
    },
    async stop() {
      stopped = true;
      await running.watched.stop();
    },
  };
}

interface Launched {
  child: SpawnedChild;
  watched: WatchedChild;
}

/** Starts the engine and waits until it answers /health; rejects (the engine stopped) if it exits or does not answer in 2 minutes. */
async function launch(opts: LocalEngineOptions, url: string): Promise<Launched> {
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
  // Drafts and transcription are CPU-bound and can wait: on one machine the engine yields to the
  // API and the workers, whose orders are placed and answered meanwhile.
  const child = await spawnChild(python, args, { nice: LOCAL_ENGINE_NICE });
  const watched = await watchChild(child, opts.pidFile, child.parentPid);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ended = watched.ended();
    if (ended !== undefined) throw new Error(`the local speech engine exited (${ended}): ${watched.output()}`);
    const healthy = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return { child, watched };
    if (Date.now() > deadline) {
      await watched.stop();
      throw new Error(`the local speech engine did not answer on ${url}: ${watched.output()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
