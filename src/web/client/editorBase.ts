// What the workbench's editors share (CodeMirror 6): the textarea they replace stays, hidden, as the
// form's value (the page works as a form without JavaScript); the form's label names the editor; the
// editor's style sheet is allowed by the page's CSP nonce; the page's hotkeys keep their keys; the
// text goes into the form's field a moment after each change.
import { EditorState, type Extension } from '@codemirror/state';
import { Decoration, EditorView, MatchDecorator, ViewPlugin, keymap, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { autocompletion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { termPattern } from '../../domain/terms.js';
import { besidePageKeys } from './pure/hotkeys.js';

/** What work.ts drives of every editor. */
export interface Editor {
  view: EditorView;
  /** The editor's text, in the form's field now. */
  text(): string;
  /** `snippet` in place of the selection, the editor focused. */
  insert(snippet: string): void;
}

/**
 * The order's terms (its vocabulary) in the editor: offered as completions while a word is typed,
 * and, where they stand in the text, marked as words the spell check knows (spellcheck=false).
 */
function termsExtensions(terms: readonly string[]): Extension[] {
  const pattern = termPattern(terms);
  if (!pattern) return [];
  const complete = (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(/[\p{L}\p{N}'’-]{2,}/u);
    if (!word) return null;
    const typed = word.text.toLocaleLowerCase();
    const options = terms
      .filter((term) => term.toLocaleLowerCase().startsWith(typed) && term !== word.text)
      .map((term) => ({ label: term, type: 'text', detail: 'a term of this order' }));
    return options.length ? { from: word.from, options, filter: false } : null;
  };
  const known = new MatchDecorator({
    regexp: pattern,
    decoration: Decoration.mark({ class: 'term', attributes: { spellcheck: 'false' } }),
  });
  const marks = ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = known.createDeco(view);
      }
      update(update: ViewUpdate) {
        this.decorations = known.updateDeco(update, this.decorations);
      }
    },
    { decorations: (v) => v.decorations },
  );
  // Each offered term isolated as a <bdi> is (its own direction, nothing reordered outside it): a
  // bidi control in an older order's term then cannot reverse its option's note after it.
  const isolated = EditorView.baseTheme({ '.cm-completionLabel': { unicodeBidi: 'plaintext' } });
  return [autocompletion({ override: [complete], icons: false }), marks, isolated];
}

/** The order's terms the page keeps on the form's field (data-terms, a JSON list). */
function termsOf(textarea: HTMLTextAreaElement): string[] {
  const terms: unknown = JSON.parse(textarea.dataset.terms || '[]');
  return Array.isArray(terms) ? terms.filter((term): term is string => typeof term === 'string') : [];
}

/**
 * An editor in place of `textarea` with `extensions` of its own; `onText` runs when the form's field
 * has the editor's text again.
 */
export function editorInPlaceOf(
  textarea: HTMLTextAreaElement,
  { styleNonce, extensions = [], onText = () => {} }: { styleNonce: string | undefined; extensions?: Extension[]; onText?: (text: string) => void },
): Editor {
  // The form's label names the editor now; the hidden field it labelled is only the form's value.
  const label = textarea.labels[0];
  if (label) {
    label.id ||= `${textarea.id}-label`;
    label.htmlFor = '';
  }
  const describedBy = textarea.getAttribute('aria-describedby');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const sync = () => {
    clearTimeout(timer);
    textarea.value = view.state.doc.toString();
    onText(textarea.value);
  };
  const view: EditorView = new EditorView({
    parent: textarea.parentElement ?? undefined,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        // The editor's style sheet is allowed by this page's CSP nonce (no 'unsafe-inline').
        EditorView.cspNonce.of(styleNonce ?? ''),
        history(),
        // The page's hotkeys (work.ts) keep their keys: Ctrl+[ and Ctrl+] move the player, not the indentation.
        keymap.of([...besidePageKeys(defaultKeymap), ...historyKeymap]),
        EditorView.lineWrapping,
        // Through the editor's attributes: a class set on its element by hand is dropped at its next update.
        EditorView.editorAttributes.of({ class: 'work-editor' }),
        EditorView.contentAttributes.of({
          ...(label ? { 'aria-labelledby': label.id } : { 'aria-label': 'Text' }),
          ...(describedBy ? { 'aria-describedby': describedBy } : {}),
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
        ...termsExtensions(termsOf(textarea)),
        ...extensions,
      ],
    }),
  });
  textarea.hidden = true;
  return {
    view,
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
