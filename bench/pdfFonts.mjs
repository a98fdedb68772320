// What PDFs in every script cost and give (issue 30), side by side with the floor: the renderer
// before it (pdfkit's own line wrapping, DejaVu Sans only), rebuilt here as it was.
//   1. per script (test/helpers/scriptSamples.json): the page drawn by pdftoppm at 300 dpi and read
//      by tesseract with the language's data, character error rate, floor and now; render time;
//   2. hour-long transcripts (English, Chinese, Japanese, Hindi, Arabic; 60 segments a minute's
//      worth each, synthetic text with the character spread of speech): render time in a fresh
//      process (fonts read and parsed) and warm, size, pages, fonts embedded;
//   3. install size: the Debian packages (dpkg's Installed-Size, du of the files read), and the npm
//      font packages that would do the same (`npm pack --dry-run`, with --npm: needs the registry).
//
// Usage: node bench/pdfFonts.mjs [--npm] [--json]   (npm run bench:pdf; needs npm run build,
//   fonts-noto-core, fonts-noto-cjk, poppler-utils, tesseract-ocr with the data the samples name).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import PDFDocument from 'pdfkit';
import { renderResult } from '../dist/domain/render/index.js';
import { layoutTranscript } from '../dist/domain/render/layout.js';
import { fontLibrary } from '../dist/documents/fonts.js';
import { languageTag, writingDirection } from '../dist/domain/languages.js';
import { characterErrorRate } from '../dist/domain/textDistance.js';

const { values: opts } = parseArgs({ options: { npm: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } });
const say = (...a) => console.error('bench:', ...a);
const require = createRequire(import.meta.url);
const SAMPLES = JSON.parse(readFileSync(new URL('../test/helpers/scriptSamples.json', import.meta.url), 'utf8'));
const TITLE = 'Order 1 transcription';

/** The floor: the PDF renderer before issue 30 (DejaVu Sans, pdfkit's wrapping, no bidi, no fallback). */
function floorPdf(paragraphs, title, direction) {
  const dejavu = { regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf') };
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ size: 'A4', margin: 56 });
    const chunks = [];
    pdf.on('data', (c) => chunks.push(c));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    pdf.registerFont('regular', dejavu.regular);
    pdf.registerFont('bold', dejavu.bold);
    pdf.font('bold').fontSize(16).text(title).moveDown();
    for (const p of paragraphs) {
      const pieces = [
        ...(p.speaker ? [{ text: `${p.speaker}: `, font: 'bold' }] : []),
        ...p.runs.map((r, i) => ({ text: ('mark' in r ? `[${r.mark}]` : r.text) + (i < p.runs.length - 1 ? ' ' : ''), font: 'regular' })),
      ];
      pieces.forEach((piece, i) =>
        pdf
          .font(piece.font)
          .fontSize(11)
          .text(piece.text, { continued: i < pieces.length - 1, align: direction === 'rtl' ? 'right' : 'left' }),
      );
      pdf.moveDown(0.6);
    }
    pdf.end();
  });
}

const options = (language) => ({ title: TITLE, timestamping: 'not_required', language: languageTag(language), direction: writingDirection(language) });
const renderNow = async (language, transcript) => (await renderResult('transcription', transcript, 'pdf', options(language), fontLibrary())).body;
const renderFloor = (language, transcript) => floorPdf(layoutTranscript(transcript, 'not_required'), TITLE, writingDirection(language));

const tmp = mkdtempSync(join(os.tmpdir(), 'bench-pdf-'));
function ocr(pdf, data) {
  writeFileSync(join(tmp, 'f.pdf'), pdf);
  execFileSync('pdftoppm', ['-r', '300', '-gray', '-png', '-singlefile', '-f', '1', '-l', '1', join(tmp, 'f.pdf'), join(tmp, 'page')]);
  const text = execFileSync('tesseract', [join(tmp, 'page.png'), '-', '-l', data, '--psm', '6'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  return text
    .split('\n')
    .filter((l) => l.trim())
    .slice(1)
    .join('');
}
const cerOf = (text, read) => characterErrorRate(text.replace(/\s+/g, ''), read.replace(/\s+/g, ''));
async function timed(fn, runs = 5) {
  const times = [];
  let out;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    out = await fn();
    times.push(performance.now() - t0);
  }
  return { out, ms: times.sort((a, b) => a - b)[Math.floor(runs / 2)] };
}

// 1. Per script.
say('per script: OCR and render time, floor and now');
const scripts = [];
for (const { language, text, ocr: o } of SAMPLES) {
  const transcript = { segments: [{ start: 0, end: 5, text }] };
  const floor = await timed(() => renderFloor(language, transcript));
  const now = await timed(() => renderNow(language, transcript));
  scripts.push({
    language,
    floorCer: o ? cerOf(text, ocr(floor.out, o.data)) : undefined,
    nowCer: o ? cerOf(text, ocr(now.out, o.data)) : undefined,
    floorMs: floor.ms,
    nowMs: now.ms,
  });
}

// 2. Hour-long transcripts: 60 minutes of 6 segments a minute, each ~10 s of speech.
const BASE = {
  english: (rnd) =>
    Array.from(
      { length: 25 },
      () =>
        [
          'the',
          'school',
          'children',
          'need',
          'teachers',
          'and',
          'we',
          'will',
          'talk',
          'about',
          'education',
          'today',
          'which',
          'is',
          'important',
          'for',
          'our',
          'future',
        ][Math.floor(rnd() * 18)],
    ).join(' ') + '.',
  // Han characters drawn with a Zipf-like spread over 3,000 (speech uses 2,000 to 3,000 in an hour).
  'chinese-simplified': (rnd) => Array.from({ length: 42 }, () => String.fromCodePoint(0x4e00 + Math.floor(3000 * rnd() ** 2.2))).join('') + '。',
  japanese: (rnd) =>
    Array.from({ length: 42 }, () =>
      rnd() < 0.5 ? String.fromCodePoint(0x3042 + Math.floor(rnd() * 80)) : String.fromCodePoint(0x4e00 + Math.floor(3000 * rnd() ** 2.2)),
    ).join('') + '。',
  hindi: (rnd) =>
    Array.from(
      { length: 20 },
      () => ['नमस्ते', 'आज', 'हम', 'शिक्षा', 'के', 'बारे', 'में', 'बात', 'करेंगे', 'बच्चों', 'को', 'अच्छे', 'स्कूल', 'और', 'शिक्षक', 'चाहिए'][Math.floor(rnd() * 16)],
    ).join(' ') + '।',
  arabic: (rnd) =>
    Array.from(
      { length: 20 },
      () => ['مرحبا', 'سنتحدث', 'اليوم', 'عن', 'التعليم', 'أطفالنا', 'يحتاجون', 'إلى', 'مدارس', 'ومعلمين', 'جيدين', 'في', 'المستقبل'][Math.floor(rnd() * 13)],
    ).join(' ') + '.',
};
function hourOf(language) {
  let seed = 7;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const segments = Array.from({ length: 360 }, (_, i) => ({ speaker: `Speaker ${(i % 2) + 1}`, start: i * 10, end: i * 10 + 9.5, text: BASE[language](rnd) }));
  return { segments };
}
const pdfInfo = (pdf) => {
  writeFileSync(join(tmp, 'h.pdf'), pdf);
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [join(tmp, 'h.pdf')]).toString())[1]);
  const fonts = execFileSync('pdffonts', [join(tmp, 'h.pdf')])
    .toString()
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((l) => l.split(/\s+/)[0].replace(/^[A-Z]{6}\+/, ''));
  return { pages, fonts };
};
say('hour-long transcripts: cold (a fresh process) and warm');
const hours = [];
for (const language of Object.keys(BASE)) {
  const transcript = hourOf(language);
  const chars = transcript.segments.reduce((n, s) => n + [...s.text].length, 0);
  const distinct = new Set(transcript.segments.flatMap((s) => [...s.text])).size;
  // Cold: a new node process reads and parses the fonts, as a reader child does on its first render.
  const script = `import { renderResult } from '${new URL('../dist/domain/render/index.js', import.meta.url)}';
import { fontLibrary } from '${new URL('../dist/documents/fonts.js', import.meta.url)}';
const t = JSON.parse(process.argv[1]); const t0 = performance.now();
await renderResult('transcription', t, 'pdf', JSON.parse(process.argv[2]), fontLibrary());
console.log(performance.now() - t0);`;
  const cold = Number(
    spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(transcript), JSON.stringify(options(language))], { encoding: 'utf8' })
      .stdout,
  );
  const warm = await timed(() => renderNow(language, transcript), 3);
  const floor = await timed(() => renderFloor(language, transcript), 3);
  hours.push({
    language,
    chars,
    distinct,
    coldMs: cold,
    warmMs: warm.ms,
    bytes: warm.out.length,
    ...pdfInfo(warm.out),
    floorMs: floor.ms,
    floorBytes: floor.out.length,
  });
}

// 3. Install size.
say('install size');
const dpkgSize = (pkg) => Number(spawnSync('dpkg-query', ['-W', '-f', '${Installed-Size}', pkg], { encoding: 'utf8' }).stdout) / 1024;
const duMb = (path) => Number(spawnSync('du', ['-sk', path], { encoding: 'utf8' }).stdout.split('\t')[0]) / 1024;
const install = {
  debian: { 'fonts-noto-core': dpkgSize('fonts-noto-core'), 'fonts-noto-cjk': dpkgSize('fonts-noto-cjk') },
  read: {
    'NotoSansCJK-Regular.ttc + Bold':
      duMb('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc') + duMb('/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc'),
  },
  npm: {},
};
if (opts.npm) {
  for (const pkg of [
    '@expo-google-fonts/noto-sans-sc',
    '@expo-google-fonts/noto-sans-jp',
    '@expo-google-fonts/noto-sans-devanagari',
    '@fontsource/noto-sans-sc',
    'noto-sans-cjk-sc',
  ]) {
    const out = spawnSync('npm', ['pack', pkg, '--dry-run', '--json'], { encoding: 'utf8', cwd: tmp });
    try {
      install.npm[pkg] = JSON.parse(out.stdout)[0].unpackedSize / 1024 ** 2;
    } catch {
      install.npm[pkg] = NaN;
    }
  }
}
rmSync(tmp, { recursive: true, force: true });

if (opts.json) {
  console.log(JSON.stringify({ scripts, hours, install }, null, 2));
} else {
  const pct = (x) => (x === undefined ? '–' : `${(x * 100).toFixed(1)} %`);
  const ms = (x) => `${x.toFixed(0)} ms`;
  console.log('| language | OCR CER, floor (DejaVu) | OCR CER, now (Noto) | render, floor | render, now |\n|---|---|---|---|---|');
  for (const s of scripts) console.log(`| ${s.language} | ${pct(s.floorCer)} | ${pct(s.nowCer)} | ${ms(s.floorMs)} | ${ms(s.nowMs)} |`);
  console.log(
    '\n| an hour of | characters (distinct) | pages | render, fresh process | render, warm | size | fonts embedded | floor: render, size |\n|---|---|---|---|---|---|---|---|',
  );
  for (const h of hours) {
    console.log(
      `| ${h.language} | ${h.chars.toLocaleString('en')} (${h.distinct.toLocaleString('en')}) | ${h.pages} | ${ms(h.coldMs)} | ${ms(h.warmMs)} | ${(h.bytes / 1024).toFixed(0)} KB | ${h.fonts.join(', ')} | ${ms(h.floorMs)}, ${(h.floorBytes / 1024).toFixed(0)} KB |`,
    );
  }
  console.log('\n| install | MB |\n|---|---|');
  for (const [k, v] of Object.entries(install.debian)) console.log(`| Debian ${k} (Installed-Size) | ${v.toFixed(1)} |`);
  for (const [k, v] of Object.entries(install.read)) console.log(`| of which PDFs read: ${k} | ${v.toFixed(1)} |`);
  for (const [k, v] of Object.entries(install.npm)) console.log(`| npm ${k} (unpacked) | ${v.toFixed(1)} |`);
}
