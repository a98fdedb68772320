// The codec endpoint of the Temporal UI and CLI (Temporal's codec server protocol): POST
// /codec/decode and /codec/encode take and answer {"payloads": [...]} in protobuf JSON (metadata
// values and data in base64), run through the payload codecs of the API's own Temporal client, so
// exactly the keys the workers use. Guarded by the operator token; CORS for the configured UI
// origins. The embedded dev UI cannot send that token, so it is let in from its own origin on
// loopback only (docs/decisions/payload-encryption-and-codec.md).
import type { Router, Request, RequestHandler } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Payload } from '@temporalio/common';
import type { ApiDeps } from '../context.js';
import { RequestError } from '../../contracts/failures.js';
import { decodePayloads, encodePayloads, PayloadDecryptionError } from '../../temporal/payloadCodec.js';
import { caseSensitiveRouter } from '../../http/router.js';

const base64 = z.string().regex(/^[A-Za-z0-9+/_-]*={0,2}$/, 'must be base64');
const codecBody = z.object(
  {
    // Protobuf JSON leaves an empty list out: the Temporal CLI sends {} for no payloads.
    payloads: z
      .array(z.object({ metadata: z.record(z.string(), base64).nullish(), data: base64.nullish() }), { error: 'must be an array of payloads' })
      .max(10_000)
      .default([]),
  },
  { error: 'send {"payloads": [...]} as JSON' },
);
type JsonPayload = z.infer<typeof codecBody>['payloads'][number];

const fromJson = (p: JsonPayload): Payload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  ...(p.data != null ? { data: Buffer.from(p.data, 'base64') } : {}),
});
const toJson = (p: Payload) => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  ...(p.data != null ? { data: Buffer.from(p.data).toString('base64') } : {}),
});

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

type CodecDeps = Pick<ApiDeps, 'temporal' | 'opsToken' | 'codec'>;

/** CORS for the UI's origins: preflights answered here, the origin echoed on every answer (errors too). */
function cors(uiOrigins: string[]): RequestHandler {
  return (req, res, next) => {
    const origin = req.headers.origin;
    const allowed = origin !== undefined && uiOrigins.includes(origin);
    if (allowed) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
    }
    res.vary('Origin');
    if (req.method !== 'OPTIONS') return next();
    if (!allowed) throw new RequestError(`origin ${origin ?? '(none)'} may not call the codec endpoint (CODEC_UI_ORIGINS)`, 403);
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type, x-namespace');
    if (req.headers['access-control-request-private-network']) res.setHeader('Access-Control-Allow-Private-Network', 'true');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  };
}

/** The embedded UI's own request: its origin, from this machine, not relayed by a proxy. */
function fromLoopbackUi(req: Request, deps: CodecDeps): boolean {
  const { uiOrigins = [], trustLoopbackUi = false } = deps.codec ?? {};
  const origin = req.headers.origin;
  return (
    trustLoopbackUi &&
    origin !== undefined &&
    uiOrigins.includes(origin) &&
    LOOPBACK.has(req.socket.remoteAddress ?? '') &&
    req.headers['x-forwarded-for'] === undefined &&
    req.headers.forwarded === undefined
  );
}

function requireOperatorOrLocalUi(deps: CodecDeps): RequestHandler {
  const expected = Buffer.from(deps.opsToken);
  return (req, _res, next) => {
    const given = Buffer.from((req.headers.authorization ?? '').replace(/^Bearer\s+/i, ''));
    const bearer = given.length === expected.length && timingSafeEqual(given, expected);
    if (!bearer && !fromLoopbackUi(req, deps)) throw new RequestError('operator token missing or invalid (send Authorization: Bearer $OPS_TOKEN)', 401);
    next();
  };
}

export function codecRouter(deps: CodecDeps): Router {
  const router = caseSensitiveRouter();
  router.use('/codec', cors(deps.codec?.uiOrigins ?? []), requireOperatorOrLocalUi(deps));
  const codecs = () => deps.temporal.options.loadedDataConverter.payloadCodecs;
  const run =
    (transform: typeof decodePayloads): RequestHandler =>
    async (req, res) => {
      const { payloads } = codecBody.parse(req.body);
      let out: Payload[];
      try {
        out = await transform(codecs(), payloads.map(fromJson));
      } catch (err) {
        if (err instanceof PayloadDecryptionError) throw new RequestError(err.message);
        throw err;
      }
      res.json({ payloads: out.map(toJson) });
    };
  router.post('/codec/decode', run(decodePayloads));
  router.post('/codec/encode', run(encodePayloads));
  return router;
}
