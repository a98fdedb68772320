// How far one text is from another: the edit distance over any sequence (characters, words), and
// the character error rate OCR is judged by (words would count a one-letter slip as a whole word).

/**
 * The text as compared: Unicode NFC (an accent composed or not is one character), every run of
 * white space (spaces, tabs, line breaks) one space, ends trimmed. Case is kept: a wrong capital
 * is a correction the typist makes too.
 */
export function normalizeForComparison(text: string): string {
  return text.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** Edits (insertions, deletions, substitutions of one element each) that turn `a` into `b`: Levenshtein over any sequence. */
export function editDistance<T>(a: readonly T[], b: readonly T[]): number {
  let [long, short] = [a, b];
  if (short.length > long.length) [long, short] = [short, long];
  // Two rows of the edit table, as long as the shorter sequence.
  let previous = Array.from({ length: short.length + 1 }, (_, j) => j);
  let current = new Array<number>(short.length + 1);
  for (let i = 1; i <= long.length; i++) {
    current[0] = i;
    for (let j = 1; j <= short.length; j++) {
      const substitution = previous[j - 1]! + (long[i - 1] === short[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1);
    }
    [previous, current] = [current, previous];
  }
  return previous[short.length]!;
}

/** Edits of one character each (code points) that turn `a` into `b`. */
export const levenshtein = (a: string, b: string): number => editDistance(Array.from(a), Array.from(b));

/**
 * Character error rate: the edits from `reference` to `hypothesis`, both normalised
 * (normalizeForComparison), per character of the reference. 0 is a perfect reading; it exceeds 1
 * when the hypothesis adds more than the reference holds. An empty reference: 0 for an empty
 * hypothesis, else 1 (everything read is wrong).
 */
export function characterErrorRate(reference: string, hypothesis: string): number {
  const ref = normalizeForComparison(reference);
  const hyp = normalizeForComparison(hypothesis);
  const length = Array.from(ref).length;
  if (length === 0) return hyp.length === 0 ? 0 : 1;
  return levenshtein(ref, hyp) / length;
}
