// A customer's callback receiver on loopback: records each multipart POST and answers as told.
import { createServer } from 'node:http';
import { close, listen } from './net.js';

export interface ReceivedCallback { path: string; fields: Record<string, string>; contentType: string }

export interface CallbackReceiver {
  url: string;
  received: ReceivedCallback[];
  /** What the receiver answers: the body (status 200) or a status code. */
  answer: { status: number; body: string };
  close(): Promise<void>;
}

export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const receiver: Omit<CallbackReceiver, 'url' | 'close'> = { received: [], answer: { status: 200, body: 'ok' } };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const contentType = req.headers['content-type'] ?? '';
    const form = await new Request('http://receiver.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body: Buffer.concat(chunks) }).formData();
    const fields: Record<string, string> = {};
    form.forEach((value, key) => { fields[key] = String(value); });
    receiver.received.push({ path: req.url ?? '/', fields, contentType });
    res.writeHead(receiver.answer.status, { 'content-type': 'text/plain' }).end(receiver.answer.body);
  });
  const url = await listen(server);
  return Object.assign(receiver, { url, close: () => close(server) });
}
