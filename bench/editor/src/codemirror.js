// (c) CodeMirror 6: the text as the doc, every word a Decoration.mark with data-start, data-end and
// data-confidence (class "doubt" under 0.5), a keymap and line wrapping. ?decorations= picks how:
//   visible  the word times in a RangeSet mapped through every change (a StateField, not drawn); a
//            ViewPlugin makes marks for view.visibleRanges only, maps them through changes, and makes
//            them again when the viewport goes past what they cover (scrolling);
//   field    all 18,000 marks made once, in a StateField mapped through every change;
//   none     no marks (what the editor costs without them).
// CodeMirror writes its base theme into a <style> element: it carries the nonce of
// <meta name="style-nonce"> when the server sends one (EditorView.cspNonce), else the CSP blocks it.
import { EditorState, RangeSet, RangeValue, StateField } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, keymap } from '@codemirror/view';
import { defaultKeymap } from '@codemirror/commands';
import { start } from './page.js';

/** A word's times, kept on its text range; like a mark that does not grow when typed at its edges. */
class WordTime extends RangeValue {
  constructor(start, end, confidence) {
    super();
    this.start = start;
    this.end = end;
    this.confidence = confidence;
  }
  eq(other) {
    return this.start === other.start && this.end === other.end && this.confidence === other.confidence;
  }
}
WordTime.prototype.startSide = 1;
WordTime.prototype.endSide = -1;

const mark = (w) =>
  Decoration.mark({
    class: w.confidence < 0.5 ? 'doubt' : undefined,
    attributes: { 'data-start': String(w.start), 'data-end': String(w.end), 'data-confidence': String(w.confidence) },
  });

/** A StateField holding `set` and mapping it through every change. */
const mappedField = (set, extra = {}) => StateField.define({ create: () => set, update: (value, tr) => value.map(tr.changes), ...extra });

function wordExtensions(mode, words) {
  if (mode === 'field') {
    const field = mappedField(Decoration.set(words.map((w) => mark(w).range(w.from, w.to))), { provide: (f) => EditorView.decorations.from(f) });
    return [field];
  }
  if (mode === 'visible') {
    const times = mappedField(RangeSet.of(words.map((w) => new WordTime(w.start, w.end, w.confidence).range(w.from, w.to))));
    const plugin = ViewPlugin.fromClass(
      class {
        constructor(view) {
          this.draw(view);
        }
        draw(view) {
          const marks = [];
          for (const { from, to } of view.visibleRanges) view.state.field(times).between(from, to, (f, t, w) => void marks.push(mark(w).range(f, t)));
          this.decorations = Decoration.set(marks, true);
          this.drawn = { from: view.viewport.from, to: view.viewport.to };
        }
        update(update) {
          // Typing maps the marks made (cheap); they are made again only when what is drawn goes past them.
          if (update.docChanged) {
            this.decorations = this.decorations.map(update.changes);
            this.drawn = { from: update.changes.mapPos(this.drawn.from, 1), to: update.changes.mapPos(this.drawn.to, -1) };
          }
          const { from, to } = update.view.viewport;
          if (from < this.drawn.from || to > this.drawn.to) this.draw(update.view);
        }
      },
      { decorations: (p) => p.decorations },
    );
    return [times, plugin];
  }
  return [];
}

void start((parent, { text, words }) => {
  const mode = new URLSearchParams(location.search).get('decorations') ?? 'visible';
  const nonce = document.querySelector('meta[name="style-nonce"]')?.content;
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [keymap.of(defaultKeymap), EditorView.lineWrapping, nonce ? EditorView.cspNonce.of(nonce) : [], wordExtensions(mode, words)],
    }),
  });
  return {
    text: () => view.state.doc.toString(),
    placeCaret(offset) {
      view.dispatch({ selection: { anchor: offset }, effects: EditorView.scrollIntoView(offset, { y: 'center' }) });
      view.focus();
    },
    toTop: () => view.dispatch({ effects: EditorView.scrollIntoView(0, { y: 'start' }) }),
    scroller: view.scrollDOM,
    lines: '.cm-line',
  };
});
