// The hooks run.mjs uses (window.bench) for the two textarea pages.
export function textareaHooks(textarea) {
  return {
    text: () => textarea.value,
    placeCaret(offset) {
      textarea.focus();
      textarea.setSelectionRange(offset, offset);
      textarea.blur(); // focusing again scrolls the caret into view
      textarea.focus();
    },
    toTop: () => (textarea.scrollTop = 0),
    scroller: textarea,
    lines: null,
  };
}
