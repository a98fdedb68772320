// (b) Today's page: the textarea over a backdrop <div> where the doubtful words (confidence < 0.5)
// are <mark>s; the backdrop is drawn again from the whole text on every input event, as the page's
// script did before issue 43 (src/web/assets/work.js then).
import { start } from './page.js';
import { textareaHooks } from './textareaHooks.js';

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

void start((parent, { text, words }) => {
  const backdrop = document.createElement('div');
  backdrop.className = 'backdrop';
  backdrop.setAttribute('aria-hidden', 'true');
  const textarea = document.createElement('textarea');
  textarea.spellcheck = false;
  textarea.value = text;
  parent.append(backdrop, textarea);

  let doubts = words.filter((w) => w.confidence < 0.5).map((w) => ({ start: w.from, end: w.to }));
  const draw = () => {
    let out = '';
    let at = 0;
    for (const d of doubts) {
      out += `${escape(textarea.value.slice(at, d.start))}<mark>${escape(textarea.value.slice(d.start, d.end))}</mark>`;
      at = d.end;
    }
    backdrop.innerHTML = `${out}${escape(textarea.value.slice(at))}\n `;
    backdrop.scrollTop = textarea.scrollTop;
  };
  let before = textarea.value;
  textarea.addEventListener('input', () => {
    // What changed: the common prefix and suffix of the text before and after; marks inside it go.
    const after = textarea.value;
    let from = 0;
    while (from < before.length && from < after.length && before[from] === after[from]) from++;
    let oldEnd = before.length;
    let newEnd = after.length;
    while (oldEnd > from && newEnd > from && before[oldEnd - 1] === after[newEnd - 1]) {
      oldEnd--;
      newEnd--;
    }
    const shift = newEnd - oldEnd;
    doubts = doubts.filter((d) => d.end < from || d.start > oldEnd).map((d) => (d.start > oldEnd ? { start: d.start + shift, end: d.end + shift } : d));
    before = after;
    draw();
  });
  textarea.addEventListener('scroll', () => (backdrop.scrollTop = textarea.scrollTop));
  draw();
  return textareaHooks(textarea);
});
