// The workbench editor: the player's hotkeys, seeking from the draft's segments, autosave to the
// service every few seconds and when the page is left, and zoom for page images; on a transcript
// with media the word-level editor (transcriptEditor.ts), on the other pages the text editor
// (textEditor.ts). The pages work as plain forms without it.
// Bundled into dist/web/assets/work.js by scripts/bundle-pages.mjs.
import { transcriptEditor, type TranscriptEditor } from './transcriptEditor.js';
import { textEditor } from './textEditor.js';
import type { Editor } from './editorBase.js';
import { actionsByKey, comboOf, speakerLabelOf } from './pure/hotkeys.js';
import { inaudibleMark, playbackRateAfter, resumeFrom, zoomAfter } from './pure/player.js';
import { changeBetween, textDigest } from '../../domain/humanWork/textChange.js';
import { formatMark } from '../../domain/humanWork/editorText.js';
import type { EditorSettings, HotkeyAction } from '../../domain/humanWork/editorSettings.js';

(() => {
  const playerElement = document.getElementById('player');
  const player = playerElement instanceof HTMLMediaElement ? playerElement : null;
  // The worker's back-track, skip length and keys (src/domain/humanWork/editorSettings.ts).
  const settings = JSON.parse(document.getElementById('workspace')?.dataset.settings ?? '{"backTrackSeconds":1,"skipSeconds":5,"keys":{}}') as Pick<
    EditorSettings,
    'backTrackSeconds' | 'skipSeconds'
  > & { keys: Partial<EditorSettings['keys']> };
  const textElement = document.getElementById('work-text');
  const text = textElement instanceof HTMLTextAreaElement ? textElement : null;
  // The word-level editor where the page offers the words' times (a transcript with media); the text
  // editor on the other pages.
  const wordsUrl = text?.dataset.wordsUrl;
  const editor: (Editor & Partial<TranscriptEditor>) | null = !text
    ? null
    : wordsUrl
      ? transcriptEditor({
          textarea: text,
          player,
          wordsUrl,
          status: document.getElementById('editor-status'),
          speakerList: document.getElementById('speaker-names'),
          styleNonce: text.dataset.styleNonce,
        })
      : textEditor({ textarea: text, styleNonce: text.dataset.styleNonce });
  if (wordsUrl) {
    document.getElementById('speakers')?.removeAttribute('hidden');
    document.getElementById('add-speaker')?.addEventListener('click', () => editor?.addSpeaker?.());
  }
  const form = document.getElementById('work-form');
  const status = document.getElementById('save-status');
  const clockOut = document.getElementById('clock');
  const speedOut = document.getElementById('speed');

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
      if (clockOut) clockOut.textContent = formatMark(player.currentTime);
    });
    // The service refused the file (not audio or video by its content) or could not read it: say so.
    player.addEventListener('error', () => {
      const problem = document.getElementById('player-problem');
      if (problem) problem.hidden = false;
    });
  }

  const seek = (seconds: number) => {
    if (player) player.currentTime = Math.max(0, seconds);
  };
  const togglePlay = () => {
    if (!player) return;
    if (player.paused) {
      // Resuming rewinds by the worker's back-track, so the last words are heard again.
      const from = resumeFrom(player.currentTime, settings.backTrackSeconds);
      if (from !== undefined) seek(from);
      void player.play().catch(() => {});
    } else player.pause();
  };
  const setSpeed = (delta: number) => {
    if (!player) return;
    player.playbackRate = playbackRateAfter(player.playbackRate, delta);
    if (speedOut) speedOut.textContent = `${player.playbackRate}×`;
  };
  const insert = (snippet: string) => editor?.insert(snippet);
  const now = () => (player ? player.currentTime : 0);

  // What each hotkey does; its key is the worker's (editor settings, /work/settings).
  const actions: Record<HotkeyAction, () => void> = {
    playPause: togglePlay,
    back: () => seek(now() - settings.skipSeconds),
    forward: () => seek(now() + settings.skipSeconds),
    slower: () => setSpeed(-0.25),
    faster: () => setSpeed(0.25),
    timestamp: () => insert(`${formatMark(now())} `),
    inaudible: () => insert(inaudibleMark(now())),
    nextDoubt: () => editor?.nextDoubt?.(),
    confirmDoubt: () => editor?.confirmDoubt?.(),
    playWord: () => editor?.playCaretWord?.(),
    sayWord: () => editor?.sayCurrentWord?.(),
  };
  const byKey = actionsByKey(settings.keys);
  document.addEventListener('keydown', (e) => {
    const name = byKey.get(comboOf(e));
    const action = name && Object.hasOwn(actions, name) ? actions[name] : undefined;
    const speaker = speakerLabelOf(e);
    if (action) action();
    else if (speaker) insert(speaker);
    else return;
    e.preventDefault();
  });

  for (const button of document.querySelectorAll<HTMLElement>('[data-seek]')) {
    button.addEventListener('click', () => {
      seek(Number(button.dataset.seek));
      editor?.view.focus();
    });
  }

  // Page images: zoom in steps, the frame scrolls.
  const images = document.querySelectorAll<HTMLElement>('.page-image');
  let zoom = 1;
  for (const button of document.querySelectorAll<HTMLElement>('[data-zoom]')) {
    button.addEventListener('click', () => {
      zoom = zoomAfter(zoom, Number(button.dataset.zoom));
      for (const image of images) image.style.width = `${Math.round(zoom * 100)}%`;
    });
  }

  if (!form || !editor) return;
  const valueOf = () => editor.text();
  const saveUrl = form.dataset.saveUrl ?? '';
  const csrf = form.dataset.csrf ?? '';
  let saved = valueOf();
  let saving = false;
  const say = (message: string) => {
    if (status) status.textContent = message;
  };
  // Only what changed since the last save goes out (one stretch, against the saved text's digest);
  // the whole text when there is no change to send or the service holds another text (412).
  const post = (body: object) =>
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
        const body = (await response.json().catch(() => ({}))) as { error?: string };
        say(`Not saved: ${body.error || `the service answered ${response.status}`}. Copy your text before leaving the page.`);
      }
    } catch {
      say('Not saved: the service cannot be reached. Your text stays here; saving again in a moment.');
    } finally {
      saving = false;
    }
  }
  setInterval(() => void save(), 3000);
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
