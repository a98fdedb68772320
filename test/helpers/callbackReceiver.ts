// A customer's callback receiver on loopback: records each multipart POST (its fields, and the raw
// bytes and headers a signature check needs) and answers as told.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { answering, close, listen } from './net.js';

export interface ReceivedCallback {
  path: string;
  fields: Record<string, string>;
  contentType: string;
  /** The body exactly as it arrived. */
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
  /** When it arrived (ms since the epoch). */
  at: number;
}

/** An answer: status, body and extra headers (e.g. Retry-After, Location). */
export interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export interface CallbackReceiver {
  url: string;
  received: ReceivedCallback[];
  /** What the receiver answers: the body (status 200) or a status code. */
  answer: Answer;
  /** Answers used first, one per request, before `answer`. */
  script: Answer[];
  /** When set, answers every request itself instead. */
  respond?: (res: ServerResponse, call: ReceivedCallback) => void;
  close(): Promise<void>;
}

export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const receiver: Omit<CallbackReceiver, 'url' | 'close'> = { received: [], answer: { status: 200, body: 'ok' }, script: [] };
  const server = createServer(
    answering(async (req, res) => {
      const at = Date.now();
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const rawBody = Buffer.concat(chunks);
      const contentType = req.headers['content-type'] ?? '';
      const fields: Record<string, string> = {};
      try {
        const form = await new Request('http://receiver.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body: rawBody }).formData();
        form.forEach((value, key) => {
          fields[key] = String(value);
        });
      } catch {
        // Not a form: the raw body is still recorded.
      }
      const call = { path: req.url ?? '/', fields, contentType, rawBody, headers: req.headers, at };
      receiver.received.push(call);
      if (receiver.respond) return receiver.respond(res, call);
      const answer = receiver.script.shift() ?? receiver.answer;
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body);
    }),
  );
  const url = await listen(server);
  return Object.assign(receiver, { url, close: () => close(server) });
}

/** Runs `test` with a receiver of its own, closed afterwards. */
export async function withReceiver(test: (receiver: CallbackReceiver) => Promise<void>): Promise<void> {
  const receiver = await startCallbackReceiver();
  try {
    await test(receiver);
  } finally {
    await receiver.close();
  }
}
