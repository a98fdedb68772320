// The editor of a text without timed words (a translation, a page's text), on CodeMirror 6 like the
// transcript editor: the same keys, undo history, spell check, the order's terms and the direction of
// the text's language.
import { editorInPlaceOf, type Editor } from './editorBase.js';

/** Replaces `textarea` (kept, hidden, as the form's value) with the editor. */
export const textEditor = ({ textarea, styleNonce }: { textarea: HTMLTextAreaElement; styleNonce: string | undefined }): Editor =>
  editorInPlaceOf(textarea, { styleNonce });
