// A speech engine on loopback speaking the OpenAI-compatible transcription interface: records
// each request and answers as its (mutable) behaviour says.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { answering, close, listen } from './net.js';

/** The multipart text fields of a request, each with all its values in order. */
export type EngineFields = Record<string, string[]>;

export type EngineBehaviour =
  | { kind: 'transcript'; body: object }
  | { kind: 'status'; status: number; body: string }
  | { kind: 'hang' }
  | ((fields: EngineFields, path: string, headers: IncomingHttpHeaders) => EngineBehaviour);

export interface EngineRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  fields: EngineFields;
  /** The uploaded file's name, size and type (its bytes are not kept). */
  file?: { name: string; size: number; type: string };
}

export interface EngineServer {
  url: string;
  requests: EngineRequest[];
  behaviour: EngineBehaviour;
  close(): Promise<void>;
}

export async function startEngineServer(): Promise<EngineServer> {
  const engine: Omit<EngineServer, 'url' | 'close'> = { requests: [], behaviour: { kind: 'transcript', body: verboseJson([]) } };
  const server = createServer(
    answering(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const fields: EngineFields = {};
      let file: EngineRequest['file'];
      try {
        const form = await new Request('http://engine.invalid/', {
          method: 'POST',
          headers: { 'content-type': req.headers['content-type'] ?? '' },
          body: Buffer.concat(chunks),
        }).formData();
        form.forEach((value, key) => {
          if (typeof value === 'string') (fields[key] ??= []).push(value);
          else file = { name: value.name, size: value.size, type: value.type };
        });
      } catch {
        // Not multipart: recorded without fields; the behaviour still decides the answer.
      }
      engine.requests.push({ method: req.method ?? '', path: req.url ?? '/', headers: req.headers, fields, ...(file ? { file } : {}) });
      let behaviour = engine.behaviour;
      while (typeof behaviour === 'function') behaviour = behaviour(fields, req.url ?? '/', req.headers);
      if (behaviour.kind === 'hang') return;
      if (behaviour.kind === 'status') return void res.writeHead(behaviour.status, { 'content-type': 'text/plain' }).end(behaviour.body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(behaviour.body));
    }),
  );
  const url = await listen(server);
  return Object.assign(engine, { url, close: () => close(server) });
}

export interface VerboseJsonOptions {
  language?: string;
  /** Defaults to the last word's end. */
  duration?: number;
  /** Where the words go: top level as OpenAI does (default), or inside each segment as some servers do. */
  words?: 'top' | 'segments';
}

/** An OpenAI-style verbose_json answer: segments end at sentence ends (. ! ?), word times in seconds, a word's probability where given. */
export function verboseJson(words: Array<[text: string, start: number, end: number, probability?: number]>, opts: VerboseJsonOptions = {}): object {
  const apiWords = words.map(([word, start, end, probability]) => ({ word, start, end, ...(probability !== undefined ? { probability } : {}) }));
  const groups: Array<typeof apiWords> = [];
  let open: typeof apiWords = [];
  for (const w of apiWords) {
    open.push(w);
    if (/[.!?]$/.test(w.word)) {
      groups.push(open);
      open = [];
    }
  }
  if (open.length) groups.push(open);
  const segments = groups.map((g, id) => ({
    id,
    seek: 0,
    start: g[0]!.start,
    end: g.at(-1)!.end,
    // OpenAI's segment text starts with a space.
    text: ` ${g.map((w) => w.word.trim()).join(' ')}`,
    tokens: [],
    temperature: 0,
    avg_logprob: -0.2,
    compression_ratio: 1.2,
    no_speech_prob: 0.01,
    ...(opts.words === 'segments' ? { words: g } : {}),
  }));
  return {
    task: 'transcribe',
    language: opts.language ?? 'english',
    duration: opts.duration ?? apiWords.at(-1)?.end ?? 0,
    text: apiWords.map((w) => w.word.trim()).join(' '),
    segments,
    ...(opts.words === 'segments' ? {} : { words: apiWords }),
  };
}
