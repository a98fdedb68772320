// Installs a static ffmpeg into .engines/ffmpeg/ (ENGINES_DIR): the one the service runs where
// FFMPEG is unset and no ffmpeg is on PATH (chooseFfmpeg, src/engines/audioRendition.ts), so that a
// machine with nothing but npm install decodes every format the quote accepts.
// The binary is ffmpeg 7.0.2 as johnvansickle.com builds it (static, GPLv3), shipped inside the
// imageio-ffmpeg wheels on PyPI, one per processor. The wheel is only downloaded (binary only, never
// installed, none of its code runs), its one binary extracted with zipfile and checked against the
// sha256 pinned below before it is made executable. A processor or system without a build here is
// skipped, and the manifest says why (the start banner reads it). docs/decisions/packaged-ffmpeg.md says
// why this build. Idempotent: .engines/ffmpeg/manifest.json records what is installed.
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

const TAG = 'install-ffmpeg';
const WHEEL = { name: 'imageio-ffmpeg', version: '0.7.0' };
const FFMPEG_VERSION = '7.0.2';
/** The build for each `process.arch` (Linux only): the wheel's platform, the binary in it, its sha256 and size. */
const BUILDS = {
  x64: {
    platform: 'manylinux2014_x86_64',
    member: 'imageio_ffmpeg/binaries/ffmpeg-linux-x86_64-v7.0.2',
    sha256: 'e7e7fb30477f717e6f55f9180a70386c62677ef8a4d4d1a5d948f4098aa3eb99',
    bytes: 79826272,
  },
  arm64: {
    platform: 'manylinux2014_aarch64',
    member: 'imageio_ffmpeg/binaries/ffmpeg-linux-aarch64-v7.0.2',
    sha256: '6bb182d0d75d23028db82e9e4f723ca69b853d055698486e6984ddb2c06fb8ce',
    bytes: 51134160,
  },
};

const DIR = join(resolve(process.env.ENGINES_DIR ?? '.engines'), 'ffmpeg');
const BINARY = join(DIR, 'ffmpeg');
const MANIFEST = join(DIR, 'manifest.json');

const log = (message) => console.log(`${TAG}: ${message}`);
const writeManifest = (manifest) => {
  mkdirSync(DIR, { recursive: true });
  writeFileSync(MANIFEST, `${JSON.stringify({ ...manifest, installed_at: new Date().toISOString() }, null, 2)}\n`);
};
const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');

function run(cmd, args, what) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.error) throw new Error(`${what} failed: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status ?? r.signal}): ${(r.stderr || r.stdout || '').trim()}`);
  return r.stdout;
}

const build = process.platform === 'linux' ? BUILDS[process.arch] : undefined;
if (!build) {
  const skipped = `npm install brings no ffmpeg for ${process.platform}/${process.arch} (builds for Linux x64 and arm64 only)`;
  writeManifest({ skipped });
  log(`${skipped}: install one (apt-get install ffmpeg) or set FFMPEG to its path`);
  process.exit(0);
}

try {
  const current = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  if (current.sha256 === build.sha256 && existsSync(BINARY) && statSync(BINARY).size === build.bytes) {
    log(`up to date (ffmpeg ${current.ffmpeg}, ${process.arch}, sha256 ${build.sha256.slice(0, 12)}…, installed ${current.installed_at})`);
    process.exit(0);
  }
} catch {
  /* not installed yet */
}

// Extracts one member of the wheel, and nothing else.
const EXTRACT_PY = `
import sys, zipfile, shutil
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
`;

const started = Date.now();
const tmp = mkdtempSync(join(tmpdir(), 'install-ffmpeg-'));
let code = 0;
try {
  const python = ['python3', 'python'].find((p) => spawnSync(p, ['--version']).status === 0);
  if (!python) throw new Error('python3 with pip is needed to fetch ffmpeg from PyPI (or install one: apt-get install ffmpeg)');
  const spec = `${WHEEL.name}==${WHEEL.version}`;
  log(`downloading the ${spec} wheel for ${build.platform} (ffmpeg ${FFMPEG_VERSION}, the binary only)`);
  run(
    python,
    [
      ...['-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-cache-dir', '--no-deps', '--only-binary=:all:'],
      ...['--platform', build.platform, '--python-version', '3.11', '-d', tmp, spec],
    ],
    `pip download ${spec}`,
  );
  const wheel = readdirSync(tmp).find((f) => f.endsWith('.whl'));
  if (!wheel) throw new Error(`pip download left no wheel in ${tmp}`);
  const extracted = join(tmp, 'ffmpeg');
  run(python, ['-I', '-c', EXTRACT_PY, join(tmp, wheel), build.member, extracted], `extracting ${build.member} from ${wheel}`);
  const digest = sha256(extracted);
  if (digest !== build.sha256) throw new Error(`sha256 mismatch for ${build.member}: got ${digest}, expected ${build.sha256} — refusing to use it`);
  mkdirSync(DIR, { recursive: true });
  copyFileSync(extracted, `${BINARY}.partial`);
  chmodSync(`${BINARY}.partial`, 0o755);
  renameSync(`${BINARY}.partial`, BINARY);
  writeManifest({ package: spec, ffmpeg: FFMPEG_VERSION, arch: process.arch, sha256: build.sha256, bytes: build.bytes, license: 'GPL-3.0-or-later' });
  const runs = spawnSync(BINARY, ['-version'], { encoding: 'utf8' });
  log(
    `installed ffmpeg ${FFMPEG_VERSION} (${process.arch}, ${(build.bytes / 1e6).toFixed(1)} MB, sha256 ${build.sha256.slice(0, 12)}…) into ${DIR} ` +
      `in ${((Date.now() - started) / 1000).toFixed(0)} s${runs.status === 0 ? '' : `; it does not run here (${runs.error?.message ?? `exit ${runs.status}`})`}`,
  );
} catch (err) {
  console.error(`${TAG}: ${err.message}`);
  code = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);
