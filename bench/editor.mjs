// npm run bench:editor: how quick the transcript editor stays on a two-hour review (about 18,000
// words), in headless Chromium (Debian's, through playwright-core), beside the floor and the page
// before it:
//   textarea  a bare <textarea> holding the text (the floor: the browser's own editing);
//   text      the text editor of translations and OCR (CodeMirror 6, src/web/client/textEditor.ts); before
//             issue 43 the pages had the textarea, with a backdrop of the draft's doubtful words where it
//             had some (its figures are in docs/benchmarks.md);
//   editor    the word-level editor (CodeMirror 6, src/web/client/transcriptEditor.ts) as the task page
//             loads it: the service's bundled dist/web/assets/work.js, every word a mark with its times.
// Each page is served from loopback under the task page's CSP. Measured per page: load (navigation
// start to the text ready to type in, the words marked), and for 200 keystrokes typed in the middle of
// the text, keydown to the frame after it (the keydown's timeStamp to a message posted from the next
// animation frame, which runs after that frame is painted). Three runs each. Needs `npm run build`.
// Usage: npm run bench:editor [-- --runs 3 --keys 200 --gap 50]
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { chromium } from 'playwright-core';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg('runs', 3);
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const KEYS = arg('keys', 200);
/** The pause between keys, ms: 50 types like a quick typist (20 keys a second); 0 types as fast as the browser takes them. */
const GAP = arg('gap', 50);

/** Two hours of speech: 600 paragraphs of 30 words, a word every 0.4 s, every 17th doubtful. */
function twoHours() {
  const vocabulary =
    'the keeper climbed stairs every evening at sunset and cleaned great lamp wound clock by hand ships passing night would see light sweep water'.split(' ');
  const paragraphs = [];
  const segments = [];
  let t = 0;
  let n = 0;
  for (let p = 0; p < 600; p++) {
    const words = [];
    for (let w = 0; w < 30; w++, n++) {
      words.push({
        text: vocabulary[(n * 7) % vocabulary.length],
        start: Math.round(t * 100) / 100,
        end: Math.round((t + 0.32) * 100) / 100,
        confidence: n % 17 === 0 ? 0.3 : 0.9,
      });
      t += 0.4;
    }
    const clock = new Date(words[0].start * 1000).toISOString().slice(11, 19);
    paragraphs.push(`[${clock}] Speaker ${(p % 2) + 1}: ${words.map((w) => w.text).join(' ')}`);
    segments.push({ speaker: `Speaker ${(p % 2) + 1}`, words });
  }
  return { text: paragraphs.join('\n\n'), segments, words: n };
}

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function page(kind, doc, nonce) {
  const words = kind.startsWith('editor') ? ` data-words-url="/${kind === 'editor' ? 'words' : 'nowords'}"` : '';
  const script = kind === 'textarea' ? '' : '<script src="/work.js" defer></script>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench ${kind}</title><link rel="stylesheet" href="/app.css">${script}</head>
<body><main><div class="workspace" id="workspace" data-settings='{"backTrackSeconds":1,"skipSeconds":5,"keys":{}}'>
<form id="work-form" method="post" action="/submit" data-save-url="/save" data-csrf="bench"><p><label for="work-text">Transcript</label></p>
<div class="text-frame"><textarea id="work-text" name="text" rows="18" data-style-nonce="${nonce}"${words}>${escape(doc.text)}</textarea></div>
<p id="save-status" role="status"></p><p id="editor-status" role="status"></p></form></div></main></body></html>`;
}

function serve(doc) {
  const assets = { '/work.js': ['text/javascript', readFileSync('dist/web/assets/work.js')], '/app.css': ['text/css', readFileSync('src/web/assets/app.css')] };
  const words = JSON.stringify({ segments: doc.segments });
  const server = createServer((req, res) => {
    const nonce = randomBytes(18).toString('base64');
    const csp = `default-src 'none'; script-src 'self'; style-src 'self' 'nonce-${nonce}'; img-src 'self'; media-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
    const [path] = req.url.split('?');
    if (assets[path]) return void res.writeHead(200, { 'content-type': assets[path][0] }).end(assets[path][1]);
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    if (path === '/nowords') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"segments":[]}');
    if (path === '/words') return void res.writeHead(200, { 'content-type': 'application/json' }).end(words);
    if (path === '/save') return void req.resume().on('end', () => res.writeHead(204).end());
    const kind = path.slice(1);
    if (!['textarea', 'text', 'editor', 'editor-plain'].includes(kind)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp }).end(page(kind, doc, nonce));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Keydown to the frame after it, for every key typed (in the page, before any other listener). */
const MEASURE = () => {
  window.__latencies = [];
  const channel = new MessageChannel();
  const pending = [];
  channel.port1.onmessage = () => window.__latencies.push(performance.now() - pending.shift());
  addEventListener(
    'keydown',
    (e) => {
      pending.push(e.timeStamp);
      requestAnimationFrame(() => channel.port2.postMessage(0));
    },
    { capture: true },
  );
};

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

function cpuTimes() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number);
  return { total: user + nice + system + idle + iowait + irq + softirq + steal, idle, steal };
}

async function measure(browser, base, kind, doc) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const p = await context.newPage();
  const problems = [];
  p.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  await p.addInitScript(MEASURE);
  await p.goto(`${base}/${kind}`);
  const codeMirror = kind !== 'textarea';
  const box = codeMirror ? p.locator('.cm-content') : p.locator('#work-text');
  if (kind.startsWith('editor')) await p.locator('.cm-editor[data-words="ready"]').waitFor();
  else await box.waitFor();
  const load = await p.evaluate(() => performance.now());
  // The caret in the middle of the text, then keys typed one by one.
  if (codeMirror) {
    await p.locator('.cm-scroller').evaluate((s) => (s.scrollTop = s.scrollHeight / 2));
    await p.waitForTimeout(100);
    await p
      .locator(kind === 'editor' ? '.cm-content [data-start]' : '.cm-line')
      .nth(40)
      .click();
  } else {
    await box.evaluate((t) => {
      t.focus();
      t.setSelectionRange(t.value.length / 2, t.value.length / 2);
    });
  }
  await p.evaluate(() => (window.__latencies = []));
  const cdp = process.env.PROFILE ? await context.newCDPSession(p) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  const typed = 'the keeper climbed ';
  for (let i = 0; i < KEYS; i++) {
    await p.keyboard.press(typed[i % typed.length] === ' ' ? 'Space' : typed[i % typed.length]);
    if (GAP) await p.waitForTimeout(GAP);
  }
  await p.waitForTimeout(200);
  const latencies = await p.evaluate(() => window.__latencies);
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    const self = new Map();
    const dt = profile.timeDeltas;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const n = byId.get(id);
      const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
      self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
    });
    console.log(
      [...self]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 25)
        .map(([k, v]) => `${v.toFixed(1)} ms ${k}`)
        .join('\n'),
    );
  }
  let correct = true;
  if (kind === 'editor') {
    // Still right on that document: the words on screen carry times, and a word far from the typing kept the draft's.
    const marks = await p.locator('.cm-content [data-start]').count();
    await p.keyboard.press('Control+Home');
    const first = await p
      .locator('.cm-content [data-start]')
      .first()
      .evaluate((w) => [w.textContent, Number(w.dataset.start), Number(w.dataset.end)]);
    correct =
      marks > 50 && first[0] === doc.segments[0].words[0].text && first[1] === doc.segments[0].words[0].start && first[2] === doc.segments[0].words[0].end;
  }
  await context.close();
  return { load, latencies, correct, problems };
}

const doc = twoHours();
const server = await serve(doc);
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const before = cpuTimes();
console.log(`a two-hour review: ${doc.words} words, ${doc.text.length} characters; ${KEYS} keys typed in the middle, ${GAP} ms apart; ${RUNS} runs each`);
console.log('page      run  load ms  p50 ms  p95 ms  p99 ms  max ms  right');
const results = [];
for (const kind of ['textarea', 'text', 'editor', 'editor-plain'].filter((k) => !ONLY || k === ONLY)) {
  for (let run = 1; run <= RUNS; run++) {
    const { load, latencies, correct, problems } = await measure(browser, base, kind, doc);
    const row = {
      kind,
      run,
      load,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      max: Math.max(...latencies),
      correct,
      problems,
    };
    results.push(row);
    const f = (v) => v.toFixed(1).padStart(7);
    console.log(
      `${kind.padEnd(9)} ${String(run).padStart(3)} ${f(load)} ${f(row.p50)} ${f(row.p95)} ${f(row.p99)} ${f(row.max)}  ${correct ? 'yes' : 'NO'}${problems.length ? `  page errors: ${problems.join('; ')}` : ''}`,
    );
  }
}
const after = cpuTimes();
const total = after.total - before.total;
console.log(
  `machine during the runs: idle ${(((after.idle - before.idle) / total) * 100).toFixed(1)} %, steal ${(((after.steal - before.steal) / total) * 100).toFixed(1)} %`,
);
await browser.close();
server.close();
