// (a) The floor: a bare <textarea> holding the text, nothing else on input.
import { start } from './page.js';
import { textareaHooks } from './textareaHooks.js';

void start((parent, { text }) => {
  const textarea = document.createElement('textarea');
  textarea.spellcheck = false;
  textarea.value = text;
  parent.append(textarea);
  return textareaHooks(textarea);
});
