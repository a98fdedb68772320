import { describe, expect, it } from 'vitest';
import { MACHINE_ROUTE_TO_ENGLISH, personTranslates, spokenLanguagePlan } from '../../src/orders/spokenLanguage.js';

describe("an AI order's language policy", () => {
  it('delivers the same language as heard; asks again in the ordered one when the engine names none', () => {
    expect(spokenLanguagePlan({ language: 'french' }, 'fr')).toEqual({ do: 'as-heard' });
    expect(spokenLanguagePlan({ language: 'fr' }, 'fr', 'Apertium')).toEqual({ do: 'as-heard' });
    expect(spokenLanguagePlan({}, 'de')).toEqual({ do: 'transcribe-as-ordered', note: 'The engine did not name the spoken language: transcribed as german.' });
  });

  it('takes a plausible ordered language over a likelier heard one (synthetic, accented speech), not an implausible one', () => {
    const unsure = { language: 'es', languageProbabilities: { es: 0.31, th: 0.26 } };
    expect(spokenLanguagePlan(unsure, 'th')).toEqual({
      do: 'transcribe-as-ordered',
      note: 'The engine was unsure of the spoken language (spanish 0.31, thai 0.26): transcribed as thai, as ordered.',
    });
    expect(spokenLanguagePlan({ language: 'es', languageProbabilities: { es: 0.95, th: 0.01 } }, 'th').do).toBe('person');
  });

  it("English is the engine's translation; another pair a covering translator's, else a person's", () => {
    expect(spokenLanguagePlan({ language: 'spanish' }, 'en')).toEqual({
      do: 'english-translation',
      note: "The file is spoken in spanish, the order asked for english: delivered as the engine's English translation.",
    });
    expect(spokenLanguagePlan({ language: 'en' }, 'es', 'Apertium')).toEqual({
      do: 'machine-translation',
      from: 'en',
      note: "The file is spoken in english, the order asked for spanish: delivered as Apertium's machine translation of the engine's english transcript.",
    });
    expect(spokenLanguagePlan({ language: 'es' }, 'fr')).toEqual(personTranslates('es', 'fr'));
    expect(spokenLanguagePlan({ language: 'french' }, 'en', 'a server')).toEqual({
      do: 'english-translation',
      note: "The file is spoken in french, the order asked for english: delivered as the engine's English translation.",
    });
    expect(personTranslates('es', 'fr').note).toBe(
      "The file is spoken in spanish, the order asked for french: no engine translates the pair; a person translates the engine's spanish transcript.",
    );
  });

  it('takes the route to English measured better for the pair: Spanish is transcribed and machine-translated where a translator covers it', () => {
    expect(MACHINE_ROUTE_TO_ENGLISH.has('es')).toBe(true);
    expect(spokenLanguagePlan({ language: 'spanish' }, 'en', 'apertium')).toEqual({
      do: 'machine-translation',
      from: 'es',
      note: "The file is spoken in spanish, the order asked for english: delivered as apertium's machine translation of the engine's spanish transcript.",
    });
  });
});
