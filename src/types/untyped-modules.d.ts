// Type declarations for the document libraries that ship none (only what this project uses).
declare module 'word-extractor' {
  interface ExtractedDocument {
    getBody(options?: { filterUnicode?: boolean }): string;
  }
  export default class WordExtractor {
    extract(source: string | Buffer): Promise<ExtractedDocument>;
  }
}
