// A worker's skills: the kinds of work and the kind:language form of a skill list, parsed and
// matched against what a task needs. Pure: callers do the I/O.

export const SKILL_KINDS = ['transcription', 'review', 'translation', 'ocr'] as const;
export type SkillKind = (typeof SKILL_KINDS)[number];

export class SkillError extends Error {}

const LANGUAGE = '[a-z][a-z_]*';
const SKILL = new RegExp(`^(?:(?:transcription|review|ocr):${LANGUAGE}|translation:${LANGUAGE}>${LANGUAGE})$`);

/** A comma-separated skill list, normalised (trimmed, lowercased, deduplicated in order). */
export function parseSkills(list: string): string[] {
  const items = list
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const item of items) {
    if (!SKILL.test(item)) {
      throw new SkillError(`skill '${item}' is not kind:language (kinds: ${SKILL_KINDS.join(', ')}; translation takes source>target)`);
    }
  }
  if (items.length === 0) throw new SkillError('at least one skill is needed');
  return [...new Set(items)];
}

export function skillCovers(skills: readonly string[], needed: string): boolean {
  const want = needed.trim().toLowerCase();
  return skills.some((s) => s.trim().toLowerCase() === want);
}
