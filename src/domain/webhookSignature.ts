// Standard Webhooks signatures (https://www.standardwebhooks.com): the headers a signed callback
// carries. `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` over the exact bytes sent,
// keyed by the base64 part of a `whsec_<base64>` secret. Several secrets (a rotation) sign side by
// side, space-separated, the newest first.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and the base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** The HMAC key of a secret: the base64-decoded part after `whsec_`. */
export function webhookSecretKey(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error('a webhook secret must not be empty');
  return key;
}

/** One signature: `v1,<base64>`. `timestamp` is in whole seconds. */
export function signWebhook(secret: string, id: string, timestamp: number, body: Uint8Array): string {
  const mac = createHmac('sha256', webhookSecretKey(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers of one attempt, signed with every secret given (the current one first). */
export function webhookHeaders(secrets: readonly string[], id: string, timestamp: number, body: Uint8Array): WebhookHeaders {
  if (secrets.length === 0) throw new Error('a signed callback needs a secret');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signWebhook(s, id, timestamp, body)).join(' '),
  };
}
