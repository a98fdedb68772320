// (d) ProseMirror: a schema of paragraphs whose words carry a `word` mark (start, end, confidence),
// drawn as <span data-start data-end data-confidence> (class "doubt" under 0.5); the base keymap.
// ProseMirror draws the whole document (no viewport): 18,000 spans in the DOM. ?visibility=auto gives
// the paragraphs content-visibility: auto (editor.css), so the browser lays out and paints only those on screen.
import { Schema } from 'prosemirror-model';
import { EditorState, TextSelection } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { keymap } from 'prosemirror-keymap';
import { baseKeymap } from 'prosemirror-commands';
import { start } from './page.js';

const schema = new Schema({
  nodes: {
    doc: { content: 'paragraph+' },
    paragraph: { content: 'text*', parseDOM: [{ tag: 'p' }], toDOM: () => ['p', 0] },
    text: {},
  },
  marks: {
    word: {
      attrs: { start: {}, end: {}, confidence: {} },
      inclusive: false, // text typed at a word's end is not that word
      parseDOM: [{ tag: 'span[data-start]', getAttrs: (d) => ({ start: +d.dataset.start, end: +d.dataset.end, confidence: +d.dataset.confidence }) }],
      toDOM: ({ attrs: { start, end, confidence } }) => [
        'span',
        { 'data-start': String(start), 'data-end': String(end), 'data-confidence': String(confidence), class: confidence < 0.5 ? 'doubt' : null },
      ],
    },
  },
});

function toDoc(transcript, lines) {
  const paragraphs = transcript.paragraphs.map((p, i) => {
    const content = [schema.text(lines[i].prefix)];
    p.words.forEach((w, j) => {
      if (j > 0) content.push(schema.text(' '));
      content.push(schema.text(w.text, [schema.marks.word.create({ start: w.start, end: w.end, confidence: w.confidence })]));
    });
    return schema.node('paragraph', null, content);
  });
  return schema.node('doc', null, paragraphs);
}

void start((parent, { transcript, lines }) => {
  if (new URLSearchParams(location.search).get('visibility') === 'auto') parent.classList.add('offscreen-skipped');
  const view = new EditorView(parent, {
    state: EditorState.create({ doc: toDoc(transcript, lines), plugins: [keymap(baseKeymap)] }),
    attributes: { spellcheck: 'false' },
  });
  return {
    text: () => view.state.doc.textBetween(0, view.state.doc.content.size, '\n'),
    placeCaret(offset) {
      // A text offset (lines joined by \n) to a document position: each paragraph opens with one token.
      const doc = view.state.doc;
      let pos = 0;
      let at = 0;
      for (let i = 0; i < doc.childCount; i++) {
        const size = doc.child(i).content.size;
        if (offset <= at + size) {
          pos += 1 + offset - at;
          break;
        }
        at += size + 1;
        pos += size + 2;
      }
      view.dispatch(view.state.tr.setSelection(TextSelection.create(doc, pos)));
      parent.scrollTop += view.coordsAtPos(pos).top - parent.getBoundingClientRect().top - parent.clientHeight / 2; // the caret mid-box
      view.focus();
    },
    toTop: () => (parent.scrollTop = 0),
    scroller: parent,
    lines: 'p',
  };
});
