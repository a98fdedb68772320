import { describe, expect, it } from 'vitest';
import { ENUMS, LANGUAGE_LISTED_PRODUCTS, PRODUCTS, languagesByProduct, languageSet } from '../../src/domain/catalog.js';
import { LANGUAGE_SETS, TURNAROUND_GROUPS, languageName } from '../../src/domain/languages.js';

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

  it('has turnaround groups that are disjoint subsets of set HT', () => {
    const ht = languageSet('HT');
    expect(TURNAROUND_GROUPS.T35).toHaveLength(13);
    expect(TURNAROUND_GROUPS.T5).toHaveLength(108);
    for (const slug of [...TURNAROUND_GROUPS.T35, ...TURNAROUND_GROUPS.T5]) expect(ht.has(slug)).toBe(true);
    expect(TURNAROUND_GROUPS.T35.filter((s) => (TURNAROUND_GROUPS.T5 as readonly string[]).includes(s))).toEqual([]);
  });

  it('gives every product its parameters with the spec defaults', () => {
    const t = PRODUCTS.transcription.params;
    expect(Object.keys(t)).toEqual(['url', 'language', 'comment', 'from', 'till', 'text_format', 'timestamping', 'turnaround_time', 'number_of_speakers', 'callback_url', 'strict']);
    expect(t.text_format).toMatchObject({ default: 'clean_verbatim' });
    expect(t.timestamping).toMatchObject({ default: 'not_required' });
    expect(t.turnaround_time).toMatchObject({ default: '5_days' });
    expect(t.number_of_speakers).toMatchObject({ default: '1_or_2' });
    expect(t.strict).toMatchObject({ kind: 'boolean', default: false });
    // Captions: the parameters of operation 1 except strict.
    expect(Object.keys(PRODUCTS.captions.params)).toEqual(Object.keys(t).filter((k) => k !== 'strict'));
    expect(PRODUCTS.transcription_proofreading.params.auto_retranscribe).toMatchObject({ default: false });
    expect(PRODUCTS.translation.params.additional_review).toMatchObject({ default: false });
    expect(Object.keys(PRODUCTS.forced_alignment.params)).toEqual(['audio_url', 'transcription_url', 'language', 'callback_url']);
    expect(Object.keys(PRODUCTS.human_ocr.params)).toEqual(['url', 'language', 'callback_url']);
    expect(Object.values(PRODUCTS).map((p) => p.path)).toEqual([
      'transcriptions', 'ai-transcriptions', 'transcription-proofreadings', 'forced-alignments', 'translations', 'captions', 'subtitles', 'human-ocr',
    ]);
  });

  it('serves the languages endpoint from the same sets', () => {
    expect(LANGUAGE_LISTED_PRODUCTS).toEqual(['transcription', 'ai_transcription', 'transcription_proofreading', 'forced_alignment', 'translation', 'captions', 'subtitles']);
    const all = languagesByProduct();
    expect(all.transcription!.map((l) => l.slug)).toEqual(LANGUAGE_SETS.HT);
    expect(all.subtitles!.map((l) => l.slug)).toEqual(LANGUAGE_SETS.TL);
    expect(languagesByProduct('forced_alignment')).toEqual({
      forced_alignment: [{ slug: 'english', name: 'English' }, { slug: 'french', name: 'French' }, { slug: 'spanish', name: 'Spanish' }],
    });
  });

  it.each([
    ['english', 'English'], ['english-uk', 'English (UK)'], ['chinese-mandarin', 'Chinese (Mandarin)'], ['haitian-creole', 'Haitian Creole'],
    ['filipino-tagalog', 'Filipino (Tagalog)'], ['central-atlas-tamazight-berber', 'Central Atlas Tamazight Berber'], ['portuguese-brazil', 'Portuguese (Brazil)'],
  ])('names %s "%s"', (slug, name) => {
    expect(languageName(slug)).toBe(name);
  });
});
