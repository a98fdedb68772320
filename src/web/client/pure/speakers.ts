// The transcript editor's speakers, without the editor: the labels a text uses, the list of names
// kept beside it as people type, a new speaker's name and a name given in the list. No DOM:
// transcriptEditor.ts draws the list and changes the text.
import { paragraphsOf } from './wordTiming.js';

/** Every speaker label of the text, in order of first use. */
export function speakersIn(text: string): string[] {
  const names: string[] = [];
  for (const p of paragraphsOf(text)) if (p.label && !names.includes(p.label)) names.push(p.label);
  return names;
}

/**
 * The speakers' list after the text changed: the labels the text now uses (typed by hand too), then
 * the speakers added in the list and not used yet.
 */
export function speakerListAfter(text: string, names: readonly string[], added: ReadonlySet<string>): string[] {
  const found = speakersIn(text);
  return [...found, ...names.filter((n) => !found.includes(n) && added.has(n))];
}

/** The name of a speaker added to the list: the first `Speaker n` not taken, from one past the list's length. */
export function newSpeakerName(names: readonly string[]): string {
  let n = names.length + 1;
  while (names.includes(`Speaker ${n}`)) n++;
  return `Speaker ${n}`;
}

/** A name typed in the speakers' list as a label can hold it: trimmed, without colons or line breaks. */
export const speakerNameOf = (typed: string): string => typed.trim().replace(/[:\n]/g, '');

/** The list with `from` renamed `to` (two speakers named alike become one). */
export const renamedIn = (names: readonly string[], from: string, to: string): string[] => [...new Set(names.map((n) => (n === from ? to : n)))];

export const sameList = (a: readonly string[], b: readonly string[]): boolean => a.join('\n') === b.join('\n');
