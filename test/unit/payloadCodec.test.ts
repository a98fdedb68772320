// The payload codec: AES-256-GCM per payload, the key id in the metadata, keys rotatable, plain
// payloads (histories recorded before encryption) passed through.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import {
  createPayloadCodec,
  derivedKeyId,
  ENCRYPTED_ENCODING,
  formatPayloadKeys,
  KEY_ID_METADATA,
  parsePayloadKeys,
  PayloadDecryptionError,
  type PayloadKey,
} from '../../src/temporal/payloadCodec.js';

const key = (id: string): PayloadKey => ({ id, key: randomBytes(32) });
const meta = (p: Payload, name: string) => Buffer.from(p.metadata![name]!).toString('utf8');
const SECRET = { comment: 'Interview with Dr. Zebediah Quillfeather', callbackUrl: 'https://hooks.example.test/quillfeather' };

describe('payload codec', () => {
  const k1 = key('k1');

  it('round-trips a payload, metadata and all, and hides its bytes', async () => {
    const codec = createPayloadCodec([k1]);
    const plain = defaultPayloadConverter.toPayload(SECRET);
    const [encrypted] = await codec.encode([plain]);
    expect(meta(encrypted!, 'encoding')).toBe(ENCRYPTED_ENCODING);
    expect(Buffer.from(encrypted!.data!).includes('Quillfeather')).toBe(false);
    const [decoded] = await codec.decode([encrypted!]);
    expect(meta(decoded!, 'encoding')).toBe('json/plain');
    expect(defaultPayloadConverter.fromPayload(decoded!)).toEqual(SECRET);
  });

  it('names the encrypting key in the metadata and uses a fresh IV each time', async () => {
    const codec = createPayloadCodec([k1]);
    const plain = defaultPayloadConverter.toPayload(SECRET);
    const [a, b] = await codec.encode([plain, plain]);
    expect(meta(a!, KEY_ID_METADATA)).toBe('k1');
    expect(Buffer.from(a!.data!).equals(Buffer.from(b!.data!))).toBe(false);
    expect(Buffer.from(a!.data!).subarray(0, 12).equals(Buffer.from(b!.data!).subarray(0, 12))).toBe(false);
  });

  it('rotates: the first key encrypts, older keys still decrypt', async () => {
    const [old] = await createPayloadCodec([k1]).encode([defaultPayloadConverter.toPayload('before rotation')]);
    const k2 = key('k2');
    const rotated = createPayloadCodec([k2, k1]);
    const [fresh] = await rotated.encode([defaultPayloadConverter.toPayload('after rotation')]);
    expect(meta(fresh!, KEY_ID_METADATA)).toBe('k2');
    const decoded = await rotated.decode([old!, fresh!]);
    expect(decoded.map((p) => defaultPayloadConverter.fromPayload(p))).toEqual(['before rotation', 'after rotation']);
  });

  it('refuses a payload whose key id it does not know, naming the id', async () => {
    const [encrypted] = await createPayloadCodec([key('retired')]).encode([defaultPayloadConverter.toPayload('x')]);
    const decoding = createPayloadCodec([k1]).decode([encrypted!]);
    await expect(decoding).rejects.toBeInstanceOf(PayloadDecryptionError);
    await expect(decoding).rejects.toThrow(/key id "retired".*not among the configured keys \(k1\)/);
  });

  it('refuses tampered ciphertext, a swapped key id and a changed key', async () => {
    const codec = createPayloadCodec([k1, key('k0')]);
    const [encrypted] = await codec.encode([defaultPayloadConverter.toPayload(SECRET)]);
    const flipped = Buffer.from(encrypted!.data!);
    flipped[20] = flipped[20]! ^ 0x01;
    await expect(codec.decode([{ ...encrypted!, data: flipped }])).rejects.toThrow(/failed authentication/);
    const swapped = { ...encrypted!, metadata: { ...encrypted!.metadata, [KEY_ID_METADATA]: Buffer.from('k0') } };
    await expect(codec.decode([swapped])).rejects.toThrow(/key id "k0"\) failed authentication/);
    await expect(createPayloadCodec([{ id: 'k1', key: randomBytes(32) }]).decode([encrypted!])).rejects.toThrow(/failed authentication/);
    await expect(codec.decode([{ ...encrypted!, data: flipped.subarray(0, 20) }])).rejects.toThrow(/too short/);
  });

  it('passes unencrypted payloads through unchanged', async () => {
    const codec = createPayloadCodec([k1]);
    const plain = defaultPayloadConverter.toPayload({ recorded: 'before encryption' });
    const empty = defaultPayloadConverter.toPayload(undefined);
    expect(await codec.decode([plain, empty])).toEqual([plain, empty]);
  });
});

describe('PAYLOAD_KEYS', () => {
  const hex1 = 'ab'.repeat(32);
  const hex2 = 'cd'.repeat(32);

  it('reads id:hex entries in order, and gives a bare key a stable derived id', () => {
    const keys = parsePayloadKeys(` k2:${hex2} , k1:${hex1}`);
    expect(keys.map((k) => k.id)).toEqual(['k2', 'k1']);
    expect(keys[0]!.key.toString('hex')).toBe(hex2);
    const [bare] = parsePayloadKeys(hex1);
    expect(bare!.id).toBe(derivedKeyId(Buffer.from(hex1, 'hex')));
    expect(bare!.id).toMatch(/^key-[0-9a-f]{12}$/);
    expect(parsePayloadKeys(formatPayloadKeys(keys))).toEqual(keys);
  });

  it('refuses malformed keys, ids and duplicates', () => {
    expect(() => parsePayloadKeys('k1:abc')).toThrow(/"k1" must be 64 hexadecimal/);
    expect(() => parsePayloadKeys(`bad id:${hex1}`)).toThrow(/key id "bad id"/);
    expect(() => parsePayloadKeys(' , ')).toThrow(/no key/);
    expect(() => createPayloadCodec(parsePayloadKeys(`k1:${hex1},k1:${hex2}`))).toThrow(/listed twice/);
  });
});
