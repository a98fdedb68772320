// The fonts PDFs are drawn with: the Noto fonts in FONT_DIRS (Debian's directories by default, read
// where fonts-noto-core and fonts-noto-cjk are installed), then the Noto fonts npm install put in
// .engines/fonts (scripts/install-fonts.mjs: one per script of the language sets, CJK as four
// regional fonts), then DejaVu Sans from npm. Files are read and parsed on first use and kept for
// the process (a reader child, or the API for the sample files). Which font comes first for a
// character is this list's order; the renderer falls back font by font (src/domain/render/fonts.ts).
// docs/decisions/packaged-fonts.md says why these fonts and what they cost.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';
import type { FontLibrary, FontStack, PdfFont } from '../domain/render/fonts.js';
import { installDir } from '../runtime/installDir.js';

export const DEFAULT_FONT_DIRS = ['/usr/share/fonts/truetype/noto', '/usr/share/fonts/opentype/noto'];

/** The Noto fonts npm install brought. */
export const packagedFontDir = (env: NodeJS.ProcessEnv = process.env): string => path.join(installDir(env), 'fonts');

/** FONT_DIRS (colon-separated; unset: DEFAULT_FONT_DIRS), then the packaged fonts, which FONT_DIRS never takes away. */
export const fontDirs = (env: NodeJS.ProcessEnv = process.env): string[] => [
  ...(env.FONT_DIRS !== undefined ? env.FONT_DIRS.split(':').filter(Boolean) : DEFAULT_FONT_DIRS),
  packagedFontDir(env),
];

/**
 * Noto families in the order they are tried, one per script of the language sets (Latin, Greek
 * and Cyrillic are Noto Sans). `CJK` stands for the CJK fonts in the order that suits the text's
 * language (cjkFonts). Any other Noto font in the directories is tried after these, then DejaVu.
 */
const FAMILIES = [
  'NotoSans',
  'NotoSansArmenian',
  'NotoSansGeorgian',
  'NotoSansHebrew',
  'NotoNaskhArabic',
  'NotoSansDevanagari',
  'NotoSansBengali',
  'NotoSansGurmukhi',
  'NotoSansGujarati',
  'NotoSansOriya',
  'NotoSansTamil',
  'NotoSansTelugu',
  'NotoSansKannada',
  'NotoSansMalayalam',
  'NotoSansSinhala',
  'NotoSansThai',
  'NotoSansLao',
  'NotoSansKhmer',
  'NotoSansMyanmar',
  'NotoSerifTibetan',
  'NotoSansEthiopic',
  'NotoSansOlChiki',
  'NotoSansTifinagh',
  'NotoSansMongolian',
  'NotoSansThaana',
  'CJK',
  'NotoSansSymbols',
  'NotoSansSymbols2',
  'NotoSansMath',
];

/** The face of Noto Sans CJK whose glyph forms a language expects. */
export function cjkFace(language: string): 'jp' | 'kr' | 'sc' | 'tc' | 'hk' {
  const tag = language.toLowerCase();
  if (/^ja\b/.test(tag)) return 'jp';
  if (/^ko\b/.test(tag)) return 'kr';
  if (/^yue\b|^zh-(hk|mo)\b/.test(tag)) return 'hk';
  if (/^zh-(hant|tw)\b/.test(tag)) return 'tc';
  return 'sc';
}

type CjkFace = ReturnType<typeof cjkFace>;
/** The regional fonts of Noto Sans CJK (npm install's), by face; Hong Kong's forms take Traditional's. */
const CJK_REGIONS = { sc: 'NotoSansSC', tc: 'NotoSansTC', jp: 'NotoSansJP', kr: 'NotoSansKR' } as const;
type CjkRegion = keyof typeof CJK_REGIONS;
/**
 * The regional fonts in the order a face tries them: its own, then the others, each of which has
 * characters the others lack (a name's rare Han character, Hangul in a Japanese text).
 */
const regionsFor = (face: CjkFace): CjkRegion[] => {
  const own: CjkRegion = face === 'hk' ? 'tc' : face;
  return [own, ...(Object.keys(CJK_REGIONS) as CjkRegion[]).filter((region) => region !== own)];
};

const require = createRequire(import.meta.url);
const DEJAVU = { regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf') };

interface FontFile {
  file: string;
  postscriptName?: string;
}

/** Font files by name in `dirs` (the first directory that has a name wins; missing directories are skipped). */
function fontFiles(dirs: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) if (/\.(ttf|otf|ttc)$/i.test(name) && !files.has(name)) files.set(name, path.join(dir, name));
  }
  return files;
}

const hasFamily = (files: Map<string, string>, family: string) => files.has(`${family}-Regular.ttf`) || files.has(`${family}-Regular.otf`);

/** The families of the list that `dirs` lacks: scripts whose text a PDF draws as U+FFFD (for the start banner). */
export function missingFontFamilies(dirs: readonly string[] = fontDirs()): string[] {
  const files = fontFiles(dirs);
  return FAMILIES.filter((family) =>
    family === 'CJK'
      ? !files.has('NotoSansCJK-Regular.ttc') && !Object.values(CJK_REGIONS).every((region) => hasFamily(files, region))
      : !hasFamily(files, family),
  );
}

/** The fonts in `dirs` with DejaVu last, opened as they are needed. */
export function createFontLibrary(dirs: readonly string[] = fontDirs()): FontLibrary {
  const files = fontFiles(dirs);
  const fileOf = (family: string, weight: 'Regular' | 'Bold') => files.get(`${family}-${weight}.ttf`) ?? files.get(`${family}-${weight}.otf`);
  /** The CJK fonts for a face: the collection's face where installed (it has every character), then the regional fonts. */
  const cjkFonts = (face: CjkFace, weight: 'Regular' | 'Bold'): FontFile[] => {
    const list: FontFile[] = [];
    const collection = files.get(`NotoSansCJK-${weight}.ttc`) ?? files.get('NotoSansCJK-Regular.ttc');
    if (collection) list.push({ file: collection, postscriptName: `NotoSansCJK${face}-${collection.endsWith('Bold.ttc') ? 'Bold' : 'Regular'}` });
    for (const region of regionsFor(face)) {
      const file = fileOf(CJK_REGIONS[region], weight) ?? fileOf(CJK_REGIONS[region], 'Regular');
      if (file) list.push({ file });
    }
    return list;
  };
  /** Noto fonts not in FAMILIES (nor CJK's): other scripts (Cherokee, Yi, Vai…), sans before serif. */
  const listed = [...FAMILIES, ...Object.values(CJK_REGIONS)];
  const others = [...files.keys()]
    .filter((name) => /^Noto(Sans|Serif)[A-Za-z0-9]*-Regular\.(ttf|otf)$/.test(name) && !listed.some((f) => name.startsWith(`${f}-`)))
    .filter((name) => !/(Display|Mono|UI|Looped|Unjoined)/.test(name))
    .sort((a, b) => Number(a.startsWith('NotoSerif')) - Number(b.startsWith('NotoSerif')) || a.localeCompare(b))
    .map((name) => files.get(name)!);

  const opened = new Map<string, PdfFont>();
  const open = ({ file, postscriptName }: FontFile): PdfFont => {
    const name = postscriptName ? `${path.basename(file)}#${postscriptName}` : path.basename(file);
    let font = opened.get(name);
    if (!font) {
      const data = readFileSync(file);
      const face = fontkit.create(data, postscriptName) as fontkit.Font;
      if (!nullAnchorsSkipped()) {
        skipNullAnchors(face);
        skipNullAnchors(fontkitOfPdfkit.create(data, postscriptName) as fontkit.Font);
      }
      font = { name, face, data, ...(postscriptName ? { postscriptName } : {}) };
      opened.set(name, font);
    }
    return font;
  };
  const stacks = new Map<string, FontStack>();

  return {
    stack(language, weight) {
      const face = cjkFace(language);
      const key = `${face} ${weight}`;
      let stack = stacks.get(key);
      if (!stack) {
        const Weight = weight === 'bold' ? 'Bold' : 'Regular';
        const list: FontFile[] = [];
        for (const family of FAMILIES) {
          if (family === 'CJK') {
            list.push(...cjkFonts(face, Weight));
            continue;
          }
          const file = fileOf(family, Weight) ?? fileOf(family, 'Regular');
          if (file) list.push({ file });
        }
        list.push(...others.map((file) => ({ file })), { file: DEJAVU[weight] });
        stack = { at: (index) => (list[index] ? open(list[index]) : undefined) };
        stacks.set(key, stack);
      }
      return stack;
    },
  };
}

/** pdfkit's own copy of fontkit (CommonJS), which lays each run out again as it draws it. */
const fontkitOfPdfkit = createRequire(require.resolve('pdfkit'))('fontkit') as typeof fontkit;

interface AnchorPositioning {
  applyAnchor(markRecord: { markAnchor?: unknown }, baseAnchor: unknown, baseGlyphIndex: number): void;
}
/** The GPOS processors' prototypes patched (one per copy of fontkit). */
const patched = new Set<AnchorPositioning>();
const nullAnchorsSkipped = () => patched.size === 2;

/**
 * fontkit 2.0.4 throws on a null anchor in a mark attachment ("no anchor for this mark class", legal
 * OpenType, which Google Fonts' builds of Noto Sans Khmer, Gurmukhi and Malayalam have: every word
 * with a vowel sign failed the PDF). HarfBuzz leaves such a mark unattached; so does this, in the
 * copy of fontkit `face` comes from, as the fix proposed upstream does (foliojs/fontkit#367, #374).
 * A fontkit without these internals is left as it is.
 */
function skipNullAnchors(face: fontkit.Font): void {
  face.layout(' '); // builds the face's layout engine, with its GPOS processor where the font has GPOS
  const gpos = (face as unknown as { _layoutEngine?: { engine?: { GPOSProcessor?: AnchorPositioning } } })._layoutEngine?.engine?.GPOSProcessor;
  if (!gpos) return;
  const prototype = Object.getPrototypeOf(gpos) as AnchorPositioning;
  const applyAnchor = prototype.applyAnchor;
  if (patched.has(prototype) || typeof applyAnchor !== 'function') return;
  prototype.applyAnchor = function (this: AnchorPositioning, markRecord, baseAnchor, baseGlyphIndex) {
    if (baseAnchor && markRecord.markAnchor) applyAnchor.call(this, markRecord, baseAnchor, baseGlyphIndex);
  };
  patched.add(prototype);
}

let installed: string | undefined;

/**
 * Which of the families this process found (read once): part of a PDF download's ETag, so that
 * installing the fonts changes what a client holding a PDF drawn without them is answered.
 */
export function installedFontFamilies(): string {
  if (installed === undefined) {
    const missing = new Set(missingFontFamilies());
    installed = FAMILIES.filter((family) => !missing.has(family)).join(',');
  }
  return installed;
}

let shared: FontLibrary | undefined;

/** The process's library, over fontDirs(). */
export function fontLibrary(): FontLibrary {
  shared ??= createFontLibrary(fontDirs());
  return shared;
}
