// The optional legs of the test run: parts of the world a newcomer's machine may lack, what each
// is called in a suite's title, and how to run it. No vitest import: the summary reporter (in
// vitest's main process) reads it too. The suites' side is test/helpers/legs.ts.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

/**
 * The Chromium the browser tests drive: Debian's headless shell (package chromium-headless-shell,
 * the same Blink as the browser, without its window's own WebUI pages, which took half the CPU of
 * a browser suite), else Debian's full chromium.
 */
export const CHROMIUM_PATH = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path));

export type Leg = 'postgres' | 'workerProcess' | 'chromium' | 'libreoffice' | 'localEngine' | 'apertium' | 'ffmpeg' | 'scripts';

export interface LegInfo {
  /** What the title marker says: `[needs <label>]`. */
  label: string;
  present: () => boolean;
  /** Why it is absent, and the command that runs it. */
  missing: string;
  howToRun: string;
  /** Legs that declaring this one declares too. */
  implies?: Leg[];
}

const ENGINES_DIR = process.env.ENGINES_DIR ?? '.engines';
/** tesseract's language data the PDF tests read pages with (Debian's tesseract-ocr-<code> packages). */
export const OCR_LANGUAGES = ['hin', 'ben', 'tam', 'tha', 'khm', 'chi_sim', 'jpn', 'kor', 'ara', 'heb', 'urd', 'ell', 'rus'];
const commandRuns = (command: string) => spawnSync(command, ['--version']).status === 0;
const hasPostgres = () => Boolean(process.env.DATABASE_URL);

export const LEGS: Record<Leg, LegInfo> = {
  postgres: {
    label: 'PostgreSQL',
    present: hasPostgres,
    missing: 'DATABASE_URL is not set',
    howToRun: 'DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npm test',
  },
  // PGlite lives inside one process: a worker in a process of its own shares the API's PostgreSQL.
  workerProcess: {
    label: 'a worker process (PostgreSQL)',
    implies: ['postgres'],
    present: hasPostgres,
    missing: 'DATABASE_URL is not set',
    howToRun: 'DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npm test',
  },
  chromium: {
    label: 'Chromium',
    // In CI a missing Chromium is a failure (`launchBrowser` throws), never a skip.
    present: () => CHROMIUM_PATH !== undefined || Boolean(process.env.CI),
    missing: 'neither /usr/bin/chromium-headless-shell nor /usr/bin/chromium is installed',
    howToRun: 'apt-get install -y chromium-headless-shell, then npm test',
  },
  libreoffice: {
    label: 'LibreOffice',
    present: () => commandRuns('soffice'),
    missing: 'soffice is not installed',
    howToRun: 'apt-get install -y --no-install-recommends libreoffice-writer-nogui, then npm test',
  },
  localEngine: {
    label: 'the local speech engine',
    present: () => existsSync(`${ENGINES_DIR}/manifest.json`) && commandRuns('espeak-ng'),
    missing: `${ENGINES_DIR}/manifest.json (npm install without ENGINES=none) or espeak-ng is missing`,
    howToRun: 'apt-get install -y espeak-ng; npm install (without ENGINES=none), then npm test',
  },
  apertium: {
    label: 'Apertium',
    // Both directions of English–Spanish; in CI a missing pair is a failure, never a skip.
    present: () => {
      const listing = spawnSync('apertium', ['-l'], { encoding: 'utf8' });
      return Boolean(process.env.CI) || (listing.status === 0 && /^\s*eng-spa\s*$/m.test(listing.stdout) && /^\s*spa-eng\s*$/m.test(listing.stdout));
    },
    missing: 'apertium with the English–Spanish pair is not installed',
    howToRun: 'apt-get install -y --no-install-recommends apertium apertium-eng-spa, then npm test',
  },
  ffmpeg: {
    label: 'ffmpeg',
    // It makes the media of every container the tests measure; in CI a missing ffmpeg is a failure, never a skip.
    present: () => Boolean(process.env.CI) || spawnSync('ffmpeg', ['-version']).status === 0,
    missing: 'ffmpeg is not installed',
    howToRun: 'apt-get install -y --no-install-recommends ffmpeg, then npm test',
  },
  // The readers that check the PDFs (the tests'); the fonts they are drawn with come with npm install.
  scripts: {
    label: 'poppler and tesseract',
    // In CI missing readers are a failure, never a skip.
    present: () => {
      if (process.env.CI) return true;
      const ocr = (spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' }).stdout ?? '').split('\n');
      return spawnSync('pdftotext', ['-v']).status === 0 && OCR_LANGUAGES.every((l) => ocr.includes(l));
    },
    missing: 'poppler-utils or tesseract with its language data are not installed',
    howToRun: `apt-get install -y --no-install-recommends poppler-utils tesseract-ocr ${OCR_LANGUAGES.map((l) => `tesseract-ocr-${l.replace('_', '-')}`).join(' ')}, then npm test`,
  },
};

const presence = new Map<Leg, boolean>();
/** Whether this machine has the leg (asked once per process). */
export function hasLeg(leg: Leg): boolean {
  if (!presence.has(leg)) presence.set(leg, LEGS[leg].present());
  return presence.get(leg)!;
}

export const legMarker = (leg: Leg): string => `[needs ${LEGS[leg].label}]`;
