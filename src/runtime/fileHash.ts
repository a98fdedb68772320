// SHA-256 of a file on disk, read and hashed on a thread of its own (fileHashWorker.ts): a kept
// media file is tens of MB, and hashing it on the main thread held the thread that answers HTTP
// for milliseconds per order (issue 56). One thread, started on first use, kept while it works.
import { Worker } from 'node:worker_threads';
import { compiledScript } from './compiledScript.js';

type Answer = { id: number; hex: string } | { id: number; error: string; code?: string };

let worker: Worker | undefined;
const waiting = new Map<number, { resolve: (hex: string) => void; reject: (err: Error) => void }>();
let nextId = 1;

function started(): Worker {
  const thread = new Worker(compiledScript(import.meta.url, 'fileHashWorker.js'));
  const fail = (err: Error) => {
    if (worker === thread) worker = undefined;
    for (const job of waiting.values()) job.reject(err);
    waiting.clear();
  };
  thread.on('message', (answer: Answer) => {
    const job = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (waiting.size === 0) thread.unref();
    if ('hex' in answer) job?.resolve(answer.hex);
    else job?.reject(Object.assign(new Error(answer.error), { code: answer.code }));
  });
  thread.on('error', fail);
  thread.on('exit', (code) => fail(new Error(`the hashing thread exited (code ${code})`)));
  return thread;
}

/** The file's SHA-256, in hex. */
export function sha256OfFile(path: string): Promise<string> {
  worker ??= started();
  const id = nextId++;
  const thread = worker;
  thread.ref(); // held open while a hash is owed
  return new Promise<string>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    thread.postMessage({ id, path });
  });
}
