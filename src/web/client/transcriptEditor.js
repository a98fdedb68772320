// The transcript editor on CodeMirror 6 (a view that draws only what is on screen): each word of the
// text marked with its times (wordMarks.js). Clicking a word plays from it; while the media plays,
// the word heard carries aria-current and stays in view; Alt+K says it. Speakers are chosen per
// paragraph and named once in a list. The form's textarea stays the value the page submits.
import { EditorSelection, StateEffect } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, WidgetType } from '@codemirror/view';
import { editorInPlaceOf } from './editorBase.js';
import { confirmWord, DOUBTFUL, LEAD, marksFor, paragraphsOf, setCurrent, setWords, wordsField } from './wordMarks.js';

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
  const editor = editorInPlaceOf(textarea, {
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
  const { view } = editor;

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
    ...editor,
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
