// The workbench's keys (src/web/client/pure/hotkeys.ts) against the worker's settings as the service
// keeps them (src/domain/humanWork/editorSettings.ts), and what the keys do to the player and the
// page (src/web/client/pure/player.ts).
import { describe, expect, it } from 'vitest';
import { defaultKeymap } from '@codemirror/commands';
import { actionsByKey, besidePageKeys, comboOf, speakerLabelOf, type KeyPress } from '../../src/web/client/pure/hotkeys.js';
import { inaudibleMark, playbackRateAfter, resumeFrom, zoomAfter } from '../../src/web/client/pure/player.js';
import { DEFAULT_EDITOR_SETTINGS, HOTKEY_ACTIONS, normalCombo, type HotkeyAction } from '../../src/domain/humanWork/editorSettings.js';

/** The key press a combination written in settings stands for. */
function pressOf(combo: string): KeyPress {
  const parts = combo.split('+');
  const code = parts.pop()!;
  return { ctrlKey: parts.includes('Ctrl'), altKey: parts.includes('Alt'), shiftKey: parts.includes('Shift'), metaKey: parts.includes('Meta'), code };
}

describe('key presses and the worker’s keys', () => {
  it('names a press as the settings write it, modifiers in their order', () => {
    expect(comboOf(pressOf('Ctrl+BracketLeft'))).toBe('Ctrl+BracketLeft');
    expect(comboOf({ ctrlKey: true, altKey: true, shiftKey: true, metaKey: true, code: 'KeyN' })).toBe('Ctrl+Alt+Shift+Meta+KeyN');
    expect(comboOf(pressOf('Escape'))).toBe('Escape');
    // A key saved in another order is kept in the page's (normalCombo), and pressed it reads the same.
    for (const combo of ['Alt+Ctrl+KeyN', 'Meta+Shift+F9', 'Shift+Alt+Period']) expect(comboOf(pressOf(combo)), combo).toBe(normalCombo(combo));
  });

  it('finds every action by its default key pressed', () => {
    const byKey = actionsByKey(DEFAULT_EDITOR_SETTINGS.keys);
    for (const action of Object.keys(HOTKEY_ACTIONS) as HotkeyAction[])
      expect(byKey.get(comboOf(pressOf(DEFAULT_EDITOR_SETTINGS.keys[action]))), action).toBe(action);
  });

  it('finds an action by the key the worker chose instead', () => {
    const byKey = actionsByKey({ ...DEFAULT_EDITOR_SETTINGS.keys, playPause: 'F9' });
    expect(byKey.get(comboOf(pressOf('F9')))).toBe('playPause');
    expect(byKey.get(comboOf(pressOf('Escape')))).toBeUndefined();
  });

  it('inserts a speaker label with Alt and a digit from 1 to 9, not with Ctrl too', () => {
    expect(speakerLabelOf(pressOf('Alt+Digit3'))).toBe('Speaker 3: ');
    expect(speakerLabelOf(pressOf('Alt+Shift+Digit9'))).toBe('Speaker 9: ');
    expect(speakerLabelOf(pressOf('Ctrl+Alt+Digit3'))).toBeUndefined();
    expect(speakerLabelOf(pressOf('Alt+Digit0'))).toBeUndefined();
    expect(speakerLabelOf(pressOf('Digit3'))).toBeUndefined();
  });

  it("leaves the page's keys out of CodeMirror's default keymap and keeps the others", () => {
    const keys = (bindings: readonly { key?: string }[]) => bindings.flatMap((b) => (b.key ? [b.key] : []));
    expect(keys(defaultKeymap)).toEqual(expect.arrayContaining(['Mod-[', 'Mod-]', 'Escape']));
    const kept = keys(besidePageKeys(defaultKeymap));
    expect(kept).not.toContain('Mod-[');
    expect(kept).not.toContain('Mod-]');
    expect(kept).not.toContain('Escape');
    expect(kept).toEqual(expect.arrayContaining(['Enter', 'Mod-a', 'ArrowLeft']));
    expect(kept.length).toBe(keys(defaultKeymap).length - 3);
  });
});

describe('what the keys do to the player and the page', () => {
  it('marks an inaudible stretch at whole seconds', () => {
    expect(inaudibleMark(3725.9)).toBe('[inaudible 01:02:05] ');
    expect(inaudibleMark(-2)).toBe('[inaudible 00:00:00] ');
  });

  it('steps the playing speed by quarters between 0.5× and 2×', () => {
    expect(playbackRateAfter(1, 0.25)).toBe(1.25);
    expect(playbackRateAfter(1, -0.25)).toBe(0.75);
    expect(playbackRateAfter(2, 0.25)).toBe(2);
    expect(playbackRateAfter(0.5, -0.25)).toBe(0.5);
    // A rate set elsewhere comes back to the quarters.
    expect(playbackRateAfter(1.1, 0.25)).toBe(1.25);
  });

  it('plays again from the back-track before where it stopped, never before the start, and from the start at the start', () => {
    expect(resumeFrom(10, 1.5)).toBe(8.5);
    expect(resumeFrom(0.4, 1)).toBe(0);
    expect(resumeFrom(0, 1)).toBeUndefined();
  });

  it('zooms page images by a quarter between half and four times', () => {
    expect(zoomAfter(1, 1)).toBe(1.25);
    expect(zoomAfter(1, -1)).toBe(0.8);
    expect(zoomAfter(3.5, 1)).toBe(4);
    expect(zoomAfter(0.55, -1)).toBe(0.5);
  });
});
