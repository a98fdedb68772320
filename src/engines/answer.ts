// An engine's answer read whole, but never more than a bound: a misbehaving server cannot fill the
// worker's memory.
import type { Response } from 'undici';
import { EngineFaultError } from './types.js';

export async function readCapped(response: Response, name: string, maxBytes: number): Promise<string> {
  const tooLarge = () => new EngineFaultError(`${name}: the answer is larger than ${maxBytes} bytes`);
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop by throwing cancels the stream.
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
