// An order's terms (its vocabulary) where they stand in a text: as listed, whole words, the longest
// first. Pure: the service (machine translation keeps them) and the editors' script (marks them)
// find them alike.

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A global pattern of every term, as listed and as a whole word; undefined without terms. */
export function termPattern(terms: readonly string[]): RegExp | undefined {
  if (!terms.length) return undefined;
  const alternatives = [...terms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'gu');
}
