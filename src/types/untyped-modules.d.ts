// Type declarations for the document libraries that ship none (only what this project uses).
declare module 'word-extractor' {
  interface ExtractedDocument { getBody(): string }
  export default class WordExtractor {
    extract(source: string | Buffer): Promise<ExtractedDocument>;
  }
}

declare module 'rtf-parser' {
  interface RtfSpan { value: string }
  interface RtfParagraph { content: Array<RtfSpan | RtfParagraph> }
  interface RtfDocument { content: Array<RtfParagraph | RtfSpan> }
  const parse: { string(text: string, done: (err: Error | null, doc: RtfDocument) => void): void };
  export default parse;
}
