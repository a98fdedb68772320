// The editor of a text without timed words (a translation, a page's text), on CodeMirror 6 like the
// transcript editor: the same keys, undo history, spell check and direction of the text's language.
import { editorInPlaceOf } from './editorBase.js';

/** Replaces `textarea` (kept, hidden, as the form's value) with the editor. */
export function textEditor({ textarea, styleNonce }) {
  const { view, sync } = editorInPlaceOf(textarea, { styleNonce });
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
  };
}
