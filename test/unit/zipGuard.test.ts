// The ZIP container check before a DOCX is inflated: honest documents pass; entry counts, declared
// and actual inflated sizes, and XML nesting over the limits are refused, each with its reason.
import { describe, expect, it } from 'vitest';
import { checkZipContainer, xmlDepth } from '../../src/documents/zipGuard.js';
import { DEFAULT_DOCUMENT_LIMITS, DocumentRefusedError } from '../../src/documents/limits.js';
import { TranscriptImportError } from '../../src/domain/transcript.js';
import { docxOf } from '../helpers/documents.js';

const limits = DEFAULT_DOCUMENT_LIMITS;

function refusalOf(work: () => void): DocumentRefusedError {
  try {
    work();
  } catch (err) {
    expect(err).toBeInstanceOf(DocumentRefusedError);
    return err as DocumentRefusedError;
  }
  throw new Error('expected a refusal');
}

/** The central directory entry of `name` in `zip`, to rewrite its declared sizes. */
function centralEntryOffset(zip: Buffer, name: string): number {
  for (let i = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); i !== -1; i = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), i + 4)) {
    const nameLength = zip.readUInt16LE(i + 28);
    if (zip.toString('utf8', i + 46, i + 46 + nameLength) === name) return i;
  }
  throw new Error(`no ${name} in the zip`);
}

describe('checkZipContainer', () => {
  it('passes an honest DOCX', async () => {
    const docx = await docxOf(['One two three.', 'Four five.']);
    expect(() => checkZipContainer(docx, limits)).not.toThrow();
    // Only the parts asked for are kept.
    expect([...checkZipContainer(docx, limits).keys()]).toEqual([]);
    expect([...checkZipContainer(docx, limits, { keep: ['word/document.xml'] }).keys()]).toEqual(['word/document.xml']);
  });

  it('refuses more entries than allowed, from the directory', async () => {
    const docx = await docxOf(['One.']);
    expect(refusalOf(() => checkZipContainer(docx, { ...limits, maxZipEntries: 3 })).message).toBe('the document holds more than 3 parts');
  });

  it('refuses a declared inflated size over the budget before inflating anything', async () => {
    const docx = await docxOf(['One.']);
    const refused = refusalOf(() => checkZipContainer(docx, { ...limits, maxInflatedBytes: 1024 }));
    expect(refused.reason).toBe('inflated_size');
    expect(refused.message).toBe('the document unpacks to more than 1 KB');
  });

  it('refuses a part that inflates past the size it declares (a bomb with lying headers)', async () => {
    const docx = Buffer.from(await docxOf(['One two three four five six seven eight nine ten.']));
    const entry = centralEntryOffset(docx, 'word/document.xml');
    docx.writeUInt32LE(10, entry + 24); // declared: 10 bytes
    expect(refusalOf(() => checkZipContainer(docx, limits)).reason).toBe('inflated_size');
  });

  it('refuses XML nested deeper than allowed', async () => {
    const docx = await docxOf(['One.']);
    const refused = refusalOf(() => checkZipContainer(docx, { ...limits, maxNesting: 3 }));
    expect(refused).toMatchObject({ reason: 'nesting', message: 'the document is nested more than 3 levels deep' });
  });

  it('calls a file without a ZIP directory broken, not refused', () => {
    expect(() => checkZipContainer(Buffer.from('PK\x03\x04 and nothing more'), limits)).toThrow(TranscriptImportError);
    expect(() => checkZipContainer(Buffer.from('PK\x03\x04 and nothing more'), limits)).not.toThrow(DocumentRefusedError);
  });
});

describe('xmlDepth', () => {
  it.each([
    ['<a/>', 1],
    ['<?xml version="1.0"?><a><b><c/></b><b/></a>', 3],
    ['<a><!-- <b><c> --><b>x</b></a>', 2],
    ['<a x="1"><b y="/"></b></a>', 2],
  ])('%s is %i deep', (xml, depth) => {
    expect(xmlDepth(Buffer.from(xml), 100)).toBe(depth);
  });

  it('stops counting past the bound', () => {
    expect(xmlDepth(Buffer.from('<a>'.repeat(100_000)), 10)).toBe(11);
  });
});
