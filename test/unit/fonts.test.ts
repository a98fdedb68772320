// The PDF fonts (src/documents/fonts.ts): which CJK face a language gets, and what a machine
// without Debian's Noto draws with (DejaVu Sans from npm) and reports missing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cjkFace, createFontLibrary, missingFontFamilies } from '../../src/documents/fonts.js';
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
});
