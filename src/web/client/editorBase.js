// What the workbench's editors share (CodeMirror 6): the textarea they replace stays, hidden, as the
// form's value (the page works as a form without JavaScript); the form's label names the editor; the
// editor's style sheet is allowed by the page's CSP nonce; the page's hotkeys keep their keys; the
// text goes into the form's field a moment after each change.
import { EditorState } from '@codemirror/state';
import { Decoration, EditorView, MatchDecorator, ViewPlugin, keymap } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { autocompletion } from '@codemirror/autocomplete';
import { termPattern } from '../../domain/terms.ts';

/** Keys the page's hotkeys use, left out of the editor's own keymap. */
const PAGE_KEYS = new Set(['Mod-[', 'Mod-]', 'Escape']);

/**
 * The order's terms (its vocabulary) in the editor: offered as completions while a word is typed,
 * and, where they stand in the text, marked as words the spell check knows (spellcheck=false).
 */
function termsExtensions(terms) {
  if (!terms.length) return [];
  const complete = (context) => {
    const word = context.matchBefore(/[\p{L}\p{N}'’-]{2,}/u);
    if (!word) return null;
    const typed = word.text.toLocaleLowerCase();
    const options = terms
      .filter((term) => term.toLocaleLowerCase().startsWith(typed) && term !== word.text)
      .map((term) => ({ label: term, type: 'text', detail: 'a term of this order' }));
    return options.length ? { from: word.from, options, filter: false } : null;
  };
  const known = new MatchDecorator({
    regexp: termPattern(terms),
    decoration: Decoration.mark({ class: 'term', attributes: { spellcheck: 'false' } }),
  });
  const marks = ViewPlugin.fromClass(
    class {
      constructor(view) {
        this.decorations = known.createDeco(view);
      }
      update(update) {
        this.decorations = known.updateDeco(update, this.decorations);
      }
    },
    { decorations: (v) => v.decorations },
  );
  return [autocompletion({ override: [complete], icons: false }), marks];
}

/**
 * An editor in place of `textarea` with `extensions` of its own; `onText` runs when the form's field
 * has the editor's text again. Returns what work.js drives of every editor: the view, the text (into
 * the field now), inserting at the caret.
 */
export function editorInPlaceOf(textarea, { styleNonce, extensions = [], onText = () => {} }) {
  // The form's label names the editor now; the hidden field it labelled is only the form's value.
  const label = textarea.labels?.[0];
  if (label) {
    label.id ||= `${textarea.id}-label`;
    label.htmlFor = '';
  }
  let timer = 0;
  const sync = () => {
    clearTimeout(timer);
    textarea.value = view.state.doc.toString();
    onText(textarea.value);
  };
  const view = new EditorView({
    parent: textarea.parentElement,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        // The editor's style sheet is allowed by this page's CSP nonce (no 'unsafe-inline').
        EditorView.cspNonce.of(styleNonce ?? ''),
        history(),
        // The page's hotkeys (work.js) keep their keys: Ctrl+[ and Ctrl+] move the player, not the indentation.
        keymap.of([...defaultKeymap.filter((b) => !PAGE_KEYS.has(b.key)), ...historyKeymap]),
        EditorView.lineWrapping,
        // Through the editor's attributes: a class set on its element by hand is dropped at its next update.
        EditorView.editorAttributes.of({ class: 'work-editor' }),
        EditorView.contentAttributes.of({
          ...(label ? { 'aria-labelledby': label.id } : { 'aria-label': 'Text' }),
          ...(textarea.getAttribute('aria-describedby') ? { 'aria-describedby': textarea.getAttribute('aria-describedby') } : {}),
          spellcheck: 'true',
          lang: textarea.lang || 'en',
          dir: textarea.dir || 'ltr',
        }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) {
            clearTimeout(timer);
            timer = setTimeout(sync, 300);
          }
        }),
        // The order's terms, kept on the form's field by the page (data-terms).
        ...termsExtensions(JSON.parse(textarea.dataset.terms || '[]')),
        ...extensions,
      ],
    }),
  });
  textarea.hidden = true;
  return {
    view,
    /** The editor's text, in the form's field now. */
    text() {
      sync();
      return textarea.value;
    },
    insert(snippet) {
      view.dispatch(view.state.replaceSelection(snippet));
      view.focus();
    },
  };
}
