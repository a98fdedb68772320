// Small files that cost a reader much more than their size: the attacks of issue 17, written by
// hand (PDF objects, ZIP records, deflate streams) so that each is exactly what it claims. Large
// inflated contents are made by repeating one deflate segment that ends in a full flush: such
// segments are byte-aligned and refer to nothing before them, so they concatenate into one valid
// stream (RFC 1951) without the contents ever being held in memory.
import { constants, crc32, deflateRawSync } from 'node:zlib';

// ---- PDF ----------------------------------------------------------------------------------------

/** A PDF of `objects` (object n is objects[n - 1]; object 1 is the catalog), with its xref table. */
function pdfOf(objects: Array<string | Buffer>): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xE2\xE3\xCF\xD3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, n) => {
    offsets.push(length);
    const object = Buffer.concat([Buffer.from(`${n + 1} 0 obj\n`), Buffer.from(body as string), Buffer.from('\nendobj\n')]);
    parts.push(object);
    length += object.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(parts);
}

function stream(data: Buffer, compress = false): Buffer {
  const body = compress ? deflateZlib(data) : data;
  return Buffer.concat([Buffer.from(`<< /Length ${body.length}${compress ? ' /Filter /FlateDecode' : ''} >>\nstream\n`), body, Buffer.from('\nendstream')]);
}

/** A zlib (not raw) stream, as PDF's FlateDecode wants. */
function deflateZlib(data: Buffer): Buffer {
  const raw = deflateRawSync(data, { level: 9 });
  const adler = adler32(data);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(adler);
  return Buffer.concat([Buffer.from([0x78, 0xda]), raw, trailer]);
}

function adler32(data: Buffer): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; i++) {
    a = (a + data[i]!) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const page = (parent: number, font: number, contents: number) =>
  `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${contents} 0 R >>`;

/** Attacks readers that walk every page: one page object listed `copies` times (~2.4 MB for 400,000). */
export function pdfWithHugePageTree(copies = 400_000, count = copies): Buffer {
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${'3 0 R '.repeat(copies)}] /Count ${count} >>`,
    page(2, 4, 5),
    FONT,
    stream(Buffer.from('BT /F1 12 Tf 72 720 Td (The same page, again and again) Tj ET')),
  ]);
}

/** Attacks word counting: one page whose compressed content stream shows `words` words. */
export function pdfWithMillionsOfWords(words = 3_000_000): Buffer {
  const perLine = 1000;
  const line = `(${'w '.repeat(perLine)}) Tj T*\n`;
  // Every line on the page (a quarter of a unit apart), so that a reader sees all of them.
  const content = Buffer.from(`BT /F1 1 Tf 0.25 TL 0 790 Td\n${line.repeat(Math.ceil(words / perLine))}ET`);
  return pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', page(2, 4, 5), FONT, stream(content, true)]);
}

const HONEST_WORDS = ['order', 'service', 'transcript', 'audio', 'meeting', 'minutes', 'speaker', 'language', 'wallet', 'callback'];
const WORDS_PER_LINE = 12;

/** An honest text PDF: `pages` pages of `wordsPerPage` words each, in lines of twelve. */
export function honestTextPdf(pages = 300, wordsPerPage = 300): Buffer {
  const kids = Array.from({ length: pages }, (_, n) => 4 + 2 * n);
  const objects: Array<string | Buffer> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${pages} >>`,
    FONT,
  ];
  for (let p = 0; p < pages; p++) {
    const words = Array.from({ length: wordsPerPage }, (_, n) => HONEST_WORDS[(p + n) % HONEST_WORDS.length]!);
    const lines: string[] = [];
    for (let at = 0; at < words.length; at += WORDS_PER_LINE) lines.push(`(${words.slice(at, at + WORDS_PER_LINE).join(' ')}) Tj T*`);
    objects.push(page(2, 3, 5 + 2 * p), stream(Buffer.from(`BT /F1 9 Tf 11 TL 40 760 Td\n${lines.join('\n')}\nET`), true));
  }
  return pdfOf(objects);
}

export const honestTextPdfWords = (pages = 300, wordsPerPage = 300) => pages * wordsPerPage;

// ---- ZIP (DOCX, ODT) ----------------------------------------------------------------------------

interface ZipEntry {
  name: string;
  data: Buffer;
  crc: number;
  size: number;
  declaredSize?: number;
  /** Kept as is (method 0), as ODF asks of its mimetype entry. */
  stored?: boolean;
}

/** A raw deflate stream of `head`, `repeat` × `unit`, `tail`, and the CRC-32 of what it inflates to. */
function repeatedDeflate(head: Buffer, unit: Buffer, repeat: number, tail: Buffer): { data: Buffer; crc: number; size: number } {
  const flushed = (bytes: Buffer) => deflateRawSync(bytes, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const unitDeflated = flushed(unit);
  let crc = crc32(head);
  for (let n = 0; n < repeat; n++) crc = crc32(unit, crc);
  crc = crc32(tail, crc);
  const data = Buffer.concat([flushed(head), ...Array<Buffer>(repeat).fill(unitDeflated), deflateRawSync(tail)]);
  return { data, crc, size: head.length + unit.length * repeat + tail.length };
}

const deflated = (name: string, text: string): ZipEntry => {
  const bytes = Buffer.from(text);
  return { name, data: deflateRawSync(bytes), crc: crc32(bytes), size: bytes.length };
};

function zipOf(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const size = e.declaredSize ?? e.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    const method = e.stored ? 0 : 8; // stored or deflated
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(e.crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(e.crc, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const DOCUMENT_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${W}"><w:body>`;
const DOCUMENT_TAIL = '</w:body></w:document>';

/** A Word document whose word/document.xml is `head`, `repeat` × `unit`, `tail`. */
function docxAround(head: string, unit: string, repeat: number, tail: string, declaredSize?: number): Buffer {
  const document = repeatedDeflate(Buffer.from(DOCUMENT_HEAD + head), Buffer.from(unit), repeat, Buffer.from(tail + DOCUMENT_TAIL));
  return zipOf([
    deflated(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    deflated(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    { name: 'word/document.xml', ...document, ...(declaredSize === undefined ? {} : { declaredSize }) },
    deflated(
      'word/_rels/document.xml.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>',
    ),
  ]);
}

const ODT_TYPE = 'application/vnd.oasis.opendocument.text';
const ODT_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" office:version="1.3"><office:body><office:text>';
const ODT_TAIL = '</office:text></office:body></office:document-content>';

/** An OpenDocument text as ODF packs it: a stored mimetype entry first, then content.xml of `head`, `repeat` × `unit`, `tail`. */
function odtAround(head: string, unit: string, repeat: number, tail: string): Buffer {
  const mimetype = Buffer.from(ODT_TYPE);
  return zipOf([
    { name: 'mimetype', data: mimetype, crc: crc32(mimetype), size: mimetype.length, stored: true },
    { name: 'content.xml', ...repeatedDeflate(Buffer.from(ODT_HEAD + head), Buffer.from(unit), repeat, Buffer.from(tail + ODT_TAIL)) },
    deflated(
      'META-INF/manifest.xml',
      '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">' +
        `<manifest:file-entry manifest:full-path="/" manifest:media-type="${ODT_TYPE}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    ),
  ]);
}

/** An ODT whose office:text holds `bodyXml` (text:p, text:h, … as ODF writes them). */
export const odtOf = (bodyXml: string): Buffer => odtAround(bodyXml, '', 0, '');

const MB = 1024 ** 2;

/** Attacks memory: word/document.xml inflates to `inflatedBytes` (one run of 'a'); `lyingSizes` declares 10 KB. */
export function docxZipBomb({ inflatedBytes = 800 * MB, lyingSizes = false }: { inflatedBytes?: number; lyingSizes?: boolean } = {}): Buffer {
  const repeat = Math.max(1, Math.round(inflatedBytes / MB));
  return docxAround('<w:p><w:r><w:t>', 'a'.repeat(MB), repeat, '</w:t></w:r></w:p>', lyingSizes ? 10_000 : undefined);
}

/** Attacks memory through an ODT: content.xml inflates to `inflatedBytes` (one run of 'a'). */
export function odtZipBomb(inflatedBytes = 800 * MB): Buffer {
  return odtAround('<text:p>', 'a'.repeat(MB), Math.max(1, Math.round(inflatedBytes / MB)), '</text:p>');
}

/** Attacks the XML reader and the paragraph model: `paragraphs` one-word paragraphs. */
export function docxWithManyParagraphs(paragraphs = 3_000_000): Buffer {
  const perUnit = 10_000;
  return docxAround('', '<w:p><w:r><w:t>w</w:t></w:r></w:p>'.repeat(perUnit), Math.ceil(paragraphs / perUnit), '');
}

// ---- RTF and media ------------------------------------------------------------------------------

/** Attacks recursive readers: groups nested `depth` deep. */
export function rtfDeeplyNested(depth = 300_000): Buffer {
  return Buffer.from(`{\\rtf1 ${'{'.repeat(depth)}x${'}'.repeat(depth)}}`);
}

/** Attacks a tag reader that allocates what the header declares: an ID3v2.4 tag claiming ~256 MB, then nothing. */
export function craftedId3(): Buffer {
  return Buffer.concat([Buffer.from('ID3\x04\x00\x00\x7f\x7f\x7f\x7f', 'latin1'), Buffer.from('TIT2\x00\x00\x00\x05\x00\x00\x03hey', 'latin1')]);
}

/** Attacks a recursive box reader: an MP4 whose 'moov' holds `depth` nested 'trak' boxes. */
export function craftedMp4(depth = 200_000): Buffer {
  const ftyp = Buffer.from('\x00\x00\x00\x14ftypisom\x00\x00\x02\x00isom', 'latin1');
  const boxes = Buffer.alloc(8 * (depth + 1));
  for (let n = 0; n <= depth; n++) {
    boxes.writeUInt32BE(8 * (depth + 1 - n), 8 * n);
    boxes.write(n === 0 ? 'moov' : 'trak', 8 * n + 4, 'latin1');
  }
  return Buffer.concat([ftyp, boxes]);
}

export interface HostileFile {
  name: string;
  fileName: string;
  contentType: string;
  bytes: () => Buffer;
}

export const HOSTILE_DOCUMENTS: HostileFile[] = [
  { name: 'a PDF listing one page 400,000 times', fileName: 'huge-page-tree.pdf', contentType: 'application/pdf', bytes: () => pdfWithHugePageTree() },
  { name: 'a PDF drawing 3 million words', fileName: 'millions-of-words.pdf', contentType: 'application/pdf', bytes: () => pdfWithMillionsOfWords() },
  {
    name: 'a DOCX whose XML inflates to 800 MB',
    fileName: 'zip-bomb.docx',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    bytes: () => docxZipBomb(),
  },
  {
    name: 'a DOCX bomb declaring 10 KB',
    fileName: 'zip-bomb-lying-sizes.docx',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    bytes: () => docxZipBomb({ lyingSizes: true }),
  },
  {
    name: 'a DOCX of 3 million paragraphs',
    fileName: 'many-paragraphs.docx',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    bytes: () => docxWithManyParagraphs(),
  },
  { name: 'an ODT whose XML inflates to 800 MB', fileName: 'zip-bomb.odt', contentType: 'application/vnd.oasis.opendocument.text', bytes: () => odtZipBomb() },
  { name: 'an RTF nested 300,000 groups deep', fileName: 'deeply-nested.rtf', contentType: 'application/rtf', bytes: () => rtfDeeplyNested() },
];

export const HOSTILE_MEDIA: HostileFile[] = [
  { name: 'an MP3 whose ID3 tag claims 256 MB', fileName: 'crafted-id3.mp3', contentType: 'audio/mpeg', bytes: () => craftedId3() },
  { name: 'an MP4 nesting 200,000 boxes', fileName: 'crafted.mp4', contentType: 'video/mp4', bytes: () => craftedMp4() },
];
