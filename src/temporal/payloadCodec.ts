// Workflow payloads encrypted before they leave the process: Temporal's database and anyone reading
// histories without the keys see ciphertext only (comments, URLs, file names). AES-256-GCM with a
// random 12-byte IV per payload; the whole original Payload (metadata and data, proto-encoded) is
// the plaintext, and the key id travels in the encrypted payload's metadata so that keys rotate:
// the first key encrypts, every listed key decrypts. Payloads without our encoding (histories
// recorded before encryption) pass through decode unchanged.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { DataConverter, Payload, PayloadCodec } from '@temporalio/common';
import proto from '@temporalio/proto';

const ProtoPayload = proto.temporal.api.common.v1.Payload;

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const ENCODING_METADATA = 'encoding';
export const KEY_ID_METADATA = 'encryption-key-id';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

export interface PayloadKey {
  id: string;
  key: Buffer;
}

/** A payload this codec cannot decrypt: unknown key id, missing metadata, or failed authentication. */
export class PayloadDecryptionError extends Error {}

/** The id given to a key listed without one: a short hash of the key, stable across restarts. */
export function derivedKeyId(key: Buffer): string {
  return `key-${createHash('sha256').update('payload-key-id\0').update(key).digest('hex').slice(0, 12)}`;
}

/**
 * `PAYLOAD_KEYS`: comma-separated `id:<64 hex>` entries (a bare `<64 hex>` gets a derived id);
 * the first encrypts, all decrypt.
 */
export function parsePayloadKeys(raw: string): PayloadKey[] {
  const keys = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const colon = entry.lastIndexOf(':');
      const id = colon < 0 ? undefined : entry.slice(0, colon).trim();
      const hex = entry.slice(colon + 1).trim();
      if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`PAYLOAD_KEYS: the key${id ? ` "${id}"` : ''} must be 64 hexadecimal characters (32 bytes)`);
      const key = Buffer.from(hex, 'hex');
      const keyId = id ?? derivedKeyId(key);
      if (!KEY_ID.test(keyId)) throw new Error(`PAYLOAD_KEYS: key id "${keyId}" may hold only letters, digits, '.', '_' and '-' (at most 64)`);
      return { id: keyId, key };
    });
  if (keys.length === 0) throw new Error('PAYLOAD_KEYS: no key given (expected id:<64 hex>[,id:<64 hex>…])');
  return keys;
}

/** The keys as PAYLOAD_KEYS spells them (to hand to another process). */
export function formatPayloadKeys(keys: readonly PayloadKey[]): string {
  return keys.map((k) => `${k.id}:${k.key.toString('hex')}`).join(',');
}

const text = (value: string) => new TextEncoder().encode(value);
const str = (bytes: Uint8Array | null | undefined) => (bytes ? Buffer.from(bytes).toString('utf8') : undefined);

export function createPayloadCodec(keys: readonly PayloadKey[]): PayloadCodec {
  if (keys.length === 0) throw new Error('a payload codec needs at least one key');
  const byId = new Map<string, Buffer>();
  for (const { id, key } of keys) {
    if (key.length !== 32) throw new Error(`payload key "${id}" must be 32 bytes`);
    if (!KEY_ID.test(id)) throw new Error(`payload key id "${id}" may hold only letters, digits, '.', '_' and '-' (at most 64)`);
    if (byId.has(id)) throw new Error(`payload key id "${id}" is listed twice`);
    byId.set(id, key);
  }
  const current = keys[0]!;

  const encrypt = (payload: Payload): Payload => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', current.key, iv);
    cipher.setAAD(Buffer.from(current.id)); // the key id in the metadata cannot be swapped
    const body = Buffer.concat([cipher.update(ProtoPayload.encode(payload).finish()), cipher.final()]);
    return {
      metadata: { [ENCODING_METADATA]: text(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: text(current.id) },
      data: Buffer.concat([iv, body, cipher.getAuthTag()]),
    };
  };

  const decrypt = (payload: Payload): Payload => {
    if (str(payload.metadata?.[ENCODING_METADATA]) !== ENCRYPTED_ENCODING) return payload;
    const id = str(payload.metadata?.[KEY_ID_METADATA]);
    if (!id) throw new PayloadDecryptionError(`an encrypted payload has no ${KEY_ID_METADATA} in its metadata`);
    const key = byId.get(id);
    if (!key) {
      throw new PayloadDecryptionError(
        `a payload is encrypted with key id "${id}", which is not among the configured keys ` + `(${[...byId.keys()].join(', ')}): add it to PAYLOAD_KEYS`,
      );
    }
    const data = Buffer.from(payload.data ?? new Uint8Array());
    if (data.length < IV_BYTES + TAG_BYTES) throw new PayloadDecryptionError(`an encrypted payload (key id "${id}") is too short`);
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(id));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    let plain: Buffer;
    try {
      plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new PayloadDecryptionError(`an encrypted payload (key id "${id}") failed authentication: altered, or the key under that id changed`);
    }
    const decoded = ProtoPayload.decode(plain);
    return {
      metadata: decoded.metadata,
      data: decoded.data,
      ...(decoded.externalPayloads?.length ? { externalPayloads: decoded.externalPayloads } : {}),
    } as Payload;
  };

  return {
    encode: async (payloads) => payloads.map(encrypt),
    decode: async (payloads) => payloads.map(decrypt),
  };
}

/** The data converter of every Temporal client and worker of the service. */
export function payloadDataConverter(keys: readonly PayloadKey[]): DataConverter {
  return { payloadCodecs: [createPayloadCodec(keys)] };
}

/** Runs payloads through codecs as a client or worker receiving them would (last codec first). */
export async function decodePayloads(codecs: readonly PayloadCodec[], payloads: Payload[]): Promise<Payload[]> {
  let out = payloads;
  for (const codec of [...codecs].reverse()) out = await codec.decode(out);
  return out;
}

/** Runs payloads through codecs as a client or worker sending them would. */
export async function encodePayloads(codecs: readonly PayloadCodec[], payloads: Payload[]): Promise<Payload[]> {
  let out = payloads;
  for (const codec of codecs) out = await codec.encode(out);
  return out;
}
