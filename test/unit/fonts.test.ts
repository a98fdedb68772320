// The PDF fonts (src/documents/fonts.ts): which CJK face a language gets, what a machine without
// Noto draws with (DejaVu Sans from npm) and reports missing, where the fonts are looked for
// (FONT_DIRS, then the ones npm install brought), and what the packaged ones draw.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cjkFace, createFontLibrary, DEFAULT_FONT_DIRS, fontDirs, missingFontFamilies, packagedFontDir } from '../../src/documents/fonts.js';
import { FontChooser } from '../../src/domain/render/fonts.js';

describe('PDF fonts', () => {
  const empty = mkdtempSync(join(tmpdir(), 'no-fonts-'));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it('Han glyph forms follow the language', () => {
    expect(cjkFace('ja')).toBe('jp');
    expect(cjkFace('ko')).toBe('kr');
    expect(cjkFace('zh-Hant')).toBe('tc');
    expect(cjkFace('yue')).toBe('hk');
    expect(cjkFace('zh-Hans')).toBe('sc');
    expect(cjkFace('zh')).toBe('sc');
    expect(cjkFace('')).toBe('sc');
  });

  it('without Noto, every family is reported missing and DejaVu Sans draws what it covers', () => {
    expect(missingFontFamilies([empty])).toEqual(expect.arrayContaining(['NotoSans', 'NotoSansDevanagari', 'NotoSansThai', 'CJK']));
    const chooser = new FontChooser(createFontLibrary([empty]).stack('hi', 'regular'));
    expect(chooser.fontFor('a')?.name).toBe('DejaVuSans.ttf');
    expect(chooser.fontFor('ש')?.name).toBe('DejaVuSans.ttf');
    // Devanagari: no font has it here (the PDF draws U+FFFD and counts it).
    expect(chooser.fontFor('न')).toBeUndefined();
  });

  it('FONT_DIRS adds directories before the packaged fonts; it never takes them away', () => {
    expect(fontDirs({ ENGINES_DIR: '/srv/engines' })).toEqual([...DEFAULT_FONT_DIRS, '/srv/engines/fonts']);
    expect(fontDirs({ FONT_DIRS: '/a:/b', ENGINES_DIR: '/srv/engines' })).toEqual(['/a', '/b', '/srv/engines/fonts']);
    expect(fontDirs({ FONT_DIRS: '', ENGINES_DIR: '/srv/engines' })).toEqual(['/srv/engines/fonts']);
    expect(fontDirs({ FONT_DIRS: '/a', ENGINES_DIR: '/srv/engines' }).at(-1)).toBe(packagedFontDir({ ENGINES_DIR: '/srv/engines' }));
  });

  describe('the fonts npm install brought', () => {
    const packaged = packagedFontDir();

    it('have every family of the list: nothing is missing with FONT_DIRS empty', () => {
      expect(missingFontFamilies([empty, packaged])).toEqual([]);
    });

    it('draw each script in its own font, bold where the family has it', () => {
      const regular = new FontChooser(createFontLibrary([empty, packaged]).stack('th', 'regular'));
      const bold = new FontChooser(createFontLibrary([empty, packaged]).stack('th', 'bold'));
      expect(regular.fontFor('ก')?.name).toBe('NotoSansThai-Regular.ttf');
      expect(bold.fontFor('ก')?.name).toBe('NotoSansThai-Bold.ttf');
      expect(regular.fontFor('ሰ')?.name).toBe('NotoSansEthiopic-Regular.ttf');
      expect(regular.fontFor('ស')?.name).toBe('NotoSansKhmer-Regular.ttf');
      expect(regular.fontFor('Ж')?.name).toBe('NotoSans-Regular.ttf');
      // Noto Sans Math has one weight: bold text takes it.
      expect(bold.fontFor('𝔄')?.name).toBe('NotoSansMath-Regular.ttf');
    });

    it("CJK: the language's regional font first, the others for the characters it lacks", () => {
      const fontOf = (language: string, text: string) => new FontChooser(createFontLibrary([empty, packaged]).stack(language, 'regular')).fontFor(text)?.name;
      expect(fontOf('ja', '直')).toBe('NotoSansJP-Regular.otf');
      expect(fontOf('zh-Hans', '直')).toBe('NotoSansSC-Regular.otf');
      expect(fontOf('zh-Hant', '直')).toBe('NotoSansTC-Regular.otf');
      expect(fontOf('yue', '直')).toBe('NotoSansTC-Regular.otf');
      expect(fontOf('ko', '한')).toBe('NotoSansKR-Regular.otf');
      // Hangul in a Japanese text; a Han character of Extension B the Simplified font lacks.
      expect(fontOf('ja', '한')).toBe('NotoSansKR-Regular.otf');
      expect(fontOf('zh-Hans', '\u{2004E}')).toBe('NotoSansTC-Regular.otf');
    });

    it('a font of FONT_DIRS of the same name comes first', () => {
      const own = mkdtempSync(join(tmpdir(), 'own-fonts-'));
      try {
        // DejaVu Sans under Noto Sans's name: the file in FONT_DIRS is the one read.
        copyFileSync(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), join(own, 'NotoSans-Regular.ttf'));
        const chooser = new FontChooser(createFontLibrary([own, packaged]).stack('en', 'regular'));
        expect(chooser.fontFor('a')?.face.postscriptName).toBe('DejaVuSans');
        expect(chooser.fontFor('ก')?.name).toBe('NotoSansThai-Regular.ttf');
      } finally {
        rmSync(own, { recursive: true, force: true });
      }
    });

    it("marks with no anchor on their base are laid out, not thrown on (Google Fonts' Malayalam, Khmer, Gurmukhi)", () => {
      const chooser = new FontChooser(createFontLibrary([empty, packaged]).stack('ml', 'regular'));
      for (const text of ['പുസ്തകം', 'ថ្ងៃនេះយើងនឹងនិយាយ', 'ਸ੍ਰੀ ਅਕਾਲ']) {
        const font = chooser.fontFor(text[0]!)!;
        expect(font.face.layout(text).glyphs.length, text).toBeGreaterThan(2);
      }
    });
  });
});
