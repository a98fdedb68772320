// The optional legs of the test run: parts of the world a newcomer's machine may lack, what each
// is called in a suite's title, and how to run it. No vitest import: the summary reporter (in
// vitest's main process) reads it too. The suites' side is test/helpers/legs.ts.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

export type Leg = 'postgres' | 'workerProcess' | 'chromium' | 'libreoffice' | 'localEngine' | 'apertium' | 'ffmpeg' | 'scripts' | 'gitHistory';

/** The last commit before the workbench: its workflow code is "the old code" of the upgrade test. */
export const BEFORE_WORKBENCH = 'df2236f';
/** The last commit before second reviews (`additional_review`): the old code of their upgrade test. */
export const BEFORE_SECOND_REVIEW = '5aa26a9';
/** The last commit before the order's workflow held its tasks (each in a child workflow then). */
export const BEFORE_TASKS_HELD_BY_ORDER = 'e1a6668';
/** The last commit before the patch baseline (a marker for each patch an order reached then). */
export const BEFORE_PATCH_BASELINE = '7f122ef';

/** The old code of every upgrade test. */
const OLD_CODE = [BEFORE_WORKBENCH, BEFORE_SECOND_REVIEW, BEFORE_TASKS_HELD_BY_ORDER, BEFORE_PATCH_BASELINE];

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
    present: () => existsSync('/usr/bin/chromium') || Boolean(process.env.CI),
    missing: '/usr/bin/chromium is missing',
    howToRun: 'apt-get install -y chromium, then npm test',
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
  // The fonts PDFs are drawn with (the product's), and the readers that check them (the tests').
  scripts: {
    label: 'the Noto fonts, poppler and tesseract',
    // In CI missing fonts or readers are a failure, never a skip.
    present: () => {
      if (process.env.CI) return true;
      const fonts = ['/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf', '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'];
      const ocr = (spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' }).stdout ?? '').split('\n');
      return fonts.every((f) => existsSync(f)) && spawnSync('pdftotext', ['-v']).status === 0 && OCR_LANGUAGES.every((l) => ocr.includes(l));
    },
    missing: 'fonts-noto-core, fonts-noto-cjk, poppler-utils or tesseract with its language data are not installed',
    howToRun: `apt-get install -y --no-install-recommends fonts-noto-core fonts-noto-cjk poppler-utils tesseract-ocr ${OCR_LANGUAGES.map((l) => `tesseract-ocr-${l.replace('_', '-')}`).join(' ')}, then npm test`,
  },
  gitHistory: {
    label: 'the git history',
    present: () => OLD_CODE.every((commit) => spawnSync('git', ['cat-file', '-e', `${commit}^{commit}`]).status === 0),
    missing: `commits ${OLD_CODE.join(', ')} are not in this clone (a shallow checkout)`,
    howToRun: 'git fetch --unshallow, then npm test',
  },
};

const presence = new Map<Leg, boolean>();
/** Whether this machine has the leg (asked once per process). */
export function hasLeg(leg: Leg): boolean {
  if (!presence.has(leg)) presence.set(leg, LEGS[leg].present());
  return presence.get(leg)!;
}

export const legMarker = (leg: Leg): string => `[needs ${LEGS[leg].label}]`;
