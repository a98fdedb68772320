// node bench/editor/run.mjs: how fast a word-level transcript editor stays on a two-hour review (18,000
// words in 600 paragraphs, bench/editor/transcript.mjs), in headless Chromium, to choose between
// CodeMirror 6 and ProseMirror. Pages (bench/editor/pages, scripts in src/ bundled by rolldown into one
// file each, served from loopback under the CSP below, never 'unsafe-inline' or 'unsafe-eval'):
//   textarea           a bare <textarea> (the floor)
//   backdrop           the textarea over a backdrop of <mark>ed doubtful words drawn again on every input (today's page)
//   cm-visible         CodeMirror 6, word marks made for the visible ranges only, times in a mapped RangeSet
//   cm-field           CodeMirror 6, all 18,000 word marks in a StateField mapped through changes
//   cm-none            CodeMirror 6 without word marks
//   cm-visible-strict  cm-visible with style-src 'self' only: CodeMirror's own <style> is blocked
//   prosemirror        ProseMirror, every word a `word` mark drawn as a <span> (the whole document)
//   prosemirror-cv     the same with content-visibility: auto on its paragraphs (the browser skips those off screen)
// The CodeMirror pages but the strict one get a nonce in style-src for CodeMirror's <style> element.
// Measured per run, in a fresh browser context:
//   load     navigation start to the editor built and its first frame painted (window.editorReady);
//   latency  for each of --keys characters typed (page.keyboard.press, --gap ms apart) at the start of
//            the middle word: the keydown's timeStamp to the end of the next frame, i.e. a message posted
//            from the first requestAnimationFrame callback after the keydown, which runs once that
//            frame's style, layout and paint are done on the main thread (src/page.js). p50/p95/p99/max.
//   check    after typing: the text is the original with the keys inserted; for the word editors, every
//            paragraph on screen has one span per word, every span carries data-start/end/confidence
//            equal to the transcript's for that word, the word typed before keeps its times, and so
//            does the first word once scrolled back to the top.
// Also the CPU's idle and steal during each run (/proc/stat). Writes bench/editor/results.json.
// Usage: node bench/editor/run.mjs [--runs 3 --keys 200 --gap 50 --only cm-visible,prosemirror]
//        node bench/editor/run.mjs --serve   (only serves the pages, to open them in a browser)
import { createServer } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { rolldown } from 'rolldown';
import { chromium } from 'playwright-core';
import { generateTranscript, layout } from './transcript.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const RUNS = Number(option('runs', 3));
const KEYS = Number(option('keys', 200));
const GAP = Number(option('gap', 50));
const CHROMIUM = '/usr/bin/chromium'; // Debian's, as test/helpers/browser.ts
const TYPED = 'the keeper climbed the stairs at sunset ';

const VARIANTS = [
  { name: 'textarea', page: 'textarea' },
  { name: 'backdrop', page: 'backdrop' },
  { name: 'cm-visible', page: 'codemirror', query: '?decorations=visible', nonce: true, words: true },
  { name: 'cm-field', page: 'codemirror', query: '?decorations=field', nonce: true, words: true },
  { name: 'cm-none', page: 'codemirror', query: '?decorations=none', nonce: true },
  { name: 'cm-visible-strict', page: 'codemirror', query: '?decorations=visible', words: true },
  { name: 'prosemirror', page: 'prosemirror', words: true },
  { name: 'prosemirror-cv', page: 'prosemirror', query: '?visibility=auto', words: true },
];
const only = option('only', '').split(',').filter(Boolean);
const variants = VARIANTS.filter((v) => !only.length || only.includes(v.name));

const csp = (nonce) =>
  `default-src 'self'; style-src 'self'${nonce ? ` 'nonce-${nonce}'` : ''}; img-src 'self' data:; media-src 'self'; frame-ancestors 'none'`;

/** Each page's script and what it imports, bundled into one file, kept in memory. */
async function bundle(page) {
  const build = await rolldown({ input: here(`src/${page}.js`), logLevel: 'warn' });
  const { output } = await build.generate({ format: 'iife', minify: true });
  await build.close();
  return output[0].code;
}

function serve(files) {
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const variant = VARIANTS.find((v) => url.pathname === `/${v.name}`);
    if (variant) {
      const nonce = variant.nonce ? randomBytes(16).toString('base64') : '';
      const html = readFileSync(here(`pages/${variant.page}.html`), 'utf8').replace('name="style-nonce" content=""', `name="style-nonce" content="${nonce}"`);
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp(nonce) }).end(html);
    }
    const file = files[url.pathname];
    if (!file) return void res.writeHead(url.pathname === '/favicon.ico' ? 204 : 404).end();
    res.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const percentile = (sorted, p) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (v) => Math.round(v * 10) / 10;

function cpuTimes() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { total: fields.slice(0, 8).reduce((a, b) => a + b, 0), idle: fields[3] + fields[4], steal: fields[7] };
}
const cpuShare = (before, after) => {
  const total = after.total - before.total || 1;
  return { idle: round(((after.idle - before.idle) / total) * 100), steal: round(((after.steal - before.steal) / total) * 100) };
};

const frames = (page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/** The word editors' DOM after typing: paragraphs and word spans on screen, and some facts about the whole DOM. */
const readScreen = (page) =>
  page.evaluate(() => {
    const box = window.bench.scroller.getBoundingClientRect();
    const onScreen = (el) => {
      const r = el.getBoundingClientRect();
      return r.bottom > box.top && r.top < box.bottom;
    };
    const spans = (root) =>
      [...root.querySelectorAll('[data-start]')].map((s) => ({
        text: s.textContent,
        start: s.dataset.start,
        end: s.dataset.end,
        confidence: s.dataset.confidence,
      }));
    const lines = [...document.querySelectorAll(`#editor ${window.bench.lines}`)].filter(onScreen);
    return {
      lines: lines.map((line) => ({ text: line.textContent, spans: spans(line) })),
      domSpans: document.querySelectorAll('#editor [data-start]').length,
      domElements: document.querySelectorAll('#editor *').length,
    };
  });

function checkWords(screen, top, { words, lines }, typedAt) {
  const byStart = new Map(words.map((w) => [String(w.start), w]));
  const typedPrefix = lines[typedAt.line].prefix; // that paragraph has the typed words, which have no times yet
  const problems = [];
  let spans = 0;
  for (const line of screen.lines) {
    const wordsInText = line.text
      .replace(/^\[\d\d:\d\d:\d\d\] Speaker \d+: /, '')
      .split(/\s+/)
      .filter(Boolean).length;
    const typedLine = line.text.startsWith(typedPrefix);
    if (!typedLine && wordsInText !== line.spans.length) problems.push(`a paragraph on screen has ${wordsInText} words and ${line.spans.length} spans`);
    for (const span of line.spans) {
      spans++;
      const word = byStart.get(span.start);
      if (!word || word.text !== span.text || String(word.end) !== span.end || String(word.confidence) !== span.confidence)
        problems.push(`span ${JSON.stringify(span)} is not the transcript's word`);
    }
  }
  const kept = (w, list) => list.some((s) => s.text === w.text && s.start === String(w.start) && s.end === String(w.end));
  if (
    !kept(
      typedAt,
      screen.lines.flatMap((l) => l.spans),
    )
  )
    problems.push(`the word typed before (${typedAt.text} ${typedAt.start}) lost its times`);
  if (
    !kept(
      words[0],
      top.lines.flatMap((l) => l.spans),
    )
  )
    problems.push('the first word, back at the top, lost its times');
  if (spans < 100) problems.push(`only ${spans} word spans on screen`);
  return { spansOnScreen: spans, problems: problems.slice(0, 5), problemCount: problems.length };
}

async function measure(browser, base, variant, doc) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  const before = cpuTimes();
  await page.goto(`${base}/${variant.name}${variant.query ?? ''}`);
  await page.waitForFunction(() => window.editorReady !== undefined, null, { timeout: 60_000 });
  const load = await page.evaluate(() => window.editorReady);

  const typedAt = doc.words[Math.floor(doc.words.length / 2)];
  await page.evaluate((offset) => window.bench.placeCaret(offset), typedAt.from);
  await page.waitForTimeout(300);
  await page.evaluate(() => (window.latencies = []));
  let typed = '';
  for (let i = 0; i < KEYS; i++) {
    const key = TYPED[i % TYPED.length];
    typed += key;
    await page.keyboard.press(key === ' ' ? 'Space' : key);
    if (GAP) await page.waitForTimeout(GAP);
  }
  await frames(page);
  await page.waitForTimeout(200);
  const latencies = await page.evaluate(() => window.latencies);
  const cpu = cpuShare(before, cpuTimes());

  const text = await page.evaluate(() => window.bench.text());
  const expected = doc.text.slice(0, typedAt.from) + typed + doc.text.slice(typedAt.from);
  const problems = [];
  if (text !== expected) {
    let i = 0;
    while (text[i] === expected[i]) i++;
    const show = (t) => JSON.stringify(t.slice(i - 20, i + 20)).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    problems.push(`the text is not the original with the keys typed in: ${show(text)} for ${show(expected)}`);
  }
  let words;
  if (variant.words) {
    const screen = await readScreen(page);
    await page.evaluate(() => window.bench.toTop());
    await frames(page);
    const top = await readScreen(page);
    const { spansOnScreen, problems: wordProblems, problemCount } = checkWords(screen, top, doc, typedAt);
    problems.push(...wordProblems);
    if (problemCount > wordProblems.length) problems.push(`… ${problemCount - wordProblems.length} more`);
    words = { spansOnScreen, domSpans: screen.domSpans, domElements: screen.domElements };
  }
  const cspViolations = await page.evaluate(() => window.cspViolations);
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const heapMB = round((await cdp.send('Runtime.getHeapUsage')).usedSize / 2 ** 20);
  await context.close();

  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    variant: variant.name,
    load: round(load),
    keys: latencies.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1)),
    cpu,
    heapMB,
    words,
    correct: problems.length === 0,
    problems,
    cspViolations: [...new Set(cspViolations)],
    consoleErrors: [...new Set(errors)].slice(0, 3),
    latencies: latencies.map(round),
  };
}

const transcript = generateTranscript();
const doc = layout(transcript);
const files = {
  '/transcript.json': { type: 'application/json', body: JSON.stringify(transcript) },
  '/editor.css': { type: 'text/css', body: readFileSync(here('pages/editor.css')) },
  '/prosemirror.css': { type: 'text/css', body: readFileSync(here('../../node_modules/prosemirror-view/style/prosemirror.css')) },
};
for (const page of new Set(variants.map((v) => v.page))) files[`/${page}.js`] = { type: 'text/javascript', body: await bundle(page) };

const server = await serve(files);
const base = `http://127.0.0.1:${server.address().port}`;
if (process.argv.includes('--serve')) {
  console.log(`serving the pages at ${base}/<variant>, e.g. ${base}/cm-visible (Ctrl+C to stop)`);
  await new Promise(() => {});
}
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
const doubtful = doc.words.filter((w) => w.confidence < 0.5).length;
console.log(
  `${doc.words.length} words in ${transcript.paragraphs.length} paragraphs, ${doc.text.length} characters, ${doubtful} doubtful; ` +
    `${KEYS} keys typed ${GAP} ms apart in the middle; ${RUNS} runs each; Chromium ${browser.version()}, ${cpus().length} CPUs`,
);
console.log('variant            run  load ms  p50 ms  p95 ms  p99 ms  max ms  keys  idle %  steal %  check');
const started = cpuTimes();
const results = [];
for (const variant of variants) {
  for (let run = 1; run <= RUNS; run++) {
    const r = { run, ...(await measure(browser, base, variant, doc)) };
    results.push(r);
    const f = (v) => String(v.toFixed(1)).padStart(7);
    const check = r.correct ? 'ok' : `WRONG: ${r.problems.join('; ')}`;
    const notes = [...r.cspViolations.map((v) => `CSP blocked: ${v}`), ...r.consoleErrors.filter((e) => !e.includes('Content Security Policy'))];
    console.log(
      `${variant.name.padEnd(18)} ${String(run).padStart(3)} ${f(r.load)} ${f(r.p50)} ${f(r.p95)} ${f(r.p99)} ${f(r.max)} ${String(r.keys).padStart(5)} ${f(r.cpu.idle)} ${f(r.cpu.steal)}  ${check}${notes.length ? `  (${notes.join('; ')})` : ''}`,
    );
  }
}
console.log('\nvariant            word spans in the DOM  on screen  elements in the editor  JS heap MB after GC  (last run)');
for (const variant of variants) {
  const r = results.findLast((x) => x.variant === variant.name);
  const w = r.words ?? {};
  console.log(
    `${variant.name.padEnd(18)} ${String(w.domSpans ?? '-').padStart(21)} ${String(w.spansOnScreen ?? '-').padStart(10)} ${String(w.domElements ?? '-').padStart(23)} ${String(r.heapMB).padStart(11)}`,
  );
}
const overall = cpuShare(started, cpuTimes());
console.log(`CPU during the runs: idle ${overall.idle} %, steal ${overall.steal} %`);
writeFileSync(
  here('results.json'),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      chromium: browser.version(),
      cpus: cpus().length,
      csp: csp('…'),
      transcript: { words: doc.words.length, paragraphs: transcript.paragraphs.length, characters: doc.text.length, doubtful },
      keys: KEYS,
      gapMs: GAP,
      cpu: overall,
      results,
    },
    null,
    1,
  )}\n`,
);
await browser.close();
server.close();
