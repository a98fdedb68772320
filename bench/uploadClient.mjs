// The client of bench/upload.mjs, in a process of its own (never the server's): one tus 1.0 upload of
// a file, as a script would send it: the creation (POST with Upload-Length), then PATCHes of
// --chunk-mb each, in order, on one kept-alive connection (undici), each body streamed from the file
// (Content-Length set, no buffering of the chunk), and its termination (DELETE) after the clock
// stops. The same client for the service and the bare server.
// Usage: node bench/uploadClient.mjs --endpoint http://127.0.0.1:PORT/path --file F [--token T] [--chunk-mb 8] [--bytes N] [--read-kb 1024]
// (--read-kb: the pieces the body is read from the file and written to the socket in.)
// Prints one JSON line: bytes, PATCHes, seconds (creation to the last 204), MB/s, PATCH times.
import { createReadStream, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Client } from 'undici';

const { values } = parseArgs({
  options: {
    endpoint: { type: 'string' },
    file: { type: 'string' },
    token: { type: 'string' },
    'chunk-mb': { type: 'string', default: '8' },
    bytes: { type: 'string' },
    'read-kb': { type: 'string', default: '1024' },
  },
});
const endpoint = new URL(values.endpoint);
const size = values.bytes ? Number(values.bytes) : statSync(values.file).size;
const CHUNK = Number(values['chunk-mb']) * 1024 * 1024;
const client = new Client(endpoint.origin, { keepAliveTimeout: 60_000, headersTimeout: 120_000, bodyTimeout: 120_000 });
const auth = values.token ? { authorization: `Bearer ${values.token}` } : {};
const tus = { 'tus-resumable': '1.0.0', ...auth };

async function call(method, path, headers, body) {
  const res = await client.request({ method, path, headers, body });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text };
}

const started = performance.now();
const created = await call('POST', endpoint.pathname, {
  ...tus,
  'upload-length': String(size),
  'upload-metadata': `filename ${Buffer.from('bench.bin').toString('base64')}`,
});
if (created.status !== 201) throw new Error(`creation: ${created.status} ${created.text}`);
// The Location names the service's public base URL: the same path on the origin this client talks to.
const path = new URL(created.headers.location, endpoint).pathname;
const patchMs = [];
let offset = 0;
while (offset < size) {
  const length = Math.min(CHUNK, size - offset);
  const t = performance.now();
  const res = await call(
    'PATCH',
    path,
    { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', 'content-length': String(length) },
    createReadStream(values.file, { start: offset, end: offset + length - 1, highWaterMark: Number(values['read-kb']) * 1024 }),
  );
  patchMs.push(performance.now() - t);
  if (res.status !== 204) throw new Error(`PATCH at ${offset}: ${res.status} ${res.text}`);
  offset += length;
  if (Number(res.headers['upload-offset']) !== offset) throw new Error(`PATCH: Upload-Offset ${res.headers['upload-offset']}, expected ${offset}`);
}
const seconds = (performance.now() - started) / 1000;
const terminated = await call('DELETE', path, tus);
await client.close();
patchMs.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    bytes: size,
    patches: patchMs.length,
    seconds: +seconds.toFixed(2),
    mb_per_s: +(size / 1024 / 1024 / seconds).toFixed(1),
    patch_ms: { p50: +patchMs[Math.floor(patchMs.length / 2)].toFixed(1), max: +patchMs.at(-1).toFixed(1) },
    terminated: terminated.status,
  }),
);
