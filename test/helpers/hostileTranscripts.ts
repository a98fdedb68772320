// Result transcripts that cost a PDF renderer the square of their length (issue 41): each an
// ordinary sentence around a hostile run, as a worker's upload would be (plain text). Used by
// test/integration/hostileRenderings.test.ts and bench/hostileDocuments.mjs (transpiled there).

/** The words around each hostile run: what must still read back from the PDF. */
export const BEFORE = 'We begin here';
export const AFTER = 'and the words go on after it.';

/** `n` explicit embeddings, overrides and isolates nested in turn (RLE, LRE, RLO, LRO, RLI, LRI, FSI), then each closed (PDF, PDI). */
export function bidiBomb(n: number): string {
  const openers = ['\u202B', '\u202A', '\u202E', '\u202D', '\u2067', '\u2066', '\u2068'];
  let open = '';
  const close: string[] = [];
  for (let i = 0; i < n; i++) {
    const opener = openers[i % openers.length]!;
    open += opener;
    close.push(opener >= '\u2066' ? '\u2069' : '\u202C');
  }
  return open + close.reverse().join('');
}

export interface HostileTranscript {
  name: string;
  /** The run between BEFORE and AFTER. */
  run: () => string;
}

export const HOSTILE_TRANSCRIPTS: HostileTranscript[] = [
  { name: '100,000 combining marks on one letter', run: () => `a${'\u0301'.repeat(100_000)}` },
  { name: '250,000 zero-width joiners', run: () => '\u200D'.repeat(250_000) },
  { name: 'a 5 MB line with no break', run: () => 'abcdefghij'.repeat(500_000) },
  { name: 'a bomb of 100,000 nested bidi controls', run: () => bidiBomb(50_000) },
];

/** The transcript file of `hostile`: one speaker's paragraph, the run between ordinary words. */
export const hostileTranscriptText = (hostile: HostileTranscript) => `Speaker 1: ${BEFORE} ${hostile.run()} ${AFTER}\n`;
