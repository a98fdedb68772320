// The spec's language sets, as slugs. Sets grow over time: add slugs here and both the
// validation and GET /api/v4/languages pick them up.

const words = (list: string): readonly string[] => Object.freeze(list.trim().split(/\s+/));

export const LANGUAGE_SETS = {
  HT: words(`english afrikaans akan albanian amharic arabic armenian assamese awadhi aymara
    azerbaijani bambara bengali bengali-sylheti bhojpuri bosnian bulgarian bundeli burmese catalan
    central-atlas-tamazight-berber chhattisgarhi chichewa-nyanja chinese-cantonese chinese-gan
    chinese-hakka chinese-hokkien chinese-mandarin chinese-min-dong chinese-simplified
    chinese-traditional chinese-wu chinese-xiang chittagonian croatian czech danish dogri dutch
    english-uk ewe filipino filipino-bikol filipino-cebuano filipino-hiligaynon filipino-ilocano
    filipino-tagalog filipino-waray finnish french french-canadian fulani georgian german greek
    guarani gujarati haitian-creole haryanvi hausa hebrew hindi igbo indonesian indonesian-javanese
    italian jamaican-patois-jamaican-creole japanese kiche-quiche kabyle-berber kannada kanuri
    kashmiri kazakh khmer kinyarwanda kirundi konkani korean kurdish kyrgyz lao lingala lithuanian
    luganda-ganda magahi maithili malagasy malay malayalam marathi marwari-rajasthani mongolian
    nahuatl nepali norwegian odia-oriya oromo-afaan-oromo pashto persian-dari persian-farsi polish
    portuguese portuguese-brazil punjabi punjabi-shahmukhi quechua romanian russian sanskrit santali
    saraiki serbian sesotho-southern-sotho setswana-tswana shona sindhi sinhala slovak slovenian
    somali spanish spanish-latin-america sundanese swahili swedish tachelhit-shilha-berber tajik
    tamil telugu thai tibetan-standard-tibetan tigrinya tok-pisin turkish turkmen twi ukrainian urdu
    uyghur uzbek vietnamese wolof xhosa yoruba zhuang zulu`),
  AI: words(`english arabic azerbaijani bulgarian catalan czech danish dutch finnish french german
    greek hebrew hindi indonesian italian japanese korean lithuanian polish portuguese romanian
    russian serbian slovak slovenian spanish swedish thai turkish ukrainian urdu`),
  TL: words(`english albanian arabic armenian azerbaijani bengali bosnian bulgarian catalan
    simplified-chinese traditional-chinese croatian czech danish dutch estonian filipino finnish
    french french-canadian georgian german greek hebrew hungarian indian-gujarati indian-hindi
    indian-tamil indonesian italian japanese korean kurdish kyrgyz latvian lithuanian luxembourgish
    macedonian malay nepali norwegian pashto persian-farsi polish portuguese portuguese-brazil
    portuguese-portugal romanian russian serbian slovak slovenian somali spanish-latin spanish
    swahili swedish thai turkish ukrainian urdu vietnamese`),
  FA: words('english french spanish'),
} as const;

export type LanguageSetName = keyof typeof LANGUAGE_SETS;

/** Turnaround groups of Set HT languages: T35 accepts 3 or 5 days, T5 only 5 days. */
export const TURNAROUND_GROUPS = {
  T35: words(`catalan chinese-mandarin dutch filipino filipino-tagalog french indonesian portuguese
    portuguese-brazil swahili swedish turkish vietnamese`),
  T5: words(`afrikaans akan albanian amharic armenian assamese awadhi aymara azerbaijani bambara
    bengali-sylheti bhojpuri bosnian bulgarian bundeli burmese central-atlas-tamazight-berber
    chhattisgarhi chichewa-nyanja chinese-cantonese chinese-gan chinese-hakka chinese-hokkien
    chinese-min-dong chinese-wu chinese-xiang chittagonian croatian dogri ewe filipino-bikol
    filipino-cebuano filipino-hiligaynon filipino-ilocano filipino-waray french-canadian fulani
    georgian greek guarani gujarati haitian-creole haryanvi hausa hebrew igbo indonesian-javanese
    jamaican-patois-jamaican-creole kiche-quiche kabyle-berber kannada kanuri kashmiri kazakh khmer
    kinyarwanda kirundi kurdish kyrgyz lao lingala lithuanian luganda-ganda magahi maithili malagasy
    malayalam marathi marwari-rajasthani mongolian nahuatl nepali odia-oriya oromo-afaan-oromo pashto
    persian-dari persian-farsi punjabi quechua romanian russian santali saraiki serbian
    sesotho-southern-sotho setswana-tswana shona sindhi sinhala somali sundanese
    tachelhit-shilha-berber tajik tamil telugu tibetan-standard-tibetan tigrinya tok-pisin turkmen
    twi urdu uyghur uzbek wolof xhosa yoruba zhuang zulu`),
} as const;

/** Display names that plain title-casing of the slug would get wrong. */
const NAME_OVERRIDES: Record<string, string> = {
  'english-uk': 'English (UK)',
  'french-canadian': 'French (Canadian)',
  'portuguese-brazil': 'Portuguese (Brazil)',
  'portuguese-portugal': 'Portuguese (Portugal)',
  'spanish-latin-america': 'Spanish (Latin America)',
  'spanish-latin': 'Spanish (Latin America)',
  'simplified-chinese': 'Chinese (Simplified)',
  'traditional-chinese': 'Chinese (Traditional)',
  'kiche-quiche': "K'iche' (Quiché)",
  'chichewa-nyanja': 'Chichewa (Nyanja)',
  'odia-oriya': 'Odia (Oriya)',
  'oromo-afaan-oromo': 'Oromo (Afaan Oromo)',
  'sesotho-southern-sotho': 'Sesotho (Southern Sotho)',
  'setswana-tswana': 'Setswana (Tswana)',
  'luganda-ganda': 'Luganda (Ganda)',
  'marwari-rajasthani': 'Marwari (Rajasthani)',
  'jamaican-patois-jamaican-creole': 'Jamaican Patois (Jamaican Creole)',
  'tibetan-standard-tibetan': 'Tibetan (Standard Tibetan)',
  'tachelhit-shilha-berber': 'Tachelhit (Shilha Berber)',
  'persian-dari': 'Persian (Dari)',
  'persian-farsi': 'Persian (Farsi)',
  'punjabi-shahmukhi': 'Punjabi (Shahmukhi)',
};

const PARENTHESISED_PREFIXES = ['chinese', 'filipino', 'indian', 'bengali', 'indonesian'];

export function languageName(slug: string): string {
  const override = NAME_OVERRIDES[slug];
  if (override) return override;
  const titled = slug.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  const [first, ...rest] = titled;
  if (rest.length > 0 && PARENTHESISED_PREFIXES.includes(slug.split('-')[0]!)) {
    return `${first} (${rest.join(' ')})`;
  }
  return titled.join(' ');
}

/** The ISO 639-1 code of a language named either way ('english' or 'en', as engines answer); undefined when unknown. */
export function languageCodeOf(language: string | undefined): string | undefined {
  const key = language?.trim().toLowerCase() ?? '';
  return ISO_639_1[key] ?? (Object.values(ISO_639_1).includes(key) ? key : undefined);
}

/** The catalog's name of an ISO 639-1 code ('en' → 'english'); the code itself when not listed. */
export function languageNameOf(code: string): string {
  return Object.entries(ISO_639_1).find(([, c]) => c === code)?.[0] ?? code;
}

/** Languages of the sets written right to left (Arabic, Hebrew and Perso-Arabic scripts). */
const RIGHT_TO_LEFT = /^(arabic|hebrew|persian|urdu|pashto|sindhi|uyghur|yiddish|dhivehi|kashmiri|saraiki|balochi|punjabi-shahmukhi)(-|$)/;

/**
 * BCP 47 tags of the sets' languages (the slugs that are not plain ISO 639-1 names), for the
 * result files that say their language (HTML `lang`, DOCX `w:lang`, TTML `xml:lang`) and the PDF
 * renderer's choice of glyph forms (Japanese, Korean, Simplified and Traditional Chinese).
 */
const LANGUAGE_TAGS: Readonly<Record<string, string>> = Object.fromEntries(
  words(`afrikaans=af akan=ak albanian=sq amharic=am armenian=hy assamese=as awadhi=awa aymara=ay bambara=bm
    bengali=bn bengali-sylheti=syl bhojpuri=bho bosnian=bs bundeli=bns burmese=my
    central-atlas-tamazight-berber=tzm chhattisgarhi=hne chichewa-nyanja=ny chinese-cantonese=yue
    chinese-gan=gan chinese-hakka=hak chinese-hokkien=nan chinese-mandarin=zh chinese-min-dong=cdo
    chinese-simplified=zh-Hans chinese-traditional=zh-Hant chinese-wu=wuu chinese-xiang=hsn
    chittagonian=ctg croatian=hr dogri=doi english-uk=en-GB estonian=et ewe=ee filipino=fil
    filipino-bikol=bik filipino-cebuano=ceb filipino-hiligaynon=hil filipino-ilocano=ilo
    filipino-tagalog=tl filipino-waray=war french-canadian=fr-CA fulani=ff georgian=ka guarani=gn
    gujarati=gu haitian-creole=ht haryanvi=bgc hausa=ha hungarian=hu igbo=ig indian-gujarati=gu-IN
    indian-hindi=hi-IN indian-tamil=ta-IN indonesian-javanese=jv jamaican-patois-jamaican-creole=jam
    kiche-quiche=quc kabyle-berber=kab kannada=kn kanuri=kr kashmiri=ks kazakh=kk khmer=km
    kinyarwanda=rw kirundi=rn konkani=kok kurdish=ku kyrgyz=ky lao=lo latvian=lv lingala=ln
    luganda-ganda=lg luxembourgish=lb macedonian=mk magahi=mag maithili=mai malagasy=mg malay=ms
    malayalam=ml marathi=mr marwari-rajasthani=mwr mongolian=mn nahuatl=nah nepali=ne norwegian=no
    odia-oriya=or oromo-afaan-oromo=om pashto=ps persian-dari=prs persian-farsi=fa
    portuguese-brazil=pt-BR portuguese-portugal=pt-PT punjabi=pa punjabi-shahmukhi=pa-Arab quechua=qu
    sanskrit=sa santali=sat saraiki=skr sesotho-southern-sotho=st setswana-tswana=tn shona=sn
    simplified-chinese=zh-Hans sindhi=sd sinhala=si somali=so spanish-latin=es-419
    spanish-latin-america=es-419 sundanese=su swahili=sw tachelhit-shilha-berber=shi tajik=tg tamil=ta
    telugu=te tibetan-standard-tibetan=bo tigrinya=ti tok-pisin=tpi traditional-chinese=zh-Hant
    turkmen=tk twi=tw uyghur=ug uzbek=uz vietnamese=vi wolof=wo xhosa=xh yoruba=yo zhuang=za zulu=zu`).map((pair) => pair.split('=')),
);

/** The BCP 47 tag of a language slug ('traditional-chinese' → 'zh-Hant'); '' when unknown. */
export function languageTag(language: string | undefined): string {
  const key = language?.trim().toLowerCase() ?? '';
  return LANGUAGE_TAGS[key] ?? languageCodeOf(key) ?? '';
}

/** The writing direction of a language slug, for the result files that say it. */
export function writingDirection(language: string | undefined): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.test((language ?? '').toLowerCase()) ? 'rtl' : 'ltr';
}

/** ISO 639-1 codes of the languages speech engines are asked for (sets AI and FA). */
export const ISO_639_1: Readonly<Record<string, string>> = {
  english: 'en',
  arabic: 'ar',
  azerbaijani: 'az',
  bulgarian: 'bg',
  catalan: 'ca',
  czech: 'cs',
  danish: 'da',
  dutch: 'nl',
  finnish: 'fi',
  french: 'fr',
  german: 'de',
  greek: 'el',
  hebrew: 'he',
  hindi: 'hi',
  indonesian: 'id',
  italian: 'it',
  japanese: 'ja',
  korean: 'ko',
  lithuanian: 'lt',
  polish: 'pl',
  portuguese: 'pt',
  romanian: 'ro',
  russian: 'ru',
  serbian: 'sr',
  slovak: 'sk',
  slovenian: 'sl',
  spanish: 'es',
  swedish: 'sv',
  thai: 'th',
  turkish: 'tr',
  ukrainian: 'uk',
  urdu: 'ur',
};
