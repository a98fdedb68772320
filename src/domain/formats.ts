// Each result format's file type (extension and Content-Type). Which kind takes which format: resultKinds.ts.

export const FILE_TYPES = {
  docx: { extension: 'docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  // `.doc` is served as RTF, which Word and LibreOffice open as a .doc (docs/formats.md).
  doc: { extension: 'doc', contentType: 'application/msword' },
  pdf: { extension: 'pdf', contentType: 'application/pdf' },
  text: { extension: 'txt', contentType: 'text/plain; charset=utf-8' },
  html: { extension: 'html', contentType: 'text/html; charset=utf-8' },
  json: { extension: 'json', contentType: 'application/json; charset=utf-8' },
  json2: { extension: 'json', contentType: 'application/json; charset=utf-8' },
  srt: { extension: 'srt', contentType: 'application/x-subrip; charset=utf-8' },
  vtt: { extension: 'vtt', contentType: 'text/vtt; charset=utf-8' },
  ttml: { extension: 'ttml', contentType: 'application/ttml+xml; charset=utf-8' },
  // DFXP is TTML's earlier name; players that ask for it take the same document.
  dfxp: { extension: 'dfxp', contentType: 'application/ttaf+xml; charset=utf-8' },
} as const;

export type ResultFormat = keyof typeof FILE_TYPES;

export const isResultFormat = (value: string): value is ResultFormat => Object.hasOwn(FILE_TYPES, value);
