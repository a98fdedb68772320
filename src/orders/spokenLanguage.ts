// An AI order's language policy: what to deliver when the engine heard a language other than the
// one ordered. Never a forced transcript: the same language is transcribed as it is; an engine that
// names no language, or is unsure and finds the ordered one plausible, is asked again in the ordered
// one; English is the engine's own translation; another pair is machine-translated where a
// translator covers it, else a person translates. Pure: the engine activity (src/activities/
// engines.ts) does what this decides and notes on the order what it says.
import { languageCodeOf, languageNameOf } from '../domain/languages.js';

/**
 * An ordered language the engine gave at least this likelihood is taken as spoken even when it
 * heard another as likelier: synthetic or accented speech spreads the likelihood (espeak-ng's
 * Spanish: es 0.31, th 0.26), while speech truly in another language leaves the ordered one near 0.
 */
export const PLAUSIBLE_LANGUAGE = 0.1;

/**
 * Spoken languages whose English is better made by transcribing them and machine-translating the
 * transcript than by the speech engine's own translation, where a translator covers the pair
 * (measured with chrF: docs/engines.md, Routes to English; `npm run bench:gate`).
 */
export const MACHINE_ROUTE_TO_ENGLISH: ReadonlySet<string> = new Set(['es']);

export interface HeardLanguage {
  /** The language the engine named (a name or a code), if it named one. */
  language?: string | undefined;
  /** The engine's likelihood of each language it considered (names or codes as keys), if it said. */
  languageProbabilities?: Record<string, number> | undefined;
}

/** What to deliver, and what to note on the order about it (none when nothing differs). */
export type SpokenLanguagePlan =
  | { do: 'as-heard' }
  | { do: 'transcribe-as-ordered'; note: string }
  | { do: 'english-translation'; note: string }
  | { do: 'machine-translation'; from: string; note: string }
  | { do: 'person'; from: string; note: string };

/** How likely the engine found `code`; undefined when it did not say. */
function likelihoodOf(heard: HeardLanguage, code: string): number | undefined {
  if (!heard.languageProbabilities) return undefined;
  return Object.entries(heard.languageProbabilities).find(([name]) => languageCodeOf(name) === code)?.[1] ?? 0;
}

/** The finding every note of a spoken language other than the ordered one starts with. */
const saidOf = (spoken: string, ordered: string) => `The file is spoken in ${languageNameOf(spoken)}, the order asked for ${languageNameOf(ordered)}`;

/**
 * The plan for speech the engine heard, for an order in `ordered` (an ISO 639-1 code).
 * `translatorName`: the machine translator covering the heard language into the ordered one, if any.
 */
export function spokenLanguagePlan(heard: HeardLanguage, ordered: string, translatorName?: string): SpokenLanguagePlan {
  const spoken = languageCodeOf(heard.language);
  if (!spoken) return { do: 'transcribe-as-ordered', note: `The engine did not name the spoken language: transcribed as ${languageNameOf(ordered)}.` };
  if (spoken === ordered) return { do: 'as-heard' };
  // Unsure between languages (accents, short or synthetic speech): a plausible ordered language wins.
  const likelihood = likelihoodOf(heard, ordered);
  if (likelihood !== undefined && likelihood >= PLAUSIBLE_LANGUAGE) {
    const p = (code: string) => `${languageNameOf(code)} ${likelihoodOf(heard, code)!.toFixed(2)}`;
    return {
      do: 'transcribe-as-ordered',
      note: `The engine was unsure of the spoken language (${p(spoken)}, ${p(ordered)}): transcribed as ${languageNameOf(ordered)}, as ordered.`,
    };
  }
  const englishByEngine = ordered === 'en' && !(translatorName && MACHINE_ROUTE_TO_ENGLISH.has(spoken));
  if (englishByEngine) return { do: 'english-translation', note: `${saidOf(spoken, ordered)}: delivered as the engine's English translation.` };
  if (translatorName) return machineTranslates(spoken, ordered, translatorName);
  return personTranslates(spoken, ordered);
}

/** A translator covers the pair: its translation of the engine's transcript in the spoken language. */
export function machineTranslates(spoken: string, ordered: string, translatorName: string): SpokenLanguagePlan & { do: 'machine-translation' } {
  return {
    do: 'machine-translation',
    from: spoken,
    note: `${saidOf(spoken, ordered)}: delivered as ${translatorName}'s machine translation of the engine's ${languageNameOf(spoken)} transcript.`,
  };
}

/** No engine translates the pair (or the translator refused the text): a person translates the engine's transcript. */
export function personTranslates(spoken: string, ordered: string): SpokenLanguagePlan & { do: 'person' } {
  return {
    do: 'person',
    from: spoken,
    note: `${saidOf(spoken, ordered)}: no engine translates the pair; a person translates the engine's ${languageNameOf(spoken)} transcript.`,
  };
}
