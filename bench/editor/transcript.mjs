// A two-hour interview, made up but shaped like an engine's draft: 600 paragraphs, 18,000 words,
// every word timed in seconds (monotonic, about 0.4 s a word with a pause between paragraphs) and
// with a confidence between 0.3 and 1.0 (about one word in nine under 0.5, the doubtful ones).
// Seeded, so every run and every page gets the same transcript. Also bundled into the pages (layout).

const VOCABULARY = (
  'the a and of to in that it is was for on with as he she they we you I at be this have from or one had by but not what all were ' +
  'when there can an your which their said if do will each about how up out them then many some so these would other into has ' +
  'more her two like him see time could no make than first been its who now people my made over did down only way find use may ' +
  'water long little very after words called just where most know get through back much before go good new write our used me man ' +
  'too any day same right look think also around another came come work three word must because does part even place well such ' +
  'here take why things help put years different away again off went old number great tell men say small every found still ' +
  'between name should home big give air line set own under read last never us left end along while might next sound below saw ' +
  'something thought both few those always looked show large often together asked house world going want school important until ' +
  'form food keep children feet land side without boy once animals life enough took sometimes four head above kind began almost ' +
  'live page got earth need far hand high year mother light parts country father let night following picture being study second ' +
  'eyes soon times story boys since white days ever paper hard near sentence better best across during today others however sure ' +
  'means knew its try told young miles sun ways thing whole hear example heard several change answer room sea against top turned ' +
  'learn point city play toward five using himself usually money seen car morning given trees hundred quarterly invoice warehouse'
).split(' ');

/** mulberry32: a small seeded PRNG, numbers in [0, 1). */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** { paragraphs: [{ speaker, words: [{ text, start, end, confidence }] }] }, times in seconds. */
export function generateTranscript({ paragraphs = 600, words = 18_000, seed = 43 } = {}) {
  const rnd = random(seed);
  const mean = words / paragraphs;
  // Paragraph lengths in pairs (mean + d, mean - d), so they vary and still add up to `words`.
  const lengths = [];
  for (let p = 0; p < paragraphs; p += 2) {
    const d = Math.floor(rnd() * mean * 0.6);
    lengths.push(mean + d, mean - d);
  }
  let cs = 0; // time in centiseconds, kept whole so times stay exactly monotonic
  let speaker = 1;
  const out = [];
  for (let p = 0; p < paragraphs; p++) {
    if (p > 0) speaker = ((speaker + Math.floor(rnd() * 2)) % 3) + 1; // another of three speakers
    const list = [];
    for (let w = 0; w < lengths[p]; w++) {
      const start = cs + 1 + Math.floor(rnd() * 6); // a short gap before the word
      const end = start + 25 + Math.floor(rnd() * 20); // 0.25–0.44 s spoken
      const confidence = Math.round((1 - 0.7 * rnd() ** 3) * 100) / 100; // 0.3–1.0, mostly high
      list.push({ text: VOCABULARY[Math.floor(rnd() * VOCABULARY.length)], start: start / 100, end: end / 100, confidence });
      cs = end;
    }
    cs += 20 + Math.floor(rnd() * 80); // a pause between paragraphs
    out.push({ speaker: `Speaker ${speaker}`, words: list });
  }
  return { paragraphs: out };
}

const clock = (seconds) => new Date(Math.floor(seconds) * 1000).toISOString().slice(11, 19);

/**
 * The editor's text, one line per paragraph (`[hh:mm:ss] Speaker N: words…`), and every word with
 * its offsets in that text: { text, lines: [{ from, prefix }], words: [{ from, to, text, start, end, confidence, line }] }.
 */
export function layout(transcript) {
  let text = '';
  const lines = [];
  const words = [];
  transcript.paragraphs.forEach((paragraph, line) => {
    if (line > 0) text += '\n';
    const prefix = `[${clock(paragraph.words[0]?.start ?? 0)}] ${paragraph.speaker}: `;
    lines.push({ from: text.length, prefix });
    text += prefix;
    paragraph.words.forEach((word, i) => {
      if (i > 0) text += ' ';
      words.push({ ...word, from: text.length, to: text.length + word.text.length, line });
      text += word.text;
    });
  });
  return { text, lines, words };
}
