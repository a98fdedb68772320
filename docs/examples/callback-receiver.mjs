#!/usr/bin/env node
// A callback receiver that verifies the order service's Standard Webhooks signature.
// Only Node's own modules; Node 20 or later.
//
//   WEBHOOK_SECRET=whsec_... PORT=8080 node docs/examples/callback-receiver.mjs
//
// Give http://<this host>:8080/ as the callback_url. Each verified callback is printed as one JSON
// line; anything unsigned, wrongly signed or too old is refused with 401 and never processed.
import { createServer } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';

const SECRET = process.env.WEBHOOK_SECRET ?? '';
const PORT = Number(process.env.PORT ?? 8080);
const TOLERANCE_SECONDS = 5 * 60; // refuse replays of old messages (and clocks far apart)
const MAX_BODY_BYTES = 1024 * 1024;
if (!SECRET.startsWith('whsec_')) {
  console.error('set WEBHOOK_SECRET to the whsec_... secret (order-ops account webhook-secret ACCOUNT_ID)');
  process.exit(1);
}
const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');

/** Throws unless one `v1,` signature of the header matches the raw body under our key, in time. */
function verify(headers, body) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) throw new Error('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) {
    throw new Error('timestamp outside the tolerance');
  }
  // Signed content: id.timestamp.body, over the body's exact bytes.
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  // Several signatures are sent while the service rotates its secret: any one may match.
  for (const signature of signatures.split(' ')) {
    const [version, value] = signature.split(',');
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return id;
  }
  throw new Error('no matching signature');
}

// Retries after a lost answer carry the same webhook-id: remember the ids (a database in real life)
// and answer `ok` to a duplicate without processing it again.
const seen = new Set();

const server = createServer(async (req, res) => {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return void res.writeHead(413).end('too large');
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  let id;
  try {
    id = verify(req.headers, body);
  } catch (err) {
    console.error(`refused: ${err.message}`);
    return void res.writeHead(401, { 'content-type': 'text/plain' }).end('invalid signature');
  }
  if (!seen.has(id)) {
    seen.add(id);
    // Only now is the body trusted: parse the multipart form.
    const form = await new Request('http://receiver/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] }, body }).formData();
    console.log(JSON.stringify({ verified: true, id, fields: Object.fromEntries(form) }));
  }
  // The service counts a callback as delivered only on the plain answer `ok`.
  res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
});

server.listen(PORT, () => console.log(`listening on http://localhost:${PORT}/`));
