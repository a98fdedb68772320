// The zod building blocks of every product's request: one definition of each parameter kind,
// with messages that name what was expected. Types of requests come from z.infer.
import { z } from 'zod';
import { ENUMS, type EnumName } from '../domain/catalog.js';
import { LANGUAGE_SETS, type LanguageSetName } from '../domain/languages.js';
import { codePointName, escapeRefused, refusedCharacterIn } from '../domain/terms.js';
import { MAX_DELETE_AFTER_SECONDS } from '../contracts/deletion.js';

const required = (what: string) => (iss: { input?: unknown }) => (iss.input === undefined ? 'is required' : `must be ${what}`);

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

/** Booleans as JSON, or as form fields `true/false/1/0`. */
export const booleanParam = z.union([z.boolean(), z.string(), z.number()], { error: 'must be true, false, 1 or 0' }).transform((value, ctx) => {
  const result = BOOLEAN_WORDS[String(value).toLowerCase()];
  if (result === undefined) {
    ctx.addIssue({ code: 'custom', message: `must be true, false, 1 or 0, got ${JSON.stringify(value)}` });
    return z.NEVER;
  }
  return result;
});

export const httpUrl = z
  .string({ error: required('an http or https URL') })
  .trim()
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
      } catch {
        return false;
      }
    },
    { error: (iss) => `must be an http or https URL, got ${JSON.stringify(iss.input)}` },
  );

export const wholeSeconds = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, 'must be a whole number of seconds')], { error: 'must be a whole number of seconds' })
  .transform(Number)
  .pipe(
    z
      .number()
      .int('must be a whole number of seconds')
      .nonnegative('must not be negative')
      .max(24 * 3600 * 30, 'is too large'),
  );

const sets = Object.fromEntries(Object.entries(LANGUAGE_SETS).map(([name, slugs]) => [name, new Set(slugs)])) as unknown as Record<
  LanguageSetName,
  ReadonlySet<string>
>;

/** A language slug of `set`; `label` names the product in the message. */
export function languageParam(set: LanguageSetName, label: string) {
  return z
    .string({ error: required('a language slug') })
    .trim()
    .toLowerCase()
    .refine((value) => sets[set].has(value), {
      error: (iss) => `'${String(iss.input).trim().toLowerCase()}' is not supported for ${label} (GET /api/v4/languages lists the supported values)`,
    })
    .meta({ enum: [...LANGUAGE_SETS[set]] }); // the OpenAPI document lists them
}

export function enumParam<N extends EnumName>(name: N, fallback: (typeof ENUMS)[N][number]) {
  const values = ENUMS[name] as unknown as [(typeof ENUMS)[N][number], ...(typeof ENUMS)[N][number][]];
  return z.enum(values, { error: (iss) => `must be one of ${values.join(', ')}, got ${JSON.stringify(iss.input)}` }).default(fallback as never);
}

/**
 * `delete_after_seconds` (every product; the name Rev AI uses): the order's data is deleted this long
 * after it is finished, refunded or canceled; 0 to about ten years (issue 53).
 */
export const deleteAfterSecondsParam = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, 'must be a whole number of seconds')], { error: 'must be a whole number of seconds' })
  .transform(Number)
  .pipe(
    z
      .number()
      .int('must be a whole number of seconds')
      .nonnegative('must not be negative')
      .max(MAX_DELETE_AFTER_SECONDS, `is more than ${MAX_DELETE_AFTER_SECONDS} (about ten years)`),
  );

export const modeParam = z.enum(ENUMS.mode, {
  error: (iss) => (iss.input === undefined ? 'is required (test or live)' : `must be test or live, got ${JSON.stringify(iss.input)}`),
});

/** The limits of `vocabulary` (docs/decisions/vocabulary.md): as many terms as the engines' prompts take well. */
export const VOCABULARY_LIMITS = { terms: 200, termLength: 50 } as const;

/**
 * `vocabulary`: the names, places and product words of the recording or text, which steer the
 * engine and are shown to the people. A list, or one string of terms separated by commas or new
 * lines (a form's field); each term in NFC (`Cafe\u0301` is `Café`) and trimmed, the empty and the
 * repeated (case aside) left out, the first kept. A term holding a character that draws nothing or
 * reorders the text (`refusedCharacterIn`: controls, bidi controls, zero-width and tag characters)
 * is refused, naming the term by position and the character.
 */
export const vocabularyParam = z
  .union([z.string(), z.array(z.string({ error: 'must be a list of terms (text)' }))], {
    error: 'must be a list of terms, or one text of terms separated by commas or new lines',
  })
  .transform((value, ctx) => {
    const terms: string[] = [];
    const seen = new Set<string>();
    const given = typeof value === 'string' ? value.split(/[,\n\r]+/).filter((piece) => piece !== '') : value;
    for (const [index, raw] of given.entries()) {
      // Spaces of every kind as one, but not U+FEFF, which JavaScript counts as a space: it is refused below.
      const term = raw
        .normalize('NFC')
        .replace(/[^\S\uFEFF]+/g, ' ')
        .replace(/^ | $/g, '');
      if (!term) continue;
      const refused = refusedCharacterIn(term);
      if (refused) {
        const { at, codePoint, why } = refused;
        ctx.addIssue({
          code: 'custom',
          message: `term ${index + 1} ("${escapeRefused(term)}") holds ${codePointName(codePoint)} at character ${at}: ${why}`,
        });
        return z.NEVER;
      }
      if (seen.has(term.toLocaleLowerCase())) continue;
      if ([...term].length > VOCABULARY_LIMITS.termLength) {
        ctx.addIssue({ code: 'custom', message: `has a term longer than ${VOCABULARY_LIMITS.termLength} characters: ${JSON.stringify(term.slice(0, 60))}` });
        return z.NEVER;
      }
      seen.add(term.toLocaleLowerCase());
      terms.push(term);
    }
    if (terms.length > VOCABULARY_LIMITS.terms) {
      ctx.addIssue({ code: 'custom', message: `has ${terms.length} terms; at most ${VOCABULARY_LIMITS.terms} are taken` });
      return z.NEVER;
    }
    return terms;
  })
  .optional()
  .meta({
    description: `Terms of the recording or text (names, places, product words): a list, or one text separated by commas or new lines; up to ${VOCABULARY_LIMITS.terms} terms of up to ${VOCABULARY_LIMITS.termLength} characters, each kept in Unicode NFC, repeats left out. Control, format and invisible characters (bidi controls, zero-width and tag characters) are refused; ZWJ and ZWNJ are taken inside a word they shape. They steer the machine and are shown to the people; they do not change the price.`,
  });

export const commentParam = z.string({ error: 'must be text' }).max(10_000, 'is longer than 10000 characters').optional();

/**
 * The parameters that hold what the customer sent (the files' URLs, their words to the people, their
 * terms, where to call back), which an order's deletion removes; the rest (languages, options) stay
 * with the bill (issue 53).
 */
export const CUSTOMER_CONTENT_PARAMS: ReadonlySet<string> = new Set(['url', 'audio_url', 'transcription_url', 'comment', 'vocabulary', 'callback_url']);
export const callbackUrlParam = httpUrl.optional();

/** The parameters of human transcription that captions share (spec, operation 6). */
export function transcriptionParams(label: string) {
  return {
    url: httpUrl,
    language: languageParam('HT', label),
    comment: commentParam,
    vocabulary: vocabularyParam,
    from: wholeSeconds.optional(),
    till: wholeSeconds.optional(),
    text_format: enumParam('text_format', 'clean_verbatim'),
    timestamping: enumParam('timestamping', 'not_required'),
    turnaround_time: enumParam('turnaround_time', '5_days'),
    number_of_speakers: enumParam('number_of_speakers', '1_or_2'),
    callback_url: callbackUrlParam,
  };
}

/** A span that leaves something: from < till when both are given, till > 0 alone. */
export function checkSpan(input: { from?: number; till?: number }, ctx: z.RefinementCtx): void {
  // Runs after a field's own refusal too: a value that is not whole seconds was named already.
  const seconds = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (!seconds(input.till) || (input.from !== undefined && !seconds(input.from))) return;
  if (input.till! > (input.from ?? 0)) return;
  const message =
    input.from !== undefined
      ? `must be greater than from (${input.from}): from ${input.from} to till ${input.till} leaves nothing`
      : 'must be greater than 0: till 0 leaves nothing';
  ctx.addIssue({ code: 'custom', path: ['till'], message });
}

/** translate_from ≠ translate_to. */
export function checkLanguagePair(input: { translate_from: string; translate_to: string }, ctx: z.RefinementCtx): void {
  if (input.translate_from === input.translate_to) {
    ctx.addIssue({ code: 'custom', path: ['translate_to'], message: `must differ from translate_from (both are ${input.translate_from})` });
  }
}

/** The parameters translation and subtitles share (spec, operations 5 and 7). */
export function translationParams(label: string) {
  return {
    url: httpUrl,
    translate_from: languageParam('TL', label),
    translate_to: languageParam('TL', label),
    additional_review: booleanParam.default(false),
    comment: commentParam,
    vocabulary: vocabularyParam,
    callback_url: callbackUrlParam,
  };
}
