// The hostile file generator makes what it claims: small on disk, and what a reader would find.
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { getDocumentProxy } from 'unpdf';
import {
  docxZipBomb,
  HOSTILE_DOCUMENTS,
  HOSTILE_MEDIA,
  honestTextPdf,
  honestTextPdfWords,
  pdfWithHugePageTree,
  rtfDeeplyNested,
} from '../helpers/hostileFiles.js';

/** The entries of a ZIP from its central directory, with each one's data inflated under `cap`. */
function entriesOf(zip: Buffer, cap: number) {
  const entries: Array<{ name: string; declared: number; inflated: number }> = [];
  for (let at = zip.indexOf(Buffer.from('PK\x01\x02', 'latin1')); at !== -1; at = zip.indexOf(Buffer.from('PK\x01\x02', 'latin1'), at + 4)) {
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + zip.readUInt32LE(at + 20));
    entries.push({
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      declared: zip.readUInt32LE(at + 24),
      inflated: inflateRawSync(data, { maxOutputLength: cap }).length,
    });
  }
  return entries;
}

describe('hostile files', () => {
  it.each([...HOSTILE_DOCUMENTS, ...HOSTILE_MEDIA].map((f) => [f.name, f] as const))('%s is small on disk', (_name, file) => {
    expect(file.bytes().length).toBeLessThan(3 * 1024 ** 2);
  });

  it('a DOCX bomb inflates to what it declares, or past it when its sizes lie', () => {
    const honest = entriesOf(docxZipBomb({ inflatedBytes: 8 * 1024 ** 2 }), 64 * 1024 ** 2);
    expect(honest.map((e) => e.name)).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml', 'word/_rels/document.xml.rels']);
    for (const e of honest) expect(e.inflated).toBe(e.declared);
    expect(honest[2]!.inflated).toBeGreaterThan(8 * 1024 ** 2);
    const lying = entriesOf(docxZipBomb({ inflatedBytes: 8 * 1024 ** 2, lyingSizes: true }), 64 * 1024 ** 2);
    expect(lying[2]).toMatchObject({ declared: 10_000 });
    expect(lying[2]!.inflated).toBeGreaterThan(8 * 1024 ** 2);
  });

  it('the huge page tree lists one page object 400,000 times', () => {
    const pdf = pdfWithHugePageTree().toString('latin1');
    expect(pdf.match(/3 0 R /g)).toHaveLength(400_000);
    expect(pdf).toContain('/Count 400000');
    // The xref points at the objects.
    const offsets = [...pdf.matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    offsets.forEach((offset, n) => expect(pdf.startsWith(`${n + 1} 0 obj\n`, offset)).toBe(true));
    expect(offsets).toHaveLength(5);
  });

  it('the RTF nests as deep as asked', () => {
    const rtf = rtfDeeplyNested(1000).toString();
    expect(rtf.startsWith(`{\\rtf1 ${'{'.repeat(1000)}x`)).toBe(true);
  });

  it('the honest PDF reads back with its pages and words', async () => {
    const pdf = await getDocumentProxy(new Uint8Array(honestTextPdf(5, 30)));
    expect(pdf.numPages).toBe(5);
    const text = (await (await pdf.getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    expect(text.split(/\s+/).filter(Boolean)).toHaveLength(30);
    expect(honestTextPdfWords(5, 30)).toBe(150);
  });
});
