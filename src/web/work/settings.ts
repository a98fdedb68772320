// The worker's editor settings (/work/settings): the back-track on resume, the skip length and the
// key of each hotkey, kept per worker. A plain form; a key is typed as its name (`Alt+KeyN`, `F9`),
// which is what a foot pedal that sends keys sends.
import type { Router } from 'express';
import { z } from 'zod';
import type { WebDeps } from '../context.js';
import { setEditorSettings } from '../../db/workers.js';
import {
  editorSettingsOf,
  HOTKEY_ACTIONS,
  KEY_COMBO,
  keysProblem,
  normalCombo,
  type EditorSettings,
  type HotkeyAction,
} from '../../domain/humanWork/editorSettings.js';
import { describeZodError } from '../../http/zodErrors.js';
import { sendPage } from '../errors.js';
import { html } from '../html.js';
import { alert, csrfInput, layout, notice } from '../layout.js';
import { setFlash, takeFlash } from '../session.js';
import { signedWorker, WORK_PATH } from './session.js';
import { caseSensitiveRouter } from '../../http/router.js';

const ACTIONS = Object.keys(HOTKEY_ACTIONS) as HotkeyAction[];

const seconds = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name}: a number of seconds` })
    .min(min, `${name}: at least ${min}`)
    .max(max, `${name}: at most ${max}`);
const settingsForm = z.object({
  back_track_seconds: seconds('back_track_seconds', 0, 10),
  skip_seconds: seconds('skip_seconds', 1, 60),
  ...Object.fromEntries(
    ACTIONS.map((action) => [
      `key_${action}`,
      z
        .string({ error: `key_${action}: a key` })
        .trim()
        .regex(KEY_COMBO, `key_${action}: a key name such as Alt+KeyN, Ctrl+BracketLeft or F9`),
    ]),
  ),
});

function settingsPage(csrf: string, settings: EditorSettings, message?: string, problem?: string): string {
  return layout({
    area: 'work',
    title: 'Editor settings',
    csrf,
    current: 'settings',
    body: html`<h1>Editor settings</h1>
${notice(message)}${alert(problem)}
<form method="post" action="${WORK_PATH}/settings">${csrfInput(csrf)}
<p><label for="back_track_seconds">Back-track when playing again (seconds)</label>
<input id="back_track_seconds" name="back_track_seconds" type="number" min="0" max="10" step="0.5" value="${settings.backTrackSeconds}"></p>
<p><label for="skip_seconds">Skip length of the back and forward keys (seconds)</label>
<input id="skip_seconds" name="skip_seconds" type="number" min="1" max="60" step="1" value="${settings.skipSeconds}"></p>
<fieldset><legend>Hotkeys</legend>
<p class="muted">A key is its name: modifiers (Ctrl, Alt, Shift, Meta) and the key's code, such as <kbd>Alt+KeyN</kbd>, <kbd>Ctrl+BracketLeft</kbd> or <kbd>F9</kbd>. A foot pedal that sends keys works with the keys it sends. <kbd>Alt+1</kbd> … <kbd>Alt+9</kbd> insert speaker labels.</p>
${ACTIONS.map(
  (action) =>
    html`<p><label for="key_${action}">${HOTKEY_ACTIONS[action].label}</label> <input id="key_${action}" name="key_${action}" value="${settings.keys[action]}" autocomplete="off" spellcheck="false"></p>`,
)}
</fieldset>
<p><button type="submit">Save settings</button></p>
</form>`,
  });
}

export function settingsRouter(deps: WebDeps): Router {
  const router = caseSensitiveRouter();
  router.get('/settings', (req, res) => {
    const { worker, csrf } = signedWorker(res);
    const saved = takeFlash(req, res, deps.publicBaseUrl) === 'settings-saved' ? 'Settings saved.' : undefined;
    sendPage(res, 200, settingsPage(csrf, editorSettingsOf(worker.editorSettings), saved));
  });
  router.post('/settings', async (req, res) => {
    const { worker, csrf } = signedWorker(res);
    const form = settingsForm.safeParse(req.body ?? {});
    if (!form.success) return void sendPage(res, 400, settingsPage(csrf, editorSettingsOf(worker.editorSettings), undefined, describeZodError(form.error)));
    const fields: Record<string, unknown> = form.data;
    const keys = Object.fromEntries(ACTIONS.map((action) => [action, normalCombo(String(fields[`key_${action}`]))])) as Record<HotkeyAction, string>;
    const settings: EditorSettings = { backTrackSeconds: form.data.back_track_seconds, skipSeconds: form.data.skip_seconds, keys };
    const problem = keysProblem(keys);
    if (problem) return void sendPage(res, 400, settingsPage(csrf, settings, undefined, problem));
    await setEditorSettings(deps.db, worker.id, settings);
    setFlash(req, res, deps.publicBaseUrl, 'settings-saved');
    res.redirect(303, `${WORK_PATH}/settings`);
  });
  return router;
}
