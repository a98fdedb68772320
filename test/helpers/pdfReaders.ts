// Independent readers of the PDFs the service writes: poppler's pdftotext (the text a reader
// copies, by line), pdffonts (what is embedded), pdftoppm and tesseract (what a person sees), and
// the glyph ids the content streams draw (glyph 0 is .notdef: an empty box).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inflateSync } from 'node:zlib';

const run = promisify(execFile);

async function withFile<T>(pdf: Uint8Array, use: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'pdf-'));
  try {
    await writeFile(join(dir, 'file.pdf'), pdf);
    return await use(join(dir, 'file.pdf'), dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Bidi controls poppler adds around right-to-left runs. */
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The text pdftotext reads, one string per line (empty lines dropped), without bidi controls. */
export async function pdfLines(pdf: Uint8Array): Promise<string[]> {
  const { stdout } = await withFile(pdf, (file) => run('pdftotext', ['-enc', 'UTF-8', file, '-']));
  return stdout
    .replace(BIDI_CONTROLS, '')
    .split(/\n|\f/)
    .map((l) => l.trim())
    .filter(Boolean);
}

/** Each text line's horizontal extent on page 1 in points (pdftotext -bbox-layout). */
export async function pdfLineBoxes(pdf: Uint8Array): Promise<Array<{ xMin: number; xMax: number }>> {
  const { stdout } = await withFile(pdf, (file) => run('pdftotext', ['-bbox-layout', '-f', '1', '-l', '1', file, '-']));
  return [...stdout.matchAll(/<line xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)"/g)].map((m) => ({ xMin: Number(m[1]), xMax: Number(m[2]) }));
}

/** The fonts pdffonts lists, and whether each is embedded. */
export async function pdfFonts(pdf: Uint8Array): Promise<Array<{ name: string; embedded: boolean }>> {
  const { stdout } = await withFile(pdf, (file) => run('pdffonts', [file]));
  return stdout
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((line) => {
      const cells = line.trim().split(/\s+/);
      return { name: cells[0]!, embedded: cells.at(-5) === 'yes' };
    });
}

/** Every glyph id the content streams draw (pdfkit writes text as hex glyph ids of its embedded fonts). */
export function drawnGlyphIds(pdf: Uint8Array): number[] {
  const bytes = Buffer.from(pdf);
  const ids: number[] = [];
  for (let at = bytes.indexOf('stream'); at >= 0; at = bytes.indexOf('stream', at + 6)) {
    if (bytes.subarray(at - 3, at).toString('latin1') === 'end') continue;
    const start = at + (bytes[at + 6] === 0x0d ? 8 : 7);
    const end = bytes.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(bytes.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const shown of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      for (const hex of shown[1]!.matchAll(/<([0-9a-fA-F]+)>/g)) {
        for (let i = 0; i < hex[1]!.length; i += 4) ids.push(parseInt(hex[1]!.slice(i, i + 4), 16));
      }
    }
    at = end;
  }
  return ids;
}

/** Page `page` drawn at `dpi` and read by tesseract with `language` data as one block of text (--psm 6). */
export async function ocrPdfPage(pdf: Uint8Array, language: string, page = 1, dpi = 300): Promise<string> {
  return withFile(pdf, async (file, dir) => {
    await run('pdftoppm', ['-r', String(dpi), '-gray', '-png', '-singlefile', '-f', String(page), '-l', String(page), file, join(dir, 'page')]);
    const { stdout } = await run('tesseract', [join(dir, 'page.png'), '-', '-l', language, '--psm', '6'], { maxBuffer: 16 * 1024 ** 2 });
    return stdout;
  });
}
