// A user's LibreTranslate-compatible server at the edge of the world: a real HTTP server on
// loopback speaking its API (GET /languages, POST /translate), recording each request.
import { createServer } from 'node:http';
import { answering, close, listen } from './net.js';

export interface LibreRequest {
  method: string;
  path: string;
  contentType?: string;
  body: Record<string, unknown>;
}
export type LibreBehaviour = { kind: 'translate' } | { kind: 'status'; status: number; body: string } | { kind: 'hang' } | { kind: 'answer'; body: string };

/** A LibreTranslate double: `[target] text` for each text; records each request. */
export async function startLibreTranslate(languages: unknown) {
  const double = { requests: [] as LibreRequest[], behaviour: { kind: 'translate' } as LibreBehaviour, languages };
  const server = createServer(
    answering(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
      double.requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        ...(req.headers['content-type'] ? { contentType: req.headers['content-type'] } : {}),
        body,
      });
      const json = (status: number, data: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(data));
      if (req.url === '/languages') return json(200, double.languages);
      const b = double.behaviour;
      if (b.kind === 'hang') return;
      if (b.kind === 'status') return void res.writeHead(b.status, { 'content-type': 'application/json' }).end(b.body);
      if (b.kind === 'answer') return void res.writeHead(200, { 'content-type': 'application/json' }).end(b.body);
      json(200, { translatedText: (body.q as string[]).map((q) => `[${String(body.target)}] ${q}`) });
    }),
  );
  const url = await listen(server);
  return Object.assign(double, { url, close: () => close(server) });
}

export type LibreTranslateDouble = Awaited<ReturnType<typeof startLibreTranslate>>;
