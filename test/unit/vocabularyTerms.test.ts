// What a term of an order's `vocabulary` may hold (issue 51): NFC, repeats after it left out, and
// no character that draws nothing or reorders the text, except a joiner inside a word it shapes.
import { describe, expect, it } from 'vitest';
import { vocabularyParam } from '../../src/products/params.js';
import { refusedCharacterIn } from '../../src/domain/terms.js';
import { productOf } from '../../src/products/registry.js';

const parse = (value: unknown) => vocabularyParam.safeParse(value);
const refusal = (value: unknown) => {
  const result = parse(value);
  expect(result.success, JSON.stringify(value)).toBe(false);
  return result.error!.issues[0]!.message;
};

describe('vocabulary terms', () => {
  it('are kept in NFC, and a term that is another after NFC (case aside) is left out, the first kept', () => {
    expect(parse(['Cafe\u0301', 'Café', 'CAFÉ', 'Zoë']).data).toEqual(['Café', 'Zoë']);
    expect(parse('Café, Cafe\u0301\nAngstro\u0308m').data).toEqual(['Café', 'Angström']);
    // Spaces of other kinds are spaces.
    expect(parse(['Ada\u00A0Lovelace', 'Ada Lovelace ']).data).toEqual(['Ada Lovelace']);
  });

  it('refuse bidi controls, zero-width, tag and format characters, naming the term, the character and where', () => {
    expect(refusal(['Kyiv', 'abc\u202Edef'])).toBe('term 2 ("abc\\u{202E}def") holds U+202E at character 4: a bidi control, which reorders the text after it');
    expect(refusal('Kyiv, Ky\u200Biv')).toMatch(/^term 2 \("Ky\\u\{200B\}iv"\) holds U\+200B at character 3: a zero-width character/);
    expect(refusal(['\uFEFFZyphrex'])).toMatch(/^term 1 .* holds U\+FEFF at character 1: a byte order mark/);
    expect(refusal(['Zyphrex\u{E0041}'])).toMatch(/holds U\+E0041 at character 8: a tag character/);
    for (const c of ['\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u2066', '\u2067', '\u2068', '\u2069', '\u061C'])
      expect(refusal([`a${c}b`])).toContain('a bidi control');
    for (const c of ['\u00AD', '\u2060', '\u2061', '\u2064', '\u{1D173}', '\u{E0001}', '\u{E007F}']) expect(refusal([`a${c}b`])).toMatch(/holds U\+/);
    // Other invisible ones: a Hangul filler, a control, a lone surrogate.
    expect(refusal(['a\u3164b'])).toContain('a character that draws nothing');
    expect(refusal(['bell\u0007'])).toContain('a control character');
    expect(refusal(['a\u0085b'])).toContain('a control character');
    expect(refusal(['a\uD800b'])).toContain('half of a surrogate pair');
  });

  it('take ZWNJ and ZWJ inside a word they shape (Persian, Urdu, Hindi, Bengali, Sinhala, Malayalam, emoji), and nowhere else', () => {
    const shaped = [
      'می\u200Cخواهم', // Persian: the prefix stays unjoined
      'کتاب\u200Cها', // Persian plural
      'क्\u200Dष', // Devanagari: the half form
      'क्\u200Cष', // Devanagari: the explicit virama
      'র\u200D্য', // Bengali: ya-phala after ra
      'ශ්\u200Dරී', // Sinhala: Shri
      'അവന്\u200D', // Malayalam: the older chillu, at the word's end
      '👩\u200D💻', // an emoji sequence
      '🏳\uFE0F\u200D🌈', // with its variation selector
      '❤\uFE0F',
    ];
    for (const term of shaped) expect(refusedCharacterIn(term), term).toBeUndefined();
    expect(parse(shaped).data).toEqual(shaped);
    // Where it draws nothing, it only makes a term look like another.
    for (const term of ['Ca\u200Cfe', 'Ca\u200Dfe', 'Мо\u200Cсква', '\u200Cمی', 'می\u200C', 'می \u200Cخ', 'क\u200Cष', '👩\u200C💻', 'a\u200D'])
      expect(refusedCharacterIn(term), term).toMatchObject({ codePoint: expect.any(Number), why: expect.stringMatching(/joiner outside a word it shapes/) });
    expect(refusal(['Ca\u200Cfe'])).toBe(
      'term 1 ("Ca\\u{200C}fe") holds U+200C at character 3: a zero-width non-joiner outside a word it shapes (taken between letters of a joining script such as Arabic or Persian, beside a virama, and in emoji)',
    );
    // A variation selector with nothing to vary.
    expect(refusedCharacterIn('\uFE0Fabc')).toMatchObject({ at: 1, codePoint: 0xfe0f });
  });

  it('of an older proofreading order pass to the order that replaces it without the characters refused since', () => {
    const old = {
      audio_url: 'https://files.example/talk.wav',
      language: 'english',
      text_format: 'clean_verbatim',
      timestamping: 'not_required',
      turnaround_time: '5_days',
    };
    const handed = productOf('transcription_proofreading').handOff!.params({ ...old, vocabulary: ['abc\u202Edef', 'Kyiv', 'می\u200Cخواهم'] } as never);
    expect(productOf('transcription').request.parse(handed)).toMatchObject({ vocabulary: ['abcdef', 'Kyiv', 'می\u200Cخواهم'] });
  });
});
