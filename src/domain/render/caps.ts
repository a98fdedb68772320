// What one paragraph of a PDF may ask of the layout (issue 41). A transcript is text a person or a
// machine wrote, and some of it is not: 100,000 combining marks on one letter, 250,000 joiners, a
// 5 MB line with no break, a bomb of bidi controls. Each cost minutes where a browser draws it in a
// second, and each is capped here: what a browser shows is kept, the excess is left out (and counted,
// for the caller to log). Ordinary text in any language is never near a cap.
import LineBreaker from 'linebreak';

export const CAPS = {
  /**
   * Marks (and joiners, variation selectors, emoji modifiers) in a row after one letter: Unicode's
   * Stream-Safe Text Format (UAX #15) allows 30 non-starters; no language needs more. fontkit's mark
   * positioning looks back over the marks before each, so its cost grows with their square.
   */
  marksPerBase: 30,
  /** Code points of one cluster (a letter and what joins it, an emoji sequence): HarfBuzz reorders at most 32 marks; the longest emoji sequence has 10. */
  clusterCodePoints: 32,
  /** Code units between two line-break opportunities (one unbreakable word): about a page (long URLs stay under 2,000); what is past it is left out and a "…" says so. */
  unbroken: 4_000,
  /**
   * Clusters on one line, and so in one run fontkit shapes to draw: a line of 11 pt text holds about
   * 200 of ordinary width; only invisible ones (bidi controls, zero-width spaces) come near.
   */
  lineClusters: 1_000,
  /**
   * Embeddings and isolates open at once: the bidirectional algorithm's max_depth (UAX #9, BD2),
   * past which they overflow and change nothing. bidi-js looks ahead from each open isolate (FSI)
   * to its end, so 80,000 nested ones took 35 s.
   */
  bidiDepth: 125,
} as const;

/** What joins the letter before it in a cluster (Grapheme_Extend is Mn, Me and a few others; ZWJ is its own class). */
const JOINING = String.raw`\p{Grapheme_Extend}\p{Mc}\u200D\p{Emoji_Modifier}`;
/** A run longer than the cap; the look-behind starts a match at a run's start only, so a run is scanned once. */
const LONG_JOINING_RUN = new RegExp(`(?<![${JOINING}])[${JOINING}]{${CAPS.marksPerBase + 1},}`, 'gu');
/** Scripts written without spaces between words: ICU's dictionary finds where their lines may break. */
export const NO_SPACES = /[\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\p{sc=Tai_Tham}\p{sc=New_Tai_Lue}\p{sc=Tai_Le}]/u;
const ELLIPSIS = '\u2026';
/** LRE, RLE, PDF, LRO, RLO; LRI, RLI, FSI, PDI. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
const words = new Intl.Segmenter(undefined, { granularity: 'word' });

/** Code points in `s`. */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (!isHighSurrogate(s.charCodeAt(i)) || !isLowSurrogate(s.charCodeAt(i + 1))) n++;
  return n;
}
const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** The first `n` code points of `s`. */
export function firstCodePoints(s: string, n: number): string {
  let i = 0;
  for (let k = 0; k < n && i < s.length; k++) i += isHighSurrogate(s.charCodeAt(i)) && isLowSurrogate(s.charCodeAt(i + 1)) ? 2 : 1;
  return s.slice(0, i);
}

/**
 * `segmenter`'s segments of `text`, in windows of `window` code units. Node 20's V8 copies the
 * whole input for every segment it hands out (fixed in later V8s), so segmenting a long text at
 * once costs its length squared: 100,000 characters took 10 s. Each window ends before its last
 * segment, which may go on past it, and the next starts there: the same boundaries, as no rule
 * looks back past one. A segment that fills its window is found whole in larger windows.
 */
export function* segmentsOf(segmenter: Intl.Segmenter, text: string, window = 256): Generator<{ segment: string; index: number; isWordLike?: boolean }> {
  // A window's end, never between the two halves of a surrogate pair.
  const end = (to: number) => (to >= text.length ? text.length : isHighSurrogate(text.charCodeAt(to - 1)) ? to - 1 : to);
  for (let from = 0; from < text.length;) {
    const to = end(from + window);
    let last: { segment: string; index: number; isWordLike?: boolean } | undefined;
    for (const { segment, index, isWordLike } of segmenter.segment(from === 0 && to === text.length ? text : text.slice(from, to))) {
      if (last) yield last;
      last = { segment, index: from + index, isWordLike };
    }
    if (to === text.length) {
      yield last!;
      from = to;
    } else if (last!.index > from) {
      from = last!.index;
    } else {
      // One segment fills the window: its end, in windows twice as large (its segment alone each time).
      let { segment, isWordLike } = last!;
      for (let size = 2 * window; from + segment.length === end(from + size / 2) && from + size / 2 < text.length; size *= 2) {
        ({ segment, isWordLike } = segmenter.segment(text.slice(from, end(from + size))).containing(0)!);
      }
      yield { segment, index: from, isWordLike };
      from += segment.length;
    }
  }
}

/**
 * The embeddings and isolates open across a paragraph's spans (UAX #9, X1–X8, counted by depth
 * alone), to leave out those that open past CAPS.bidiDepth and what closes them: the algorithm
 * would let them overflow, so the levels stay as they were.
 */
export class BidiNesting {
  private readonly open: Array<'embedding' | 'isolate'> = [];
  private overflowIsolates = 0;
  private overflowEmbeddings = 0;

  /** Whether the control `c` is kept. */
  keeps(c: string): boolean {
    if (c === '\u202C') {
      // PDF: closes an embedding inside the innermost isolate, if any.
      if (this.overflowIsolates) return false;
      if (this.overflowEmbeddings) return (this.overflowEmbeddings--, false);
      if (this.open.at(-1) === 'embedding') this.open.pop();
      return true;
    }
    if (c === '\u2069') {
      // PDI: closes the innermost isolate and the embeddings inside it.
      if (this.overflowIsolates) return (this.overflowIsolates--, false);
      this.overflowEmbeddings = 0;
      if (this.open.includes('isolate')) while (this.open.pop() !== 'isolate');
      return true;
    }
    const isolate = c >= '\u2066';
    if (this.open.length < CAPS.bidiDepth && !this.overflowIsolates && !this.overflowEmbeddings) {
      this.open.push(isolate ? 'isolate' : 'embedding');
      return true;
    }
    if (isolate) this.overflowIsolates++;
    else if (!this.overflowIsolates) this.overflowEmbeddings++;
    return false;
  }
}

/**
 * `text` within the caps on marks, bidi nesting (`bidi`: shared by a paragraph's spans) and
 * unbreakable words, and how many code points were left out. The caps on clusters and lines are
 * the layout's (lineLayout.ts), which finds both.
 */
export function capText(text: string, bidi = new BidiNesting()): { text: string; dropped: number } {
  let dropped = 0;
  const marked = text
    .replace(LONG_JOINING_RUN, (run) => {
      dropped += codePoints(run) - CAPS.marksPerBase;
      return firstCodePoints(run, CAPS.marksPerBase);
    })
    .replace(BIDI_CONTROLS, (c) => (bidi.keeps(c) ? c : (dropped++, '')));
  if (marked.length <= CAPS.unbroken) return { text: dropped ? marked : text, dropped };
  const pieces: string[] = [];
  let from = 0;
  const piece = (to: number) => {
    const word = marked.slice(from, to);
    from = to;
    if (word.length <= CAPS.unbroken) return void pieces.push(word);
    // The spaces a line may break after end the piece: one is kept of a long run of them.
    const content = word.trimEnd();
    const space = word.slice(content.length, content.length + 1);
    const cut = Math.min(content.length, isHighSurrogate(content.charCodeAt(CAPS.unbroken - 1)) ? CAPS.unbroken - 1 : CAPS.unbroken);
    dropped += codePoints(word) - codePoints(content.slice(0, cut)) - space.length;
    pieces.push(content.slice(0, cut), cut < content.length ? ELLIPSIS : '', space);
  };
  const breaker = new LineBreaker(marked);
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    if (bk.position - from > CAPS.unbroken && NO_SPACES.test(marked.slice(from, bk.position))) {
      // Thai and its neighbours break between words the dictionary finds, not only at spaces.
      const start = from;
      for (const { index } of segmentsOf(words, marked.slice(start, bk.position))) if (index > 0) piece(start + index);
    }
    piece(bk.position);
  }
  if (from < marked.length) piece(marked.length);
  return dropped ? { text: pieces.join(''), dropped } : { text, dropped: 0 };
}
