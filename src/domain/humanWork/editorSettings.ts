// A worker's editor settings: how far playing again rewinds, how far the skip keys move, and the key
// of each hotkey (remappable, so that a foot pedal that sends keys works). Kept per worker; the task
// page hands them to its script. Pure: callers do the I/O.

/** The editor's actions that have a key, with what the hotkey list says of them and their default key. */
export const HOTKEY_ACTIONS = {
  playPause: { label: 'Play or pause (playing again rewinds the back-track)', key: 'Escape' },
  back: { label: 'Back by the skip length', key: 'Ctrl+BracketLeft' },
  forward: { label: 'Forward by the skip length', key: 'Ctrl+BracketRight' },
  slower: { label: 'Slower (down to 0.5×)', key: 'Alt+Comma' },
  faster: { label: 'Faster (up to 2×)', key: 'Alt+Period' },
  timestamp: { label: 'Insert a timestamp [hh:mm:ss] at the current time', key: 'Alt+KeyT' },
  inaudible: { label: 'Mark [inaudible hh:mm:ss] at the current time', key: 'Alt+KeyI' },
  nextDoubt: { label: 'Go to the next word the engine doubted and play from just before it', key: 'Alt+KeyN' },
  confirmDoubt: { label: 'The doubtful word at the caret is right: no longer doubtful', key: 'Alt+KeyY' },
  playWord: { label: "Play from the caret's word", key: 'Alt+KeyJ' },
  sayWord: { label: 'Say the word being heard and its time (for a screen reader: it is said only when asked)', key: 'Alt+KeyK' },
} as const;

export type HotkeyAction = keyof typeof HOTKEY_ACTIONS;

export interface EditorSettings {
  /** Seconds playing again rewinds (0 to 10). */
  backTrackSeconds: number;
  /** Seconds the back and forward keys move (1 to 60). */
  skipSeconds: number;
  keys: Record<HotkeyAction, string>;
}

export const DEFAULT_EDITOR_SETTINGS: EditorSettings = {
  backTrackSeconds: 1,
  skipSeconds: 5,
  keys: Object.fromEntries(Object.entries(HOTKEY_ACTIONS).map(([action, { key }]) => [action, key])) as Record<HotkeyAction, string>,
};

/**
 * A key as the page matches it: modifiers (Ctrl, Alt, Shift, Meta, in that order) and the key's
 * KeyboardEvent.code (`KeyN`, `Digit1`, `BracketLeft`, `F9`, `Escape`, `MediaPlayPause`).
 */
export const KEY_COMBO = /^(?:(?:Ctrl|Alt|Shift|Meta)\+)*[A-Z][A-Za-z0-9]{1,30}$/;

/** The same combination with its modifiers in the page's order (`Alt+Ctrl+KeyN` → `Ctrl+Alt+KeyN`). */
export function normalCombo(combo: string): string {
  const parts = combo.split('+');
  const code = parts.pop()!;
  const order = ['Ctrl', 'Alt', 'Shift', 'Meta'];
  return [...order.filter((m) => parts.includes(m)), code].join('+');
}

/** The worker's kept settings over the defaults (an action added since keeps its default key). */
export function editorSettingsOf(saved: Partial<EditorSettings> | null | undefined): EditorSettings {
  return {
    backTrackSeconds: saved?.backTrackSeconds ?? DEFAULT_EDITOR_SETTINGS.backTrackSeconds,
    skipSeconds: saved?.skipSeconds ?? DEFAULT_EDITOR_SETTINGS.skipSeconds,
    keys: { ...DEFAULT_EDITOR_SETTINGS.keys, ...saved?.keys },
  };
}

/** Why these keys cannot be kept: one key for two actions, or one the speaker keys (Alt+1 … Alt+9) use. */
export function keysProblem(keys: Record<HotkeyAction, string>): string | undefined {
  const seen = new Map<string, HotkeyAction>();
  for (const [action, combo] of Object.entries(keys) as [HotkeyAction, string][]) {
    const key = normalCombo(combo);
    if (/^Alt\+Digit[1-9]$/.test(key)) return `${action}: ${combo} inserts a speaker label`;
    const other = seen.get(key);
    if (other) return `${action}: ${combo} is already the key of ${other}`;
    seen.set(key, action);
  }
  return undefined;
}
