// Checks a ZIP container (DOCX, ODT) before a reader inflates it: the entry count and the declared
// inflated sizes from the central directory, then the XML parts actually inflated under that
// budget (a part that inflates past what it declares is a bomb with lying headers), and the
// nesting depth of their XML. The readers parse the XML parts (mammoth inflates its own; the ODT
// reader takes the ones inflated here); other parts (images) are only counted by their declared
// size, since they are never inflated here.
import { inflateRawSync } from 'node:zlib';
import { TranscriptImportError } from '../domain/transcript.js';
import { refusal, type DocumentLimits } from './limits.js';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_ENTRY = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const STORED = 0;
const DEFLATED = 8;

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** A container that does not read as a ZIP; named to the customer by its format (checkZipContainer). */
class BrokenZipError extends Error {}
const broken = () => new BrokenZipError();

function endOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of up to 65,535 bytes, at the very end.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  throw broken();
}

function centralDirectory(zip: Buffer, limits: DocumentLimits): Entry[] {
  const end = endOfCentralDirectory(zip);
  const declaredEntries = zip.readUInt16LE(end + 10);
  if (declaredEntries > limits.maxZipEntries) throw refusal.entries(limits);
  let at = zip.readUInt32LE(end + 16);
  const entries: Entry[] = [];
  while (at + 46 <= zip.length && zip.readUInt32LE(at) === CENTRAL_ENTRY) {
    if (entries.length === limits.maxZipEntries) throw refusal.entries(limits);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    let size = zip.readUInt32LE(at + 24);
    if (size === 0xffffffff) size = zip64Size(zip.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength));
    entries.push({
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      size,
      localOffset: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  if (entries.length === 0) throw broken();
  return entries;
}

/** The 64-bit inflated size from a ZIP64 extra field (a size that does not fit 32 bits). */
function zip64Size(extra: Buffer): number {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === ZIP64_EXTRA && length >= 8) return Number(extra.readBigUInt64LE(at + 4));
    at += 4 + length;
  }
  return Number.MAX_SAFE_INTEGER;
}

function compressedData(zip: Buffer, entry: Entry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_ENTRY) throw broken();
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  if (start + entry.compressedSize > zip.length) throw broken();
  return zip.subarray(start, start + entry.compressedSize);
}

const COMMENT = Buffer.from('<!--');
const CDATA = Buffer.from('<![CDATA[');

/** How deep XML elements nest (a scan, not a parse: readers build trees recursively). */
export function xmlDepth(xml: Buffer, stopAbove: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = xml.indexOf(0x3c); i !== -1; i = xml.indexOf(0x3c, i + 1)) {
    const next = xml[i + 1];
    if (next === 0x2f)
      depth--; // </
    else if (next === 0x3f || next === 0x21) {
      // <?…?>, <!--…-->, <![CDATA[…]]>, <!DOCTYPE…>
      const end = xml.indexOf(xml.subarray(i, i + 4).equals(COMMENT) ? '-->' : xml.subarray(i, i + 9).equals(CDATA) ? ']]>' : '>', i + 2);
      if (end === -1) break;
      i = end;
    } else {
      const close = xml.indexOf(0x3e, i);
      if (close === -1) break;
      if (depth + 1 > deepest) deepest = depth + 1;
      if (xml[close - 1] !== 0x2f) depth++; // not self-closing
      if (deepest > stopAbove) break;
      i = close;
    }
  }
  return deepest;
}

/**
 * Checks every XML part, inflated within the limits, and answers the ones named in `keep` (the
 * others are dropped as soon as they are checked). Throws a DocumentRefusedError for a container
 * over the limits, a TranscriptImportError naming `format` for a broken one.
 */
export function checkZipContainer(
  bytes: Uint8Array,
  limits: DocumentLimits,
  { format = 'docx', keep = [] }: { format?: 'docx' | 'odt'; keep?: readonly string[] } = {},
): Map<string, Buffer> {
  try {
    return inflatedXmlParts(bytes, limits, keep);
  } catch (err) {
    throw err instanceof BrokenZipError ? new TranscriptImportError(`it is not a readable .${format} file`) : err;
  }
}

function inflatedXmlParts(bytes: Uint8Array, limits: DocumentLimits, keep: readonly string[]): Map<string, Buffer> {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (zip.length < 22) throw broken();
  const entries = centralDirectory(zip, limits);
  if (entries.reduce((sum, e) => sum + e.size, 0) > limits.maxInflatedBytes) throw refusal.inflated(limits);
  let budget = limits.maxInflatedBytes;
  const parts = new Map<string, Buffer>();
  for (const entry of entries) {
    if (!/\.(xml|rels)$/i.test(entry.name)) continue;
    const data = compressedData(zip, entry);
    let xml: Buffer;
    if (entry.method === STORED) xml = data;
    else if (entry.method === DEFLATED) {
      try {
        // One byte more than declared (or than the budget left) shows a part that lies about its size.
        xml = inflateRawSync(data, { maxOutputLength: Math.max(1, Math.min(entry.size, budget) + 1) });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw refusal.inflated(limits);
        throw broken();
      }
      if (xml.length > entry.size) throw refusal.inflated(limits);
    } else throw broken();
    budget -= xml.length;
    if (xmlDepth(xml, limits.maxNesting) > limits.maxNesting) throw refusal.nesting(limits);
    if (keep.includes(entry.name)) parts.set(entry.name, xml);
  }
  return parts;
}
