// The workbench's keys, without the page: a key press as the worker's settings name it, the action
// it is the key of, the speaker keys (Alt+1 … Alt+9), and the editor's own keys that give way to the
// page's. No DOM: work.ts and editorBase.ts apply them.

/** What of a key press names it (a KeyboardEvent has these). */
export interface KeyPress {
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
  code: string;
}

/** A key press as the settings write it: modifiers in the page's order (src/domain/humanWork/editorSettings.ts `normalCombo`), then its code. */
export const comboOf = (e: KeyPress): string =>
  [e.ctrlKey && 'Ctrl', e.altKey && 'Alt', e.shiftKey && 'Shift', e.metaKey && 'Meta', e.code].filter(Boolean).join('+');

/** The action of each key, from the worker's key of each action. */
export const actionsByKey = <A extends string>(keys: Readonly<Partial<Record<A, string>>>): Map<string, A> =>
  new Map(Object.entries(keys).map(([action, key]) => [key as string, action as A]));

/** The speaker label Alt+1 … Alt+9 insert (`Speaker 3: `); undefined for any other key. */
export function speakerLabelOf(e: KeyPress): string | undefined {
  return e.altKey && !e.ctrlKey && /^Digit[1-9]$/.test(e.code) ? `Speaker ${e.code.slice(5)}: ` : undefined;
}

/**
 * Keys of the page's default hotkeys (CodeMirror's notation) that the editor's own keymap leaves
 * alone: Ctrl+[ and Ctrl+] move the player, not the indentation; Escape plays or pauses.
 */
export const PAGE_KEYS: ReadonlySet<string> = new Set(['Mod-[', 'Mod-]', 'Escape']);

/** An editor keymap without the bindings of the page's keys. */
export const besidePageKeys = <B extends { key?: string | undefined }>(bindings: readonly B[]): B[] =>
  bindings.filter((b) => b.key === undefined || !PAGE_KEYS.has(b.key));
