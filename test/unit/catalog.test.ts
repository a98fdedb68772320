import { describe, expect, it } from 'vitest';
import { ENUMS } from '../../src/domain/catalog.js';
import { LANGUAGE_LISTED_PRODUCTS, PRODUCTS, languagesByProduct } from '../../src/products/registry.js';
import { ISO_639_1, LANGUAGE_SETS, TURNAROUND_GROUPS, languageName, languageTag, writingDirection } from '../../src/domain/languages.js';

describe('catalog', () => {
  it('holds the spec enumerations exactly', () => {
    expect(ENUMS).toEqual({
      mode: ['test', 'live'],
      text_format: ['clean_verbatim', 'full_verbatim'],
      timestamping: ['not_required', 'every_10_seconds', 'every_30_seconds', 'every_2_minutes', 'change_of_speaker'],
      turnaround_time: ['12_hours', '1_days', '3_days', '5_days'],
      number_of_speakers: ['1_or_2', '3_or_more'],
    });
  });

  it('holds the spec language sets, without duplicates', () => {
    expect(Object.fromEntries(Object.entries(LANGUAGE_SETS).map(([k, v]) => [k, v.length]))).toEqual({ HT: 147, AI: 32, TL: 62, FA: 3 });
    for (const slugs of Object.values(LANGUAGE_SETS)) expect(new Set(slugs).size).toBe(slugs.length);
    expect(LANGUAGE_SETS.FA).toEqual(['english', 'french', 'spanish']);
    expect(LANGUAGE_SETS.HT[0]).toBe('english');
    expect(LANGUAGE_SETS.HT.at(-1)).toBe('zulu');
    expect(LANGUAGE_SETS.TL).toContain('portuguese-portugal');
    expect(LANGUAGE_SETS.AI).not.toContain('chinese-mandarin');
  });

  it('passes every language of sets AI and FA to engines as an ISO 639-1 code', () => {
    for (const slug of [...LANGUAGE_SETS.AI, ...LANGUAGE_SETS.FA]) expect(ISO_639_1[slug], slug).toMatch(/^[a-z]{2}$/);
    expect(new Set(LANGUAGE_SETS.AI.map((slug) => ISO_639_1[slug])).size).toBe(LANGUAGE_SETS.AI.length);
  });

  it('has turnaround groups that are disjoint subsets of set HT', () => {
    const ht = new Set(LANGUAGE_SETS.HT);
    expect(TURNAROUND_GROUPS.T35).toHaveLength(13);
    expect(TURNAROUND_GROUPS.T5).toHaveLength(108);
    for (const slug of [...TURNAROUND_GROUPS.T35, ...TURNAROUND_GROUPS.T5]) expect(ht.has(slug)).toBe(true);
    expect(TURNAROUND_GROUPS.T35.filter((s) => (TURNAROUND_GROUPS.T5 as readonly string[]).includes(s))).toEqual([]);
  });

  /** The fields a product's request takes, with the defaults it fills: parsed from the minimum. */
  const defaults = (key: keyof typeof PRODUCTS, minimum: Record<string, unknown>) => PRODUCTS[key].request.parse(minimum);
  const url = 'https://media.example.com/a.mp3';

  it('gives every product its parameters with the spec defaults', () => {
    const transcription = { text_format: 'clean_verbatim', timestamping: 'not_required', turnaround_time: '5_days', number_of_speakers: '1_or_2' };
    expect(defaults('transcription', { url, language: 'english' })).toEqual({ url, language: 'english', ...transcription, strict: false });
    // Captions: the parameters of operation 1 except strict.
    expect(defaults('captions', { url, language: 'english' })).toEqual({ url, language: 'english', ...transcription });
    expect(() => defaults('captions', { url, language: 'english', strict: true })).toThrow(/unrecognized|strict/i);
    expect(defaults('ai_transcription', { url, language: 'english' })).toEqual({ url, language: 'english' });
    expect(defaults('transcription_proofreading', { audio_url: url, transcription_url: url, language: 'english' })).toEqual({
      audio_url: url,
      transcription_url: url,
      language: 'english',
      text_format: 'clean_verbatim',
      timestamping: 'not_required',
      turnaround_time: '5_days',
      captions: false,
      auto_retranscribe: false,
    });
    expect(defaults('forced_alignment', { audio_url: url, transcription_url: url, language: 'spanish' })).toEqual({
      audio_url: url,
      transcription_url: url,
      language: 'spanish',
    });
    for (const key of ['translation', 'subtitles'] as const) {
      expect(defaults(key, { url, translate_from: 'english', translate_to: 'german' })).toEqual({
        url,
        translate_from: 'english',
        translate_to: 'german',
        additional_review: false,
      });
    }
    expect(defaults('human_ocr', { url, language: 'english' })).toEqual({ url, language: 'english' });
    expect(Object.values(PRODUCTS).map((p) => p.path)).toEqual([
      'transcriptions',
      'ai-transcriptions',
      'transcription-proofreadings',
      'forced-alignments',
      'translations',
      'captions',
      'subtitles',
      'human-ocr',
    ]);
  });

  it.each([
    ['transcription', 'HT'],
    ['ai_transcription', 'AI'],
    ['transcription_proofreading', 'HT'],
    ['forced_alignment', 'FA'],
    ['translation', 'TL'],
    ['captions', 'HT'],
    ['subtitles', 'TL'],
    ['human_ocr', 'HT'],
  ] as const)('%s takes exactly the languages of set %s', (key, set) => {
    const field = key === 'translation' || key === 'subtitles' ? 'translate_from' : 'language';
    const other = key === 'translation' || key === 'subtitles' ? { translate_to: 'zzz' } : {};
    const accepted = (language: string) => {
      const result = PRODUCTS[key].request.safeParse({ url, audio_url: url, transcription_url: url, [field]: language, ...other });
      return result.success || !result.error.issues.some((i) => i.path[0] === field);
    };
    const all = new Set(Object.values(LANGUAGE_SETS).flat());
    for (const language of all) expect(accepted(language), language).toBe((LANGUAGE_SETS[set] as readonly string[]).includes(language));
  });

  it('serves the languages endpoint from the same sets', () => {
    expect(LANGUAGE_LISTED_PRODUCTS).toEqual([
      'transcription',
      'ai_transcription',
      'transcription_proofreading',
      'forced_alignment',
      'translation',
      'captions',
      'subtitles',
    ]);
    const all = languagesByProduct();
    expect(all.transcription!.map((l) => l.slug)).toEqual(LANGUAGE_SETS.HT);
    expect(all.subtitles!.map((l) => l.slug)).toEqual(LANGUAGE_SETS.TL);
    expect(languagesByProduct('forced_alignment')).toEqual({
      forced_alignment: [
        { slug: 'english', name: 'English' },
        { slug: 'french', name: 'French' },
        { slug: 'spanish', name: 'Spanish' },
      ],
    });
  });

  it.each([
    ['english', 'English'],
    ['english-uk', 'English (UK)'],
    ['chinese-mandarin', 'Chinese (Mandarin)'],
    ['haitian-creole', 'Haitian Creole'],
    ['filipino-tagalog', 'Filipino (Tagalog)'],
    ['central-atlas-tamazight-berber', 'Central Atlas Tamazight Berber'],
    ['portuguese-brazil', 'Portuguese (Brazil)'],
  ])('names %s "%s"', (slug, name) => {
    expect(languageName(slug)).toBe(name);
  });
});

describe('language tags and directions', () => {
  it('every language of every set has a valid BCP 47 tag, which result files and the PDF fonts read', () => {
    for (const language of new Set(Object.values(LANGUAGE_SETS).flat())) {
      const tag = languageTag(language);
      expect(tag, language).not.toBe('');
      // Well formed (ICU may map an alias on: tl → fil).
      expect(Intl.getCanonicalLocales(tag), language).toHaveLength(1);
    }
    expect(languageTag('traditional-chinese')).toBe('zh-Hant');
    expect(languageTag('chinese-cantonese')).toBe('yue');
    expect(languageTag('english')).toBe('en');
    expect(languageTag('klingon')).toBe('');
  });

  it('the languages written in Arabic or Hebrew script are right to left', () => {
    for (const language of [
      'arabic',
      'hebrew',
      'urdu',
      'persian-farsi',
      'persian-dari',
      'pashto',
      'sindhi',
      'uyghur',
      'kashmiri',
      'saraiki',
      'punjabi-shahmukhi',
    ]) {
      expect(writingDirection(language), language).toBe('rtl');
    }
    for (const language of ['english', 'punjabi', 'hindi', 'chinese-simplified', 'thai']) expect(writingDirection(language), language).toBe('ltr');
  });
});
