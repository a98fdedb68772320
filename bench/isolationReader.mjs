// The reader of bench/isolation.mjs, as a worker thread or as a child process: loads the service's
// document readers, then answers { id, op } messages.
import { parentPort } from 'node:worker_threads';

const { documentWords } = await import('../dist/documents/measure.js');
await import('../dist/documents/importers.js');
const send = parentPort ? (m) => parentPort.postMessage(m) : (m) => process.send(m);
const held = [];
const handle = async ({ id, op, bytes, fileName, mb }) => {
  if (op === 'words') return send({ id, words: await documentWords(bytes, fileName) });
  // External memory (ArrayBuffers), as inflated streams and decoded images are.
  if (op === 'allocate') {
    for (let n = 0; n < mb; n += 16) held.push(new Uint8Array(16 * 1024 ** 2).fill(1));
    return send({ id, allocated: mb });
  }
  if (op === 'spin') for (;;);
};
if (parentPort) parentPort.on('message', handle);
else process.on('message', handle);
send({ ready: true });
