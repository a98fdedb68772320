// Machine translation keeps the order's terms as they are (a name, a product called "Red House"):
// each term in the text is sent as a number the engines pass through untranslated, and put back
// after. Pure but for the wrapped translator's call.
import type { TranslateRequest, Translator } from './types.js';
import { termPattern } from '../domain/terms.js';

/**
 * `texts` with each occurrence of a term (as listed, whole words, the longest first) replaced by a
 * placeholder, and the function that puts the terms back into the translations.
 */
export function protectTerms(texts: readonly string[], terms: readonly string[]): { texts: string[]; restore(translated: readonly string[]): string[] } {
  const pattern = termPattern(terms);
  if (!pattern) return { texts: [...texts], restore: (t) => [...t] };
  const sorted = [...terms].sort((a, b) => b.length - a.length);
  // Eight digits no text holds: read as a number by every engine, and left as it is.
  let base = 90_417_300;
  const joined = texts.join('\n');
  while (sorted.some((_, i) => joined.includes(String(base + i)))) base += 1_000;
  const placeholder = (i: number) => String(base + i);
  const index = new Map(sorted.map((term, i) => [term, i]));
  const back = new RegExp(sorted.map((_, i) => placeholder(i)).join('|'), 'g');
  return {
    texts: texts.map((text) => text.replace(pattern, (term) => placeholder(index.get(term)!))),
    restore: (translated) => translated.map((text) => text.replace(back, (p) => sorted[Number(p) - base]!)),
  };
}

/** `translator` keeping the request's terms (`vocabulary`) as they are. */
export function keepingTerms(translator: Translator): Translator {
  return {
    name: translator.name,
    covers: (from, to) => translator.covers(from, to),
    async translate(req: TranslateRequest) {
      if (!req.vocabulary?.length) return translator.translate(req);
      const { texts, restore } = protectTerms(req.texts, req.vocabulary);
      return restore(await translator.translate({ ...req, texts }));
    },
  };
}
