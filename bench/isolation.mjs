// Worker threads or child processes for opening customers' files (docs/decisions/customer-files-in-child-processes.md): the time
// to start a reader with the service's readers loaded, the round trip of an honest 1-page PDF
// word count, where a reader's external memory (ArrayBuffers) lands, and how long a reader stuck
// in a loop takes to stop. Usage: npm run build && node bench/isolation.mjs
import { fork } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { quantile } from './lib.mjs';

const SCRIPT = new URL('./isolationReader.mjs', import.meta.url);
const rssMb = (pid = process.pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const median = (xs) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

/** A reader as a thread or a process, with one request/answer call. */
function start(mode) {
  const reader =
    mode === 'thread'
      ? new Worker(SCRIPT, { resourceLimits: { maxOldGenerationSizeMb: 384 } })
      : fork(SCRIPT, [], { serialization: 'advanced', execArgv: ['--max-old-space-size=384'] });
  const pending = new Map();
  let id = 0;
  let exited;
  const gone = new Promise((resolve) => {
    exited = resolve;
  });
  reader.on('exit', () => exited());
  reader.on('error', () => undefined);
  const ready = new Promise((resolve) => reader.on('message', (m) => (m.ready ? resolve() : pending.get(m.id)?.(m))));
  const call = (message) =>
    new Promise((resolve) => {
      pending.set(++id, resolve);
      reader.postMessage ? reader.postMessage({ ...message, id }) : reader.send({ ...message, id });
    });
  const stop = async () => {
    mode === 'thread' ? await reader.terminate() : reader.kill('SIGKILL');
    await gone;
  };
  return { ready, call, stop, pid: reader.pid ?? process.pid, gone };
}

// A one-page text PDF, written by pdfkit as customers' PDFs are.
const PDFDocument = (await import('pdfkit')).default;
const pdf = await new Promise((resolve) => {
  const doc = new PDFDocument();
  const chunks = [];
  doc.on('data', (c) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks)));
  doc.text('The quick brown fox jumps over the lazy dog. '.repeat(30));
  doc.end();
});

const rows = [];
for (const mode of ['thread', 'process']) {
  const starts = [];
  for (let i = 0; i < 5; i++) {
    const began = performance.now();
    const r = start(mode);
    await r.ready;
    starts.push(performance.now() - began);
    await r.stop();
  }
  const r = start(mode);
  await r.ready;
  const trips = [];
  for (let i = 0; i < 40; i++) {
    const began = performance.now();
    await r.call({ op: 'words', bytes: pdf, fileName: 'a.pdf' });
    if (i >= 10) trips.push(performance.now() - began);
  }
  const before = rssMb();
  const answer = await Promise.race([r.call({ op: 'allocate', mb: 1024 }), r.gone.then(() => ({ died: true }))]);
  const parentAfter = rssMb();
  const readerRss = mode === 'process' ? rssMb(r.pid) : parentAfter - before;
  await r.stop();
  const spinner = start(mode);
  await spinner.ready;
  void spinner.call({ op: 'spin' });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const killBegan = performance.now();
  await spinner.stop();
  rows.push({
    mode,
    start: median(starts),
    trip: median(trips),
    allocated: answer.died ? 'reader died' : `${answer.allocated} MB held`,
    parentGrowth: parentAfter - before,
    readerRss,
    kill: performance.now() - killBegan,
  });
}
console.log(
  `\n| reader | start, readers loaded (ms) | 1-page PDF word count round trip (ms) | reader allocates 1 GB of ArrayBuffers (heap limit 384 MB) | API process RSS growth (MB) | reader RSS (MB) | stop a reader stuck in a loop (ms) |\n|---|---|---|---|---|---|---|`,
);
for (const r of rows)
  console.log(
    `| ${r.mode === 'thread' ? 'worker thread (resourceLimits)' : 'child process'} | ${r.start.toFixed(0)} | ${r.trip.toFixed(2)} | ${r.allocated} | ${r.parentGrowth.toFixed(0)} | ${r.readerRss.toFixed(0)} | ${r.kill.toFixed(1)} |`,
  );
console.log(`\nNode ${process.version}, ${cpus().length} cores`);
