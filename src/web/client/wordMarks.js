// The transcript editor's word marks (CodeMirror 6 decorations): each word of the text a mark
// carrying its times (data-start, data-end, seconds) and the engine's confidence (data-confidence),
// mapped through every edit; a word typed or changed is timed at once between its kept neighbours
// (the service keeps the same times across saves: src/domain/workbench/wordTimes.ts); the word being
// heard carries aria-current; a word a person confirmed is no longer doubtful.
import { StateEffect, StateField } from '@codemirror/state';
import { Decoration, EditorView } from '@codemirror/view';

export const DOUBTFUL = 0.5;
/** A paragraph's lead: an optional [hh:mm:ss] mark, then an optional `Label: ` (as the service reads it). */
export const LEAD = /^(\[\d{1,2}:\d{2}:\d{2}\]\s+)?(?:([\p{L}\p{N}][\p{L}\p{N} .'-]{0,40}):\s+)?/u;

const round = (seconds) => Math.round(seconds * 1000) / 1000;

/**
 * A word's mark. `word`: its times, the engine's confidence, its text when marked, and, for a word
 * typed or changed, the timed words it replaced (`origins`): typing on into the next word and a space
 * then finds them again, so a word merged for a moment gets its own times back.
 */
function wordMark({ start, end, confidence, text, origins }, current = false) {
  const attributes = { 'data-start': String(start), 'data-end': String(end) };
  if (confidence !== undefined) attributes['data-confidence'] = String(confidence);
  if (current) attributes['aria-current'] = 'true';
  const doubtful = confidence !== undefined && confidence < DOUBTFUL;
  return Decoration.mark({ attributes, class: doubtful ? 'word doubtful' : 'word', inclusive: false, word: { start, end, confidence, text, origins } });
}

/** The paragraphs of `text`: where each starts, and where its words start after the lead. */
export function paragraphsOf(text) {
  const starts = [0];
  for (const m of text.matchAll(/\n[ \t]*\n\s*/g)) starts.push(m.index + m[0].length);
  return starts.map((from, i) => {
    const to = i + 1 < starts.length ? Math.max(from, text.lastIndexOf('\n', starts[i + 1] - 1)) : text.length;
    const lead = LEAD.exec(text.slice(from, to));
    return { from, to, wordsFrom: from + (lead ? lead[0].length : 0), label: lead?.[2] };
  });
}

/** The words (non-space runs) of text[from, to), with their offsets. */
function tokens(text, from, to) {
  const out = [];
  for (const m of text.slice(from, to).matchAll(/\S+/g)) out.push({ from: from + m.index, to: from + m.index + m[0].length, text: m[0] });
  return out;
}

export const setWords = StateEffect.define();
export const setCurrent = StateEffect.define();
export const confirmWord = StateEffect.define();

/** The word marks, kept through edits: a changed word is re-timed between its kept neighbours. */
export const wordsField = StateField.define({
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

function markAt(deco, from, to) {
  let found = null;
  deco.between(from, to, (f, t, d) => {
    if (f === from && t === to) {
      found = d.spec.word;
      return false;
    }
  });
  return found;
}

function moveCurrent(deco, current, next) {
  if (current) {
    const word = markAt(deco, current.from, current.to);
    if (word)
      deco = deco.update({
        filter: (f, t) => !(f === current.from && t === current.to),
        filterFrom: current.from,
        filterTo: current.to,
        add: [wordMark(word).range(current.from, current.to)],
      });
  }
  if (next) {
    const word = markAt(deco, next.from, next.to);
    if (!word) return { deco, current: null };
    deco = deco.update({
      filter: (f, t) => !(f === next.from && t === next.to),
      filterFrom: next.from,
      filterTo: next.to,
      add: [wordMark(word, true).range(next.from, next.to)],
    });
  }
  return { deco, current: next };
}

/** A word a person confirmed: its times stay, it is no longer doubtful. */
function confirm(deco, { from, to }) {
  const word = markAt(deco, from, to);
  if (!word) return deco;
  return deco.update({
    filter: (f, t) => !(f === from && t === to),
    filterFrom: from,
    filterTo: to,
    add: [wordMark({ ...word, confidence: undefined }).range(from, to)],
  });
}

/** Words compare as the same word case and surrounding punctuation aside (as the service's `comparable`). */
const comparable = (word) => word.toLocaleLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/**
 * The words of the changed stretch [from, to) (widened to whole words) timed again. A word still
 * there (the same word, in order, among those the stretch replaced) keeps its times; the others take
 * the span of the words they replaced, else the gap between their kept neighbours.
 */
function retime(deco, doc, from, to) {
  const text = doc.sliceString(Math.max(0, from - 200), Math.min(doc.length, to + 200));
  const base = Math.max(0, from - 200);
  // Widen to whole words.
  let a = from - base;
  while (a > 0 && !/\s/.test(text[a - 1])) a--;
  let b = to - base;
  while (b < text.length && !/\s/.test(text[b])) b++;
  const [wFrom, wTo] = [base + a, base + b];
  // The timed words the stretch held: a word typed or changed stands for those it replaced.
  const replaced = [];
  deco.between(wFrom, wTo, (f, t, d) => {
    if (f < wTo && t > wFrom) for (const old of d.spec.word.origins ?? [d.spec.word]) if (!replaced.includes(old)) replaced.push(old);
  });
  deco = deco.update({ filter: (f, t) => f < t && (t <= wFrom || f >= wTo), filterFrom: wFrom, filterTo: wTo });
  let prev = null;
  deco.between(Math.max(0, wFrom - 2000), wFrom, (f, t, d) => {
    if (t <= wFrom) prev = d.spec.word;
  });
  let next = null;
  deco.between(wTo, Math.min(doc.length, wTo + 2000), (f, _t, d) => {
    if (f >= wTo && !next) next = d.spec.word;
  });
  // The words now there, after their paragraph's lead when the stretch starts a paragraph.
  const line = doc.lineAt(wFrom);
  const paragraphStart = line.number === 1 || doc.line(line.number - 1).text.trim() === '';
  let start = wFrom;
  if (paragraphStart) {
    const lead = LEAD.exec(line.text);
    start = Math.max(wFrom, line.from + (lead ? lead[0].length : 0));
  }
  const words = tokens(doc.sliceString(start, wTo), 0, wTo - start)
    .map((w) => ({ ...w, from: w.from + start, to: w.to + start }))
    .filter((w) => !/^\[\d{1,2}:\d{2}:\d{2}\]$/.test(w.text));
  if (!words.length) return deco;
  // Kept: each word whose text is a replaced word's, in order.
  const kept = [];
  let r = 0;
  for (const w of words) {
    const at = replaced.findIndex((old, i) => i >= r && old.text !== undefined && comparable(old.text) === comparable(w.text));
    kept.push(at);
    if (at >= 0) r = at + 1;
  }
  const add = [];
  for (let i = 0; i < words.length;) {
    if (kept[i] >= 0) {
      const old = replaced[kept[i]];
      add.push(
        wordMark({ start: old.start, end: old.end, confidence: words[i].text === old.text ? old.confidence : undefined, text: words[i].text }).range(
          words[i].from,
          words[i].to,
        ),
      );
      i++;
      continue;
    }
    // A run of new words: between the word kept before it and the one after it.
    let j = i;
    while (j < words.length && kept[j] < 0) j++;
    const before = i > 0 ? replaced[kept[i - 1]] : prev;
    const after = j < words.length ? replaced[kept[j]] : next;
    const between = replaced.slice(i > 0 ? kept[i - 1] + 1 : 0, j < words.length ? kept[j] : replaced.length);
    add.push(...spreadRun(words.slice(i, j), before, after, between));
    i = j;
  }
  return deco.update({ add, sort: true });
}

/** New words laid over the span of the words they replaced, else the gap between their neighbours, each by its share of the letters. */
function spreadRun(words, prev, next, replaced) {
  let lower = prev ? prev.end : 0;
  let upper = next ? next.start : lower;
  if (replaced.length) {
    lower = Math.max(lower, Math.min(...replaced.map((w) => w.start)));
    upper = Math.min(Math.max(upper, lower), Math.max(...replaced.map((w) => w.end)));
  }
  if (upper - lower < 0.1 * words.length && prev && next) {
    lower = Math.min(lower, (prev.start + prev.end) / 2);
    upper = Math.max(upper, (next.start + next.end) / 2);
  }
  upper = Math.max(upper, lower);
  const letters = words.map((w) => Math.max(1, [...w.text].length));
  const total = letters.reduce((x, y) => x + y, 0);
  let at = lower;
  return words.map((w, i) => {
    const length = ((upper - lower) * letters[i]) / total;
    const mark = wordMark({ start: round(at), end: round(i === words.length - 1 ? upper : at + length), text: w.text, origins: replaced }).range(w.from, w.to);
    at += length;
    return mark;
  });
}

/** Marks for the service's timed segments, paragraph by paragraph (a paragraph whose words differ stays unmarked). */
export function marksFor(text, segments) {
  const ranges = [];
  const paragraphs = paragraphsOf(text);
  paragraphs.forEach((p, i) => {
    const words = segments[i]?.words ?? [];
    const found = tokens(text, p.wordsFrom, p.to);
    if (found.length !== words.length) return;
    found.forEach((t, n) =>
      ranges.push(wordMark({ start: words[n].start, end: words[n].end, confidence: words[n].confidence, text: t.text }).range(t.from, t.to)),
    );
  });
  return Decoration.set(ranges, true);
}
