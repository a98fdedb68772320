// The transcript editor on CodeMirror 6 (a view that draws only what is on screen): each word of the
// text marked with its times (wordMarks.ts). Clicking a word plays from it; while the media plays,
// the word heard carries aria-current and stays in view; Alt+K says it. Speakers are chosen per
// paragraph and named once in a list. The form's textarea stays the value the page submits.
import { EditorSelection, StateEffect, type Range } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, WidgetType, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import { editorInPlaceOf, type Editor } from './editorBase.js';
import { confirmWord, marksFor, setCurrent, setWords, timesOf, wordsField, type Span } from './wordMarks.js';
import { heardWord, LEAD, nextDoubtful, paragraphsOf, type TimedWord } from './pure/wordTiming.js';
import { newSpeakerName, renamedIn, sameList, speakerListAfter, speakerNameOf, speakersIn } from './pure/speakers.js';
import { clock } from '../../domain/humanWork/editorText.js';

/** The editor's speakers: their names in the list, and those added there by hand. */
interface Speakers {
  names: string[];
  added: Set<string>;
}

/** A word of the text with its place. */
type PlacedWord = TimedWord & Span;

/** What work.ts drives of the transcript editor, beside what every editor has. */
export interface TranscriptEditor extends Editor {
  addSpeaker(): void;
  playCaretWord(): void;
  sayCurrentWord(): void;
  nextDoubt(): void;
  confirmDoubt(): void;
}

/** A paragraph's speaker as a control: its label's text replaced by a choice of the order's speakers. */
class SpeakerChoice extends WidgetType {
  constructor(
    readonly label: string,
    readonly names: readonly string[],
    readonly paragraph: number,
  ) {
    super();
  }
  override eq(other: SpeakerChoice): boolean {
    return other.label === this.label && other.paragraph === this.paragraph && sameList(other.names, this.names);
  }
  toDOM(view: EditorView): HTMLElement {
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
  override ignoreEvent(): boolean {
    return true;
  }
}

const speakersChanged = StateEffect.define<null>();

/** Speaker controls for the paragraphs on screen (drawn only where the view draws). */
function speakerControls(speakers: Speakers) {
  return ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = this.build(view);
      }
      update(update: ViewUpdate) {
        if (update.docChanged || update.viewportChanged || update.transactions.some((t) => t.effects.some((e) => e.is(speakersChanged))))
          this.decorations = this.build(update.view);
      }
      build(view: EditorView): DecorationSet {
        const ranges: Range<Decoration>[] = [];
        const doc = view.state.doc;
        const starts = (n: number) => doc.line(n).text.trim() !== '' && (n === 1 || doc.line(n - 1).text.trim() === '');
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

/**
 * Replaces the textarea `textarea` (kept, hidden, as the form's value) with the editor. `player`:
 * the audio element; `wordsUrl`: where the task's timed words are; `status`: a live region for what
 * the keys find; `speakerList`: where the speakers' names are given.
 */
export function transcriptEditor({
  textarea,
  player,
  wordsUrl,
  status,
  speakerList,
  styleNonce,
}: {
  textarea: HTMLTextAreaElement;
  player: HTMLMediaElement | null;
  wordsUrl: string;
  status: HTMLElement | null;
  speakerList: HTMLElement | null;
  styleNonce: string | undefined;
}): TranscriptEditor {
  const speakers: Speakers = { names: speakersIn(textarea.value), added: new Set() };
  let wordIndex: PlacedWord[] | null = null;
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
          const word = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-start]') : null;
          if (word && player && event.button === 0 && !event.shiftKey) player.currentTime = Number(word.dataset.start);
          return false;
        },
      }),
    ],
    // Labels typed by hand join the speakers' list; a speaker added there and not used yet stays.
    onText(text) {
      const names = speakerListAfter(text, speakers.names, speakers.added);
      if (!sameList(names, speakers.names)) {
        speakers.names = names;
        view.dispatch({ effects: speakersChanged.of(null) });
        drawSpeakers();
      }
    },
  });
  const { view } = editor;

  fetch(wordsUrl, { credentials: 'same-origin' })
    .then((r) => (r.ok ? (r.json() as Promise<{ segments: { words?: TimedWord[] }[] }>) : { segments: [] }))
    .then(({ segments }) => {
      view.dispatch({ effects: setWords.of(marksFor(view.state.doc.toString(), segments)) });
      view.dom.dataset.words = 'ready';
    })
    .catch(() => {
      view.dom.dataset.words = 'none';
    });

  /** The words in reading order with their places, rebuilt after an edit when the player next asks. */
  const index = (): PlacedWord[] => {
    if (wordIndex) return wordIndex;
    const words: PlacedWord[] = [];
    const { deco } = view.state.field(wordsField);
    for (let it = deco.iter(); it.value; it.next()) words.push({ from: it.from, to: it.to, ...timesOf(it.value) });
    return (wordIndex = words);
  };
  const visible = (pos: number) => {
    const box = view.coordsAtPos(pos);
    if (!box) return false;
    const frame = view.scrollDOM.getBoundingClientRect();
    return box.top >= frame.top && box.bottom <= frame.bottom;
  };
  const follow = () => {
    if (!player) return;
    const word = heardWord(index(), player.currentTime);
    const { current } = view.state.field(wordsField);
    if (word && current && current.from === word.from) return;
    // Kept in view while the person follows; not pulled back when they scrolled away to read elsewhere.
    const following = !current || visible(current.from);
    const effects: StateEffect<unknown>[] = [setCurrent.of(word ? { from: word.from, to: word.to } : null)];
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

  const say = (message: string) => {
    if (status) status.textContent = message;
  };
  const wordAtCaret = () => {
    const pos = view.state.selection.main.head;
    return index().find((w) => w.from <= pos && pos <= w.to) ?? null;
  };

  // The speakers' list: a name given once applies to every paragraph of that speaker.
  const renameSpeaker = (from: string, to: string) => {
    if (!to || from === to) return;
    const doc = view.state.doc;
    const changes = [];
    for (const p of paragraphsOf(doc.toString())) {
      if (p.label !== from) continue;
      const line = doc.lineAt(p.from);
      const lead = LEAD.exec(line.text);
      const at = line.from + (lead?.[1]?.length ?? 0);
      changes.push({ from: at, to: at + from.length, insert: to });
    }
    speakers.names = renamedIn(speakers.names, from, to);
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
        input.addEventListener('change', () => renameSpeaker(name, speakerNameOf(input.value)));
        label.append(input);
        row.append(label);
        return row;
      }),
    );
  };
  drawSpeakers();

  const playFrom = (seconds: number) => {
    if (!player) return;
    player.currentTime = seconds;
    void player.play().catch(() => {});
  };

  return {
    ...editor,
    addSpeaker() {
      const name = newSpeakerName(speakers.names);
      speakers.names = [...speakers.names, name];
      speakers.added.add(name);
      view.dispatch({ effects: speakersChanged.of(null) });
      drawSpeakers();
    },
    /** Plays from the word at the caret. */
    playCaretWord() {
      const word = wordAtCaret();
      if (word) playFrom(word.start);
    },
    /**
     * Says the word being heard and its time in the status region: only when asked, as the word
     * marked while playing (aria-current) is not announced on its own.
     */
    sayCurrentWord() {
      const word = player ? heardWord(index(), player.currentTime) : null;
      if (!word) return say('No word is being heard.');
      say(`Heard at ${clock(word.start)}: ${view.state.sliceDoc(word.from, word.to)}`);
    },
    /** Selects the next doubtful word after the caret and plays from just before it. */
    nextDoubt() {
      const found = nextDoubtful(index(), view.state.selection.main.to);
      if (!found) return say('No doubtful words are left.');
      const { word, number, count } = found;
      view.dispatch({ selection: EditorSelection.range(word.from, word.to), effects: EditorView.scrollIntoView(word.from, { y: 'center' }) });
      view.focus();
      playFrom(Math.max(0, word.start - 1));
      say(`Doubtful word ${number} of ${count}: ${view.state.sliceDoc(word.from, word.to)}`);
    },
    /** The doubtful word at the caret is right as it is: no longer doubtful. */
    confirmDoubt() {
      const word = wordAtCaret();
      if (word) view.dispatch({ effects: confirmWord.of({ from: word.from, to: word.to }) });
    },
  };
}
