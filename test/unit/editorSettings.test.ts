// A worker's editor settings (src/domain/humanWork/editorSettings.ts): defaults, kept keys, refusals.
import { describe, expect, it } from 'vitest';
import { DEFAULT_EDITOR_SETTINGS, editorSettingsOf, KEY_COMBO, keysProblem, normalCombo } from '../../src/domain/humanWork/editorSettings.js';

describe("a worker's editor settings", () => {
  it('fills what a worker never set with the defaults, an action added since included', () => {
    expect(editorSettingsOf(null)).toEqual(DEFAULT_EDITOR_SETTINGS);
    const kept = editorSettingsOf({ skipSeconds: 10, keys: { playPause: 'F8' } as never });
    expect(kept).toMatchObject({ backTrackSeconds: 1, skipSeconds: 10 });
    expect(kept.keys.playPause).toBe('F8');
    expect(kept.keys.nextDoubt).toBe('Alt+KeyN');
  });

  it('reads keys as modifiers and a key code, in one order', () => {
    expect(normalCombo('Alt+Ctrl+KeyN')).toBe('Ctrl+Alt+KeyN');
    for (const key of ['F9', 'Escape', 'Ctrl+BracketLeft', 'Shift+Alt+KeyT', 'MediaPlayPause']) expect(KEY_COMBO.test(key), key).toBe(true);
    for (const key of ['', 'Alt+', 'alt+n', 'Ctrl+<script>', 'Hyper+KeyN']) expect(KEY_COMBO.test(key), key).toBe(false);
  });

  it('refuses one key for two actions, and the speaker keys', () => {
    expect(keysProblem(DEFAULT_EDITOR_SETTINGS.keys)).toBeUndefined();
    expect(keysProblem({ ...DEFAULT_EDITOR_SETTINGS.keys, timestamp: 'Ctrl+Alt+KeyN', nextDoubt: 'Alt+Ctrl+KeyN' })).toBe(
      'nextDoubt: Alt+Ctrl+KeyN is already the key of timestamp',
    );
    expect(keysProblem({ ...DEFAULT_EDITOR_SETTINGS.keys, playWord: 'Alt+Digit3' })).toBe('playWord: Alt+Digit3 inserts a speaker label');
  });
});
