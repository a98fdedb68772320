// What the workbench's keys and buttons do to the player and the page, as numbers and text: the
// inaudible mark, the playing speed's steps, the back-track on resuming, the page images' zoom. No
// DOM: work.ts applies them. Time marks are the service's own (src/domain/humanWork/editorText.ts).
import { formatMark } from '../../../domain/humanWork/editorText.js';

/** The mark of a stretch nobody could make out, at `seconds`, with the space after it. */
export const inaudibleMark = (seconds: number): string => `[inaudible ${formatMark(seconds).slice(1, -1)}] `;

/** The playing speed a step up or down leads to: quarter steps from 0.5× to 2×. */
export const playbackRateAfter = (rate: number, delta: number): number => Math.min(2, Math.max(0.5, Math.round((rate + delta) * 4) / 4));

/** Where playing again starts: back by the worker's back-track, so the last words are heard again; at the start, the start. */
export const resumeFrom = (currentTime: number, backTrackSeconds: number): number | undefined =>
  currentTime > 0 ? Math.max(0, currentTime - backTrackSeconds) : undefined;

/** The page images' zoom after a step in (`direction` > 0) or out: by a quarter, between half and four times. */
export const zoomAfter = (zoom: number, direction: number): number => Math.min(4, Math.max(0.5, zoom * (direction > 0 ? 1.25 : 0.8)));
