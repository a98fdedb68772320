// The transcript editor on CodeMirror 6 (a view that draws only what is on screen): each word of the
// text a mark carrying its times (data-start, data-end, seconds) and the engine's confidence
// (data-confidence); a word typed or changed is timed at once between its kept neighbours (the
// service keeps the same times across saves: src/domain/workbench/wordTimes.ts). Clicking a word
// plays from it; while the media plays, the word heard carries aria-current. Speakers are chosen per
// paragraph and named once in a list. The form's textarea stays the value the page submits.
import { EditorSelection, StateEffect, StateField } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, WidgetType } from '@codemirror/view';
import { editorInPlaceOf } from './editorBase.js';

const DOUBTFUL = 0.5;
/** A paragraph's lead: an optional [hh:mm:ss] mark, then an optional `Label: ` (as the service reads it). */
const LEAD = /^(\[\d{1,2}:\d{2}:\d{2}\]\s+)?(?:([\p{L}\p{N}][\p{L}\p{N} .'-]{0,40}):\s+)?/u;

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
function paragraphsOf(text) {
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

const setWords = StateEffect.define();
const setCurrent = StateEffect.define();
const confirmWord = StateEffect.define();

/** The word marks, kept through edits: a changed word is re-timed between its kept neighbours. */
const wordsField = StateField.define({
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
function marksFor(text, segments) {
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

/** Every speaker label of the text, in order of first use. */
function speakersIn(text) {
  const names = [];
  for (const p of paragraphsOf(text)) if (p.label && !names.includes(p.label)) names.push(p.label);
  return names;
}

/** A paragraph's speaker as a control: its label's text replaced by a choice of the order's speakers. */
class SpeakerChoice extends WidgetType {
  constructor(label, names, paragraph) {
    super();
    this.label = label;
    this.names = names;
    this.paragraph = paragraph;
  }
  eq(other) {
    return other.label === this.label && other.paragraph === this.paragraph && other.names.join('\n') === this.names.join('\n');
  }
  toDOM(view) {
    const select = document.createElement('select');
    select.className = 'speaker-choice';
    select.setAttribute('aria-label', `Speaker of paragraph ${this.paragraph}`);
    for (const name of this.names.includes(this.label) ? this.names : [this.label, ...this.names]) {
      const option = document.createElement('option');
      option.value = option.textContent = name;
      option.selected = name === this.label;
      select.append(option);
    }
    select.addEventListener('change', () => {
      const pos = view.posAtDOM(select);
      const line = view.state.doc.lineAt(pos);
      const lead = LEAD.exec(line.text);
      if (!lead?.[2]) return;
      const from = line.from + (lead[1]?.length ?? 0);
      view.dispatch({ changes: { from, to: from + lead[2].length, insert: select.value } });
    });
    return select;
  }
  ignoreEvent() {
    return true;
  }
}

/** Speaker controls for the paragraphs on screen (drawn only where the view draws). */
function speakerControls(speakers) {
  return ViewPlugin.fromClass(
    class {
      constructor(view) {
        this.decorations = this.build(view);
      }
      update(update) {
        if (update.docChanged || update.viewportChanged || update.transactions.some((t) => t.effects.some((e) => e.is(speakersChanged))))
          this.decorations = this.build(update.view);
      }
      build(view) {
        const ranges = [];
        const doc = view.state.doc;
        const starts = (n) => doc.line(n).text.trim() !== '' && (n === 1 || doc.line(n - 1).text.trim() === '');
        for (const { from, to } of view.visibleRanges) {
          // The paragraphs before the first line drawn, counted once; then one by one.
          let line = doc.lineAt(from);
          let paragraph = 0;
          for (let n = 1; n < line.number; n++) if (starts(n)) paragraph++;
          for (;;) {
            if (starts(line.number)) {
              paragraph++;
              const lead = LEAD.exec(line.text);
              if (lead?.[2]) {
                const labelFrom = line.from + (lead[1]?.length ?? 0);
                ranges.push(Decoration.replace({ widget: new SpeakerChoice(lead[2], speakers.names, paragraph) }).range(labelFrom, labelFrom + lead[2].length));
              }
            }
            if (line.to >= to || line.number === doc.lines) break;
            line = doc.line(line.number + 1);
          }
        }
        return Decoration.set(ranges, true);
      }
    },
    { decorations: (v) => v.decorations },
  );
}

const speakersChanged = StateEffect.define();

/**
 * Replaces the textarea `textarea` (kept, hidden, as the form's value) with the editor. `player`:
 * the audio element; `wordsUrl`: where the task's timed words are; `status`: a live region for what
 * the keys find. Returns what work.js drives: the text, inserting, the doubt pass.
 */
export function transcriptEditor({ textarea, player, wordsUrl, status, speakerList, styleNonce }) {
  const speakers = { names: speakersIn(textarea.value), added: new Set() };
  let wordIndex = null;
  const { view, sync } = editorInPlaceOf(textarea, {
    styleNonce,
    extensions: [
      EditorView.editorAttributes.of({ class: 'transcript-editor' }),
      wordsField,
      speakerControls(speakers),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) wordIndex = null;
      }),
      EditorView.domEventHandlers({
        // On press, not on click: placing the caret redraws the line, and the click then lands on the line.
        mousedown(event) {
          const word = event.target instanceof Element ? event.target.closest('[data-start]') : null;
          if (word && player && event.button === 0 && !event.shiftKey) player.currentTime = Number(word.dataset.start);
          return false;
        },
      }),
    ],
    // Labels typed by hand join the speakers' list; a speaker added there and not used yet stays.
    onText(text) {
      const found = speakersIn(text);
      const names = [...found, ...speakers.names.filter((n) => !found.includes(n) && speakers.added.has(n))];
      if (names.join('\n') !== speakers.names.join('\n')) {
        speakers.names = names;
        view.dispatch({ effects: speakersChanged.of(null) });
        drawSpeakers();
      }
    },
  });

  fetch(wordsUrl, { credentials: 'same-origin' })
    .then((r) => (r.ok ? r.json() : { segments: [] }))
    .then(({ segments }) => {
      view.dispatch({ effects: setWords.of(marksFor(view.state.doc.toString(), segments)) });
      view.dom.dataset.words = 'ready';
    })
    .catch(() => {
      view.dom.dataset.words = 'none';
    });

  /** The words in reading order with their places, rebuilt after an edit when the player next asks. */
  const index = () => {
    if (wordIndex) return wordIndex;
    wordIndex = [];
    const { deco } = view.state.field(wordsField);
    for (let it = deco.iter(); it.value; it.next()) wordIndex.push({ from: it.from, to: it.to, ...it.value.spec.word });
    return wordIndex;
  };
  const wordAtTime = (t) => {
    const words = index();
    let lo = 0;
    let hi = words.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (words[mid].start <= t) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const word = words[found];
    return word && t < Math.max(word.end, word.start + 0.05) + 0.25 ? word : null;
  };
  const visible = (pos) => {
    const box = view.coordsAtPos(pos);
    if (!box) return false;
    const frame = view.scrollDOM.getBoundingClientRect();
    return box.top >= frame.top && box.bottom <= frame.bottom;
  };
  const follow = () => {
    if (!player) return;
    const word = wordAtTime(player.currentTime);
    const { current } = view.state.field(wordsField);
    if (word && current && current.from === word.from) return;
    // Kept in view while the person follows; not pulled back when they scrolled away to read elsewhere.
    const following = !current || visible(current.from);
    const effects = [setCurrent.of(word ? { from: word.from, to: word.to } : null)];
    if (word && following) effects.push(EditorView.scrollIntoView(word.from, { y: 'nearest' }));
    view.dispatch({ effects });
  };
  if (player) {
    player.addEventListener('timeupdate', follow);
    player.addEventListener('seeked', follow);
    let frame = 0;
    const tick = () => {
      follow();
      frame = player.paused ? 0 : requestAnimationFrame(tick);
    };
    player.addEventListener('play', () => {
      if (!frame) frame = requestAnimationFrame(tick);
    });
  }

  const say = (message) => {
    if (status) status.textContent = message;
  };
  const wordAtCaret = () => {
    const pos = view.state.selection.main.head;
    return index().find((w) => w.from <= pos && pos <= w.to) ?? null;
  };

  // The speakers' list: a name given once applies to every paragraph of that speaker.
  const renameSpeaker = (from, to) => {
    if (!to || from === to) return;
    const doc = view.state.doc;
    const changes = [];
    for (const p of paragraphsOf(doc.toString())) {
      if (p.label !== from) continue;
      const line = doc.lineAt(p.from);
      const lead = LEAD.exec(line.text);
      const at = line.from + (lead[1]?.length ?? 0);
      changes.push({ from: at, to: at + from.length, insert: to });
    }
    speakers.names = [...new Set(speakers.names.map((n) => (n === from ? to : n)))];
    view.dispatch({ changes, effects: speakersChanged.of(null) });
    drawSpeakers();
  };
  const drawSpeakers = () => {
    if (!speakerList) return;
    speakerList.replaceChildren(
      ...speakers.names.map((name, i) => {
        const row = document.createElement('p');
        const label = document.createElement('label');
        label.textContent = `Name of speaker ${i + 1} `;
        const input = document.createElement('input');
        input.value = name;
        input.name = `speaker-${i + 1}`;
        input.addEventListener('change', () => renameSpeaker(name, input.value.trim().replace(/[:\n]/g, '')));
        label.append(input);
        row.append(label);
        return row;
      }),
    );
  };
  drawSpeakers();

  return {
    view,
    text: () => {
      sync();
      return textarea.value;
    },
    insert(snippet) {
      view.dispatch(view.state.replaceSelection(snippet));
      view.focus();
    },
    addSpeaker() {
      let n = speakers.names.length + 1;
      while (speakers.names.includes(`Speaker ${n}`)) n++;
      speakers.names = [...speakers.names, `Speaker ${n}`];
      speakers.added.add(`Speaker ${n}`);
      view.dispatch({ effects: speakersChanged.of(null) });
      drawSpeakers();
    },
    /** Plays from the word at the caret. */
    playCaretWord() {
      const word = wordAtCaret();
      if (word && player) {
        player.currentTime = word.start;
        void player.play().catch(() => {});
      }
    },
    /**
     * Says the word being heard and its time in the status region: only when asked, as the word
     * marked while playing (aria-current) is not announced on its own.
     */
    sayCurrentWord() {
      const word = player ? wordAtTime(player.currentTime) : null;
      if (!word) return say('No word is being heard.');
      const clock = new Date(word.start * 1000).toISOString().slice(11, 19);
      say(`Heard at ${clock}: ${view.state.sliceDoc(word.from, word.to)}`);
    },
    /** Selects the next doubtful word after the caret and plays from just before it. */
    nextDoubt() {
      const pos = view.state.selection.main.to;
      const doubtful = index().filter((w) => w.confidence !== undefined && w.confidence < DOUBTFUL);
      const next = doubtful.find((w) => w.from >= pos) ?? doubtful[0];
      if (!next) return say('No doubtful words are left.');
      view.dispatch({ selection: EditorSelection.range(next.from, next.to), effects: EditorView.scrollIntoView(next.from, { y: 'center' }) });
      view.focus();
      if (player) {
        player.currentTime = Math.max(0, next.start - 1);
        void player.play().catch(() => {});
      }
      say(`Doubtful word ${doubtful.indexOf(next) + 1} of ${doubtful.length}: ${view.state.sliceDoc(next.from, next.to)}`);
    },
    /** The doubtful word at the caret is right as it is: no longer doubtful. */
    confirmDoubt() {
      const word = wordAtCaret();
      if (word) view.dispatch({ effects: confirmWord.of({ from: word.from, to: word.to }) });
    },
  };
}
