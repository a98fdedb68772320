// Type declarations for the document libraries that ship none (only what this project uses).
declare module 'word-extractor' {
  interface ExtractedDocument {
    getBody(options?: { filterUnicode?: boolean }): string;
  }
  export default class WordExtractor {
    extract(source: string | Buffer): Promise<ExtractedDocument>;
  }
}

declare module 'linebreak' {
  /** UAX #14 line break opportunities: `position` is where the next line may start (code units). */
  export default class LineBreaker {
    constructor(text: string);
    nextBreak(): { position: number; required: boolean } | null;
  }
}
