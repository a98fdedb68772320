// The transcript editor's word marks (CodeMirror 6 decorations): each word of the text a mark
// carrying its times (data-start, data-end, seconds) and the engine's confidence (data-confidence),
// mapped through every edit; a word typed or changed is timed at once between its kept neighbours
// (pure/wordTiming.ts); the word being heard carries aria-current; a word a person confirmed is no
// longer doubtful.
import { StateEffect, StateField, type Text } from '@codemirror/state';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';
import { isDoubtful, isTimeMark, LEAD, paragraphsOf, retimeWords, tokensIn, widenToWords, type TimedWord } from './pure/wordTiming.js';

/** A stretch of the text: a word's place. */
export interface Span {
  from: number;
  to: number;
}

interface WordMarks {
  deco: DecorationSet;
  /** The word being heard, marked aria-current. */
  current: Span | null;
}

/** A word's mark, its times kept in its spec (`word`). */
function wordMark(word: TimedWord, current = false): Decoration {
  const { start, end, confidence } = word;
  const attributes: Record<string, string> = { 'data-start': String(start), 'data-end': String(end) };
  if (confidence !== undefined) attributes['data-confidence'] = String(confidence);
  if (current) attributes['aria-current'] = 'true';
  return Decoration.mark({ attributes, class: isDoubtful(confidence) ? 'word doubtful' : 'word', inclusive: false, word });
}

/** The times a word's mark carries. */
export const timesOf = (mark: Decoration): TimedWord => (mark.spec as { word: TimedWord }).word;

export const setWords = StateEffect.define<DecorationSet>();
export const setCurrent = StateEffect.define<Span | null>();
export const confirmWord = StateEffect.define<Span>();

/** The word marks, kept through edits: a changed word is re-timed between its kept neighbours. */
export const wordsField = StateField.define<WordMarks>({
  create: () => ({ deco: Decoration.none, current: null }),
  update(value, tr) {
    let { deco, current } = value;
    for (const e of tr.effects) if (e.is(setWords)) ({ deco, current } = { deco: e.value, current: null });
    if (tr.docChanged) {
      deco = deco.map(tr.changes);
      if (current) current = { from: tr.changes.mapPos(current.from, 1), to: tr.changes.mapPos(current.to, -1) };
      tr.changes.iterChangedRanges((_fa, _ta, fromB, toB) => {
        deco = retime(deco, tr.state.doc, fromB, toB);
      });
    }
    for (const e of tr.effects) {
      if (e.is(setCurrent)) ({ deco, current } = moveCurrent(deco, current, e.value));
      if (e.is(confirmWord)) deco = confirm(deco, e.value);
    }
    return { deco, current };
  },
  provide: (f) => EditorView.decorations.from(f, (v) => v.deco),
});

function markAt(deco: DecorationSet, from: number, to: number): TimedWord | null {
  let found: TimedWord | null = null;
  deco.between(from, to, (f, t, d) => {
    if (f === from && t === to) {
      found = timesOf(d);
      return false;
    }
    return undefined;
  });
  return found;
}

/** The mark at `span` replaced by `word`'s. */
const remark = (deco: DecorationSet, { from, to }: Span, mark: Decoration): DecorationSet =>
  deco.update({ filter: (f, t) => !(f === from && t === to), filterFrom: from, filterTo: to, add: [mark.range(from, to)] });

function moveCurrent(deco: DecorationSet, current: Span | null, next: Span | null): WordMarks {
  if (current) {
    const word = markAt(deco, current.from, current.to);
    if (word) deco = remark(deco, current, wordMark(word));
  }
  if (next) {
    const word = markAt(deco, next.from, next.to);
    if (!word) return { deco, current: null };
    deco = remark(deco, next, wordMark(word, true));
  }
  return { deco, current: next };
}

/** A word a person confirmed: its times stay, it is no longer doubtful. */
function confirm(deco: DecorationSet, span: Span): DecorationSet {
  const word = markAt(deco, span.from, span.to);
  if (!word) return deco;
  return remark(deco, span, wordMark({ ...word, confidence: undefined }));
}

/** The words of the changed stretch [from, to) (widened to whole words) timed again (`retimeWords`). */
function retime(deco: DecorationSet, doc: Text, from: number, to: number): DecorationSet {
  const base = Math.max(0, from - 200);
  const [a, b] = widenToWords(doc.sliceString(base, Math.min(doc.length, to + 200)), from - base, to - base);
  const [wFrom, wTo] = [base + a, base + b];
  // The timed words the stretch held: a word typed or changed stands for those it replaced.
  const replaced: TimedWord[] = [];
  deco.between(wFrom, wTo, (f, t, d) => {
    const word = timesOf(d);
    if (f < wTo && t > wFrom) for (const old of word.origins ?? [word]) if (!replaced.includes(old)) replaced.push(old);
  });
  deco = deco.update({ filter: (f, t) => f < t && (t <= wFrom || f >= wTo), filterFrom: wFrom, filterTo: wTo });
  let prev: TimedWord | null = null;
  deco.between(Math.max(0, wFrom - 2000), wFrom, (_f, t, d) => {
    if (t <= wFrom) prev = timesOf(d);
  });
  let next: TimedWord | null = null;
  deco.between(wTo, Math.min(doc.length, wTo + 2000), (f, _t, d) => {
    if (f >= wTo && !next) next = timesOf(d);
  });
  // The words now there, after their paragraph's lead when the stretch starts a paragraph.
  const line = doc.lineAt(wFrom);
  const paragraphStart = line.number === 1 || doc.line(line.number - 1).text.trim() === '';
  let start = wFrom;
  if (paragraphStart) {
    const lead = LEAD.exec(line.text);
    start = Math.max(wFrom, line.from + (lead ? lead[0].length : 0));
  }
  const words = tokensIn(doc.sliceString(start, wTo), 0, wTo - start)
    .map((w) => ({ ...w, from: w.from + start, to: w.to + start }))
    .filter((w) => !isTimeMark(w.text));
  if (!words.length) return deco;
  const add = retimeWords(words, replaced, prev, next).map(({ token, word }) => wordMark(word).range(token.from, token.to));
  return deco.update({ add, sort: true });
}

/** Marks for the service's timed segments, paragraph by paragraph (a paragraph whose words differ stays unmarked). */
export function marksFor(text: string, segments: readonly { words?: readonly TimedWord[] }[]): DecorationSet {
  const ranges = [];
  const paragraphs = paragraphsOf(text);
  for (const [i, p] of paragraphs.entries()) {
    const words = segments[i]?.words ?? [];
    const found = tokensIn(text, p.wordsFrom, p.to);
    if (found.length !== words.length) continue;
    for (const [n, t] of found.entries()) {
      const { start, end, confidence } = words[n]!;
      ranges.push(wordMark({ start, end, confidence, text: t.text }).range(t.from, t.to));
    }
  }
  return Decoration.set(ranges, true);
}
