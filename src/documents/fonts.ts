// The fonts PDFs are drawn with: Debian's Noto (fonts-noto-core, fonts-noto-cjk; README), found in
// FONT_DIRS, then DejaVu Sans from npm, which is always there. Files are read and parsed on first
// use and kept for the process (a reader child, or the API for the sample files). Which font
// comes first for a character is this list's order; the renderer falls back font by font
// (src/domain/render/fonts.ts). docs/decisions.md says why these fonts and what they cost.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';
import type { FontLibrary, FontStack, PdfFont } from '../domain/render/fonts.js';

export const DEFAULT_FONT_DIRS = ['/usr/share/fonts/truetype/noto', '/usr/share/fonts/opentype/noto'];

/**
 * Noto families in the order they are tried, one per script of the language sets (Latin, Greek
 * and Cyrillic are Noto Sans). `CJK` stands for the one face of the CJK collection that suits
 * the text's language. Any other Noto font in the directories is tried after these, then DejaVu.
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

/** The families of the list that `dirs` lacks: scripts whose text a PDF draws as U+FFFD (for the start banner). */
export function missingFontFamilies(dirs: readonly string[] = fontDirs()): string[] {
  const files = fontFiles(dirs);
  return FAMILIES.filter(
    (family) => ![`${family}-Regular.ttf`, `${family}-Regular.otf`, family === 'CJK' ? 'NotoSansCJK-Regular.ttc' : ''].some((f) => files.has(f)),
  );
}

/** The fonts in `dirs` with DejaVu last, opened as they are needed. */
export function createFontLibrary(dirs: readonly string[] = DEFAULT_FONT_DIRS): FontLibrary {
  const files = fontFiles(dirs);
  const fileOf = (family: string, weight: 'Regular' | 'Bold') => files.get(`${family}-${weight}.ttf`) ?? files.get(`${family}-${weight}.otf`);
  /** Noto fonts not in FAMILIES: other scripts (Cherokee, Yi, Vai…), sans before serif. */
  const others = [...files.keys()]
    .filter((name) => /^Noto(Sans|Serif)[A-Za-z0-9]*-Regular\.(ttf|otf)$/.test(name) && !FAMILIES.some((f) => name.startsWith(`${f}-`)))
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
            const file = files.get(`NotoSansCJK-${Weight}.ttc`) ?? files.get('NotoSansCJK-Regular.ttc');
            if (file) list.push({ file, postscriptName: `NotoSansCJK${face}-${file.endsWith('Bold.ttc') ? 'Bold' : 'Regular'}` });
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

/** FONT_DIRS (colon-separated), else DEFAULT_FONT_DIRS. */
const fontDirs = () => (process.env.FONT_DIRS ? process.env.FONT_DIRS.split(':').filter(Boolean) : DEFAULT_FONT_DIRS);

let shared: FontLibrary | undefined;

/** The process's library, over fontDirs(). */
export function fontLibrary(): FontLibrary {
  shared ??= createFontLibrary(fontDirs());
  return shared;
}
