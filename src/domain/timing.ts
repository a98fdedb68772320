// Timing a person's text for captions: the aligner's words placed on the text's segments, or,
// without them, each untimed paragraph given a share of the time around it by its length.
import type { Segment, Transcript } from './transcript.js';

/** One word of the text as the aligner timed it (seconds). */
export interface TimedWord {
  word: string;
  begin: number;
  end: number;
}

const tokensOf = (text: string) => text.split(/\s+/).filter(Boolean);

/**
 * The transcript with every segment's words timed by `words` (the aligner's answer: each
 * whitespace-separated word of the segments, in order); undefined when the counts differ.
 */
export function withWordTimes(t: Transcript, words: readonly TimedWord[]): Transcript | undefined {
  const counts = t.segments.map((s) => tokensOf(s.text).length);
  if (counts.reduce((a, b) => a + b, 0) !== words.length) return undefined;
  let at = 0;
  return {
    segments: t.segments.map((segment, i) => {
      const own = words.slice(at, (at += counts[i]!));
      if (!own.length) return { ...segment };
      return { ...segment, start: own[0]!.begin, end: own.at(-1)!.end, words: own.map((w) => ({ text: w.word, start: w.begin, end: w.end })) };
    }),
  };
}

/**
 * Every segment with a start and an end: a timed segment and the untimed ones after it share the
 * time up to the next timed one (the first ones from 0, the last ones to `mediaEnd`) by length.
 */
export function spreadUntimed(t: Transcript, mediaEnd: number): Transcript {
  const segments: Segment[] = t.segments.map((s) => ({ ...s }));
  const share = (from: number, to: number, at: number, until: number) => {
    const group = segments.slice(from, to);
    const total = group.reduce((n, s) => n + s.text.length + 1, 0);
    let time = at;
    for (const segment of group) {
      const next = time + ((Math.max(until, at) - at) * (segment.text.length + 1)) / total;
      segment.start = time;
      segment.end = next;
      time = next;
    }
  };
  let groupFrom = 0;
  let groupAt = segments[0]?.start ?? 0;
  segments.forEach((segment, i) => {
    if (i === 0 || segment.start === undefined) return;
    share(groupFrom, i, groupAt, segment.start);
    [groupFrom, groupAt] = [i, segment.start];
  });
  if (segments.length) share(groupFrom, segments.length, groupAt, mediaEnd);
  return { segments };
}
