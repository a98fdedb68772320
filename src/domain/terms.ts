// An order's terms (its vocabulary) where they stand in a text: as listed, whole words, the longest
// first. Pure: the service (machine translation keeps them) and the editors' script (marks them)
// find them alike. And which characters a term may hold (issue 51): none that draws nothing or
// reorders the text, but for a joiner inside a word it shapes.

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A global pattern of every term, as listed and as a whole word; undefined without terms. */
export function termPattern(terms: readonly string[]): RegExp | undefined {
  if (!terms.length) return undefined;
  const alternatives = [...terms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'gu');
}

/** A character a term may not hold: where it stands (in characters, from 1), which, and why not. */
export interface RefusedCharacter {
  at: number;
  codePoint: number;
  why: string;
}

/** `U+202E`: how a refusal names a character. */
export const codePointName = (codePoint: number): string => `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;

const is = (pattern: RegExp) => (c: string | undefined) => c !== undefined && pattern.test(c);
const isControl = is(/^\p{Cc}$/u);
const isSurrogate = is(/^\p{Cs}$/u);
const isBidiControl = is(/^\p{Bidi_Control}$/u);
const isTag = is(/^[\u{E0000}-\u{E007F}]$/u);
const isZeroWidth = is(/^[\u200B\u2060\uFEFF]$/u);
const isJoiner = is(/^[\u200C\u200D]$/u);
const isFormat = is(/^\p{Cf}$/u);
const isInvisible = is(/^[\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}]$/u);
// Variation selectors choose a glyph of the character before them (an emoji's colour, a name's ideograph).
const isVariationSelector = is(/^[\u180B-\u180D\u180F\uFE00-\uFE0F\u{E0100}-\u{E01EF}]$/u);
const isBase = is(/^[\p{L}\p{N}\p{S}\p{P}]$/u);
// Scripts whose letters join (Arabic, Persian, Urdu, Syriac, N'Ko, Mongolian, …): a joiner between
// two of their letters changes the word's shape (Persian's می‌خواهم needs its ZWNJ).
const isJoiningLetter = is(/^(?=[\p{L}\p{M}])[\p{scx=Arabic}\p{scx=Syriac}\p{scx=Nko}\p{scx=Mongolian}\p{scx=Mandaic}\p{scx=Adlam}\p{scx=Hanifi_Rohingya}]$/u);
// Scripts that build conjuncts with a virama (Hindi, Bengali, Sinhala, Malayalam, …): a joiner beside
// one of their marks chooses the conjunct's form (Sinhala's ශ්‍රී needs its ZWJ).
const CONJUNCT_SCRIPTS =
  /^[\p{scx=Devanagari}\p{scx=Bengali}\p{scx=Gurmukhi}\p{scx=Gujarati}\p{scx=Oriya}\p{scx=Tamil}\p{scx=Telugu}\p{scx=Kannada}\p{scx=Malayalam}\p{scx=Sinhala}\p{scx=Myanmar}\p{scx=Khmer}\p{scx=Tibetan}\p{scx=Syloti_Nagri}\p{scx=Javanese}\p{scx=Sundanese}\p{scx=Balinese}]$/u;
const isConjunctMark = (c: string | undefined) => is(/^\p{M}$/u)(c) && is(CONJUNCT_SCRIPTS)(c);
const isConjunctLetterOrMark = (c: string | undefined) => is(/^[\p{L}\p{M}]$/u)(c) && is(CONJUNCT_SCRIPTS)(c);
const isPictograph = is(/^\p{Extended_Pictographic}$/u);
const isEmojiModifier = is(/^[\uFE0F\p{Emoji_Modifier}]$/u);

/**
 * Whether the joiner at `i` of `chars` (U+200C ZWNJ, U+200D ZWJ) shapes the word it stands in: between
 * two letters of a joining script, beside a virama-like mark of a conjunct script (at a word's end
 * too: Malayalam's older chillu), or a ZWJ inside an emoji sequence. Elsewhere it draws nothing and
 * only makes a term that looks like another.
 */
function joinerShapes(chars: readonly string[], i: number): boolean {
  const [before, after] = [chars[i - 1], chars[i + 1]];
  if (isJoiningLetter(before) && isJoiningLetter(after)) return true;
  if (isConjunctMark(before) && (after === undefined || isConjunctLetterOrMark(after))) return true;
  if (isConjunctLetterOrMark(before) && isConjunctMark(after)) return true;
  const pictographBefore = isPictograph(before) || (isEmojiModifier(before) && isPictograph(chars[i - 2]));
  return chars[i] === '\u200D' && pictographBefore && isPictograph(after);
}

/** Why `chars[i]` may not stand in a term, or undefined when it may. */
function refusal(chars: readonly string[], i: number): string | undefined {
  const c = chars[i];
  if (isControl(c)) return 'a control character';
  if (isSurrogate(c)) return 'half of a surrogate pair';
  if (isBidiControl(c)) return 'a bidi control, which reorders the text after it';
  if (isTag(c)) return 'a tag character, which draws nothing';
  if (isZeroWidth(c)) return c === '\uFEFF' ? 'a byte order mark, which draws nothing' : 'a zero-width character, which draws nothing';
  if (isJoiner(c)) {
    if (joinerShapes(chars, i)) return undefined;
    return `a zero-width ${c === '\u200C' ? 'non-' : ''}joiner outside a word it shapes (taken between letters of a joining script such as Arabic or Persian, beside a virama, and in emoji)`;
  }
  if (isFormat(c)) return 'a format character, which draws nothing';
  if (isVariationSelector(c)) return isBase(chars[i - 1]) ? undefined : 'a variation selector without a character to vary';
  if (isInvisible(c)) return 'a character that draws nothing';
  return undefined;
}

/**
 * The first character `term` may not hold: controls, format characters (bidi controls, zero-width
 * characters, tags, the byte order mark: every Cf), lone surrogates and the other invisible ones
 * (Hangul fillers, noncharacters); ZWJ and ZWNJ only where they shape the word (`joinerShapes`).
 */
export function refusedCharacterIn(term: string): RefusedCharacter | undefined {
  const chars = [...term];
  for (let i = 0; i < chars.length; i++) {
    const why = refusal(chars, i);
    if (why) return { at: i + 1, codePoint: chars[i]!.codePointAt(0)!, why };
  }
  return undefined;
}

/** `term` without the characters a term may not hold: an older order's term, as it reads, passed on to a new order. */
export function withoutRefused(term: string): string {
  const chars = [...term];
  return chars.filter((_, i) => !refusal(chars, i)).join('');
}

/** `text` with every character a term may not hold written as `\u{202E}`: safe to show anywhere, and unambiguous. */
export function escapeRefused(text: string): string {
  const chars = [...text];
  return chars.map((c, i) => (refusal(chars, i) ? `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}` : c)).join('');
}
