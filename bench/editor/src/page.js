// Shared by the four pages: fetches the transcript, mounts the page's editor, and measures.
//  - window.editorReady: performance.now() (ms since navigation start) once the editor is built and
//    its first frame painted;
//  - window.latencies: for every keydown, keydown's timeStamp to the end of the next frame (below);
//  - window.cspViolations: what the page's CSP blocked;
//  - window.bench: the editor's hooks for run.mjs (text(), placeCaret(offset), toTop(), scroller, lines).
import { layout } from '../transcript.mjs';

/**
 * Calls `done` when the next frame is painted: a requestAnimationFrame callback runs at the start of
 * the next frame, before its style, layout and paint; a message posted from it is handled as the
 * next task, after that frame's rendering work on the main thread is over.
 */
export function afterNextPaint(done) {
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done(performance.now());
    channel.port2.postMessage(0);
  });
}

window.latencies = [];
window.cspViolations = [];
addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sample}`.trim()));
// Capture on window: the first listener to see a key, before any editor's.
addEventListener(
  'keydown',
  (e) => {
    const down = e.timeStamp;
    afterNextPaint((painted) => window.latencies.push(painted - down));
  },
  { capture: true },
);

/** mount(parent, { transcript, text, lines, words }) builds the editor and returns its hooks. */
export async function start(mount) {
  const transcript = await (await fetch('/transcript.json')).json();
  const parent = document.getElementById('editor');
  window.bench = mount(parent, { transcript, ...layout(transcript) });
  afterNextPaint((painted) => (window.editorReady = painted));
}
