// The workbench editor: the player's hotkeys, seeking from the draft's segments, autosave to the
// service every few seconds and when the page is left, and zoom for page images; on a transcript
// with media the word-level editor (transcriptEditor.js), on the other pages the text editor
// (textEditor.js). The pages work as plain forms without it.
// Bundled into assets/work.js by scripts/bundle-pages.mjs.
import { transcriptEditor } from './transcriptEditor.js';
import { textEditor } from './textEditor.js';
import { changeBetween, textDigest } from '../../domain/workbench/textChange.ts';

(() => {
  const player = document.getElementById('player');
  // The worker's back-track, skip length and keys (src/domain/workbench/editorSettings.ts).
  const settings = JSON.parse(document.getElementById('workspace')?.dataset.settings ?? '{"backTrackSeconds":1,"skipSeconds":5,"keys":{}}');
  const text = document.getElementById('work-text');
  // The word-level editor where the page offers the words' times (a transcript with media); the text
  // editor on the other pages.
  const editor = !text
    ? null
    : text.dataset.wordsUrl
      ? transcriptEditor({
          textarea: text,
          player,
          wordsUrl: text.dataset.wordsUrl,
          status: document.getElementById('editor-status'),
          speakerList: document.getElementById('speaker-names'),
          styleNonce: text.dataset.styleNonce,
        })
      : textEditor({ textarea: text, styleNonce: text.dataset.styleNonce });
  const valueOf = () => editor.text();
  if (text?.dataset.wordsUrl) {
    document.getElementById('speakers')?.removeAttribute('hidden');
    document.getElementById('add-speaker')?.addEventListener('click', () => editor.addSpeaker());
  }
  const form = document.getElementById('work-form');
  const status = document.getElementById('save-status');
  const clockOut = document.getElementById('clock');
  const speedOut = document.getElementById('speed');

  const pad = (n) => String(n).padStart(2, '0');
  const mark = (seconds) => {
    const s = Math.max(0, Math.floor(seconds));
    return `[${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}]`;
  };

  if (player) {
    // A part starts where its audio starts.
    const start = Number(player.dataset.start) || 0;
    if (start > 0)
      player.addEventListener(
        'loadedmetadata',
        () => {
          if (player.currentTime < start) player.currentTime = start;
        },
        { once: true },
      );
    player.addEventListener('timeupdate', () => {
      if (clockOut) clockOut.textContent = mark(player.currentTime);
    });
    // The service refused the file (not audio or video by its content) or could not read it: say so.
    player.addEventListener('error', () => {
      const problem = document.getElementById('player-problem');
      if (problem) problem.hidden = false;
    });
  }

  const seek = (seconds) => {
    if (player) player.currentTime = Math.max(0, seconds);
  };
  const togglePlay = () => {
    if (!player) return;
    if (player.paused) {
      // Resuming rewinds by the worker's back-track, so the last words are heard again.
      if (player.currentTime > 0) seek(player.currentTime - settings.backTrackSeconds);
      void player.play().catch(() => {});
    } else player.pause();
  };
  const setSpeed = (delta) => {
    if (!player) return;
    player.playbackRate = Math.min(2, Math.max(0.5, Math.round((player.playbackRate + delta) * 4) / 4));
    if (speedOut) speedOut.textContent = `${player.playbackRate}×`;
  };
  const insert = (snippet) => editor?.insert(snippet);
  const now = () => (player ? player.currentTime : 0);

  // What each hotkey does; its key is the worker's (editor settings, /work/settings).
  const actions = {
    playPause: togglePlay,
    back: () => seek(now() - settings.skipSeconds),
    forward: () => seek(now() + settings.skipSeconds),
    slower: () => setSpeed(-0.25),
    faster: () => setSpeed(0.25),
    timestamp: () => insert(`${mark(now())} `),
    inaudible: () => insert(`[inaudible ${mark(now()).slice(1, -1)}] `),
    nextDoubt: () => editor?.nextDoubt?.(),
    confirmDoubt: () => editor?.confirmDoubt?.(),
    playWord: () => editor?.playCaretWord?.(),
    sayWord: () => editor?.sayCurrentWord?.(),
  };
  const byKey = new Map(Object.entries(settings.keys).map(([action, key]) => [key, actions[action]]));
  document.addEventListener('keydown', (e) => {
    const key = [e.ctrlKey && 'Ctrl', e.altKey && 'Alt', e.shiftKey && 'Shift', e.metaKey && 'Meta', e.code].filter(Boolean).join('+');
    const action = byKey.get(key);
    if (action) action();
    else if (e.altKey && !e.ctrlKey && /^Digit[1-9]$/.test(e.code)) insert(`Speaker ${e.code.slice(5)}: `);
    else return;
    e.preventDefault();
  });

  for (const button of document.querySelectorAll('[data-seek]')) {
    button.addEventListener('click', () => {
      seek(Number(button.dataset.seek));
      editor?.view.focus();
    });
  }

  // Page images: zoom in steps, the frame scrolls.
  const images = document.querySelectorAll('.page-image');
  let zoom = 1;
  for (const button of document.querySelectorAll('[data-zoom]')) {
    button.addEventListener('click', () => {
      zoom = Math.min(4, Math.max(0.5, zoom * (Number(button.dataset.zoom) > 0 ? 1.25 : 0.8)));
      for (const image of images) image.style.width = `${Math.round(zoom * 100)}%`;
    });
  }

  if (!form || !text) return;
  const saveUrl = form.dataset.saveUrl;
  const csrf = form.dataset.csrf;
  let saved = valueOf();
  let saving = false;
  const say = (message) => {
    if (status) status.textContent = message;
  };
  // Only what changed since the last save goes out (one stretch, against the saved text's digest);
  // the whole text when there is no change to send or the service holds another text (412).
  const post = (body) =>
    fetch(saveUrl, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify(body),
    });
  async function save() {
    if (saving || valueOf() === saved) return;
    saving = true;
    const sending = valueOf();
    try {
      let response = await post({ change: changeBetween(saved, sending), base: textDigest(saved) });
      if (response.status === 412) response = await post({ text: sending });
      if (response.status === 204) {
        saved = sending;
        say(`Saved at ${new Date().toLocaleTimeString()}`);
      } else {
        const body = await response.json().catch(() => ({}));
        say(`Not saved: ${body.error || `the service answered ${response.status}`}. Copy your text before leaving the page.`);
      }
    } catch {
      say('Not saved: the service cannot be reached. Your text stays here; saving again in a moment.');
    } finally {
      saving = false;
    }
  }
  setInterval(save, 3000);
  // Leaving the page (closing the tab, reloading, navigating): the last words go out with the page.
  const flush = () => {
    const value = valueOf();
    if (value === saved) return;
    navigator.sendBeacon(saveUrl, new Blob([JSON.stringify({ text: value, csrf })], { type: 'application/json' }));
    saved = value;
  };
  addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
  form.addEventListener('submit', () => {
    // The editor's text goes into the form's field before the form is sent.
    saved = valueOf();
  });
})();
