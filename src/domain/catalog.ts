// The spec's shared enumerations. Products build their request schemas from these
// (src/products/params.ts); the language sets are in languages.ts.
export const ENUMS = {
  mode: ['test', 'live'],
  text_format: ['clean_verbatim', 'full_verbatim'],
  timestamping: ['not_required', 'every_10_seconds', 'every_30_seconds', 'every_2_minutes', 'change_of_speaker'],
  turnaround_time: ['12_hours', '1_days', '3_days', '5_days'],
  number_of_speakers: ['1_or_2', '3_or_more'],
} as const;

export type EnumName = keyof typeof ENUMS;
export type Mode = (typeof ENUMS.mode)[number];
export type TurnaroundTime = (typeof ENUMS.turnaround_time)[number];
