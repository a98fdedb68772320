// Hostile documents against `node dist/main.js` (the embedded stack, as `npm start`): the time to
// refuse each kind, the latency of another endpoint, the event-loop lag and the service's memory
// while four are opened at once, and the cost of isolation on honest quotes, side by side with the
// same readers called in this process (the floor: the work without a child process around it).
// Then hostile result files (issue 41): the PDF of a finished order whose transcript holds a
// hostile run, its first rendering and a cached one, another order's DOCX asked meanwhile, and the
// renderer in this process.
// Usage: npm run build && node bench/hostileDocuments.mjs [--runs 3] [--only documents|results]
// The hostile files come from the tests' generators (test/helpers/hostileFiles.ts and
// hostileTranscripts.ts, transpiled here).
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';
import { listen, quantile, startService } from './lib.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, only: { type: 'string' } } });
const RUNS = Number(values.runs);

async function generator(helper = 'hostileFiles') {
  const source = await readFile(`test/helpers/${helper}.ts`, 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  const dir = await mkdtemp(join(tmpdir(), 'hostile-'));
  await writeFile(join(dir, `${helper}.mjs`), outputText);
  return { module: await import(pathToFileURL(join(dir, `${helper}.mjs`)).href), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const childrenRssMb = (pid) =>
  execFileSync('ps', ['-o', 'rss=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .reduce((sum, kb) => sum + Number(kb) / 1024, 0);
const median = (xs) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

const { module: hostile, cleanup } = await generator();
const files = new Map();
const server = await listen((req, res) => {
  const file = files.get(new URL(req.url, 'http://docs').pathname);
  if (!file) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length }).end(file.body);
});
const serve = (path, body, type) => {
  files.set(path, { body, type });
  return `${server.url}${path}`;
};

const service = await startService({ concurrency: 8, env: { AI_ENGINE: 'operator', ALIGN_ENGINE: 'operator' } });
const pair = { translate_from: 'english', translate_to: 'french' };
const quote = async (url) => {
  const started = performance.now();
  const res = await fetch(`${service.base}/api/v4/translations`, {
    method: 'POST',
    body: new URLSearchParams({ api_token: service.token, mode: 'test', url, ...pair }),
  });
  return { status: res.status, body: await res.json(), ms: performance.now() - started };
};
const metric = async (name) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(await (await fetch(`${service.base}/metrics`)).text())?.[1]);

/** GET /api/v4/languages every 20 ms until `stop()`: latencies, and the service's RSS each time. */
function otherCustomer() {
  const latencies = [];
  let peakRss = 0;
  let peakWithReaders = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${service.base}/api/v4/languages`)).arrayBuffer();
      latencies.push(performance.now() - started);
      const rss = rssMb(service.pid);
      peakRss = Math.max(peakRss, rss);
      peakWithReaders = Math.max(peakWithReaders, rss + childrenRssMb(service.pid));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return async () => {
    running = false;
    await loop;
    const sorted = latencies.sort((a, b) => a - b);
    return { requests: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1), peakRss, peakWithReaders };
  };
}

/**
 * Hostile result files: per transcript, RUNS finished orders; each one's PDF asked once (rendered)
 * and again (cached), another finished order's DOCX asked while the first renders; then the
 * renderer in this process on the same transcript (the floor).
 */
async function hostileResults() {
  const { module: transcripts, cleanup: done } = await generator('hostileTranscripts');
  const { renderResult } = await import(pathToFileURL(join(process.cwd(), 'dist/domain/render/index.js')).href);
  const { importTextTranscript } = await import(pathToFileURL(join(process.cwd(), 'dist/domain/transcript.js')).href);
  const { fontLibrary } = await import(pathToFileURL(join(process.cwd(), 'dist/documents/fonts.js')).href);
  const finished = async (text) => {
    const { order_id: id } = await service.orderAt('transcriptions', { url: `${service.mediaUrl}/a.wav`, language: 'english' });
    const { key } = await service.ops('PUT', '/ops/files', undefined, Buffer.from(text));
    await service.complete(id, key);
    return id;
  };
  const file = async (id, format) => {
    const started = performance.now();
    const res = await fetch(`${service.base}/api/v4/orders/${id}/files/transcription?api_token=${service.token}&format=${format}`);
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, bytes: body.length, ms: performance.now() - started, error: res.status === 200 ? undefined : JSON.parse(body).error };
  };
  const options = { title: 'Order 1 transcription', timestamping: 'not_required', language: 'en', direction: 'ltr' };
  await renderResult('transcription', importTextTranscript('Speaker 1: warm.'), 'pdf', options, fontLibrary());
  console.log('\n## Hostile result files: the PDF of a finished order (median of runs)\n');
  console.log(
    "| transcript | size | PDF status | first PDF ms | max ms | cached ms | another order's DOCX meanwhile | its ms | renderer in this process ms |\n|---|---|---|---|---|---|---|---|---|",
  );
  try {
    for (const hostile of transcripts.HOSTILE_TRANSCRIPTS) {
      const text = transcripts.hostileTranscriptText(hostile);
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const [id, other] = [await finished(text), await finished('Speaker 1: An ordinary paragraph of an ordinary order.\n')];
        const first = file(id, 'pdf');
        await new Promise((r) => setTimeout(r, 50));
        const meanwhile = await file(other, 'docx');
        runs.push({ first: await first, cached: await file(id, 'pdf'), meanwhile });
      }
      const floor = [];
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        await renderResult('transcription', importTextTranscript(text), 'pdf', options, fontLibrary());
        floor.push(performance.now() - started);
      }
      const { first, meanwhile } = runs.at(-1);
      console.log(
        `| ${hostile.name} | ${(Buffer.byteLength(text) / 1024).toFixed(0)} KB | ${first.status}${first.error ? ` (${first.error})` : ''} | ${median(runs.map((r) => r.first.ms)).toFixed(0)} | ${Math.max(...runs.map((r) => r.first.ms)).toFixed(0)} | ${median(runs.map((r) => r.cached.ms)).toFixed(0)} | ${meanwhile.status} | ${median(runs.map((r) => r.meanwhile.ms)).toFixed(0)} | ${median(floor).toFixed(0)} |`,
      );
    }
  } finally {
    await done();
  }
}

/** Hostile documents quoted: the time to refuse each, another customer meanwhile, the cost of isolation. */
async function hostileDocuments() {
  // Warm-up: readers started and loaded.
  const warm = serve('/warm.pdf', hostile.honestTextPdf(2, 50), 'application/pdf');
  for (let i = 0; i < 5; i++) await quote(warm);

  console.log('\n## Time to refuse each kind (translation quote, mode=test)\n');
  console.log('| file | size | status | refusal | median ms | max ms |\n|---|---|---|---|---|---|');
  for (const h of hostile.HOSTILE_DOCUMENTS) {
    const bytes = h.bytes();
    const url = serve(`/${h.fileName}`, bytes, h.contentType);
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await quote(url));
    const last = runs.at(-1);
    console.log(
      `| ${h.name} | ${(bytes.length / 1024).toFixed(0)} KB | ${last.status} | ${last.body.error} | ${median(runs.map((r) => r.ms)).toFixed(0)} | ${Math.max(...runs.map((r) => r.ms)).toFixed(0)} |`,
    );
  }

  console.log('\n## Another customer meanwhile (GET /api/v4/languages every 20 ms)\n');
  const idleStop = otherCustomer();
  await new Promise((r) => setTimeout(r, 5000));
  const idle = await idleStop();
  await metric('nodejs_eventloop_lag_max_seconds'); // the scrape resets the lag histogram
  const attackStop = otherCustomer();
  const attackers = hostile.HOSTILE_DOCUMENTS.filter((h) => /millions|paragraphs|bomb\.docx|page-tree/.test(h.fileName));
  const attacks = [];
  for (let round = 0; round < RUNS; round++) {
    attacks.push(...(await Promise.all(attackers.map((h, n) => quote(serve(`/attack-${round}-${n}-${h.fileName}`, h.bytes(), h.contentType))))));
  }
  const attack = await attackStop();
  const lagMaxMs = (await metric('nodejs_eventloop_lag_max_seconds')) * 1000;
  console.log(
    '| phase | requests | p50 ms | p99 ms | max ms | service RSS peak MB | with readers MB | event-loop lag max ms |\n|---|---|---|---|---|---|---|---|',
  );
  console.log(
    `| idle | ${idle.requests} | ${idle.p50.toFixed(1)} | ${idle.p99.toFixed(1)} | ${idle.max.toFixed(1)} | ${idle.peakRss.toFixed(0)} | ${idle.peakWithReaders.toFixed(0)} | – |`,
  );
  console.log(
    `| ${RUNS} × 4 hostile documents at once | ${attack.requests} | ${attack.p50.toFixed(1)} | ${attack.p99.toFixed(1)} | ${attack.max.toFixed(1)} | ${attack.peakRss.toFixed(0)} | ${attack.peakWithReaders.toFixed(0)} | ${lagMaxMs.toFixed(1)} |`,
  );
  const statuses = attacks.reduce((m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }), {});
  console.log(`\nattack answers: ${JSON.stringify(statuses)}`);

  console.log('\n## Cost of isolation on honest quotes (median of 20)\n');
  const { documentWords } = await import(pathToFileURL(join(process.cwd(), 'dist/documents/measure.js')).href);
  console.log('| document | words | service quote ms | readers in this process ms (floor) |\n|---|---|---|---|');
  const honest = [
    ['a 1-page text PDF', hostile.honestTextPdf(1, 300), 'application/pdf', 'a.pdf'],
    ['a 300-page text PDF', hostile.honestTextPdf(300, 300), 'application/pdf', 'b.pdf'],
    ['a DOCX of 300 paragraphs', await docx(300), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'c.docx'],
  ];
  for (const [name, bytes, type, fileName] of honest) {
    const url = serve(`/honest-${fileName}`, bytes, type);
    const served = [];
    const floor = [];
    let words;
    for (let i = 0; i < 20; i++) {
      const res = await quote(url);
      words = res.body.words;
      served.push(res.ms);
      const started = performance.now();
      await documentWords(bytes, fileName);
      floor.push(performance.now() - started);
    }
    console.log(`| ${name} | ${words} | ${median(served).toFixed(1)} | ${median(floor).toFixed(1)} |`);
  }
}

try {
  if (values.only !== 'results') await hostileDocuments();
  if (values.only !== 'documents') await hostileResults();
  console.log(`\nNode ${process.version}, ${(await import('node:os')).cpus().length} cores`);
} finally {
  await service.stop();
  server.server.close();
  await cleanup();
}

/** A DOCX of `n` one-sentence paragraphs, written by the `docx` package. */
async function docx(n) {
  const { Document, Packer, Paragraph } = await import('docx');
  return Packer.toBuffer(
    new Document({
      sections: [{ children: Array.from({ length: n }, (_, i) => new Paragraph(`Paragraph ${i} of the honest document, eleven words long here.`)) }],
    }),
  );
}
