// The two JSON result formats (docs/formats.md): `json` is segments; `json2` adds word timings.
import type { Transcript } from '../transcript.js';

export function renderJson(t: Transcript): string {
  return JSON.stringify(
    {
      segments: t.segments.map((s) => ({ speaker: s.speaker ?? null, start: s.start ?? null, end: s.end ?? null, text: s.text })),
    },
    null,
    2,
  );
}

export function renderJson2(t: Transcript): string {
  const speakers = [...new Set(t.segments.map((s) => s.speaker).filter((s): s is string => Boolean(s)))];
  return JSON.stringify(
    {
      version: 2,
      speakers,
      segments: t.segments.map((s, id) => ({
        id,
        speaker: s.speaker ?? null,
        start: s.start ?? null,
        end: s.end ?? null,
        text: s.text,
        words: (s.words ?? []).map((w) => ({ text: w.text, start: w.start, end: w.end, ...(w.confidence !== undefined ? { confidence: w.confidence } : {}) })),
      })),
    },
    null,
    2,
  );
}
