import { describe, expect, it } from 'vitest';
import { decryptToken, encryptToken, newApiToken, tokenHash } from '../../src/domain/tokens.js';
import { randomBytes } from 'node:crypto';

describe('tokens', () => {
  const key = randomBytes(32);
  it('hashes stably under one key, differently under another', () => {
    const token = newApiToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(tokenHash(key, token)).toBe(tokenHash(key, token));
    expect(tokenHash(randomBytes(32), token)).not.toBe(tokenHash(key, token));
  });
  it('encrypts so that only the key opens it, and detects tampering', () => {
    const token = newApiToken();
    const sealed = encryptToken(key, token);
    expect(sealed).not.toContain(token);
    expect(decryptToken(key, sealed)).toBe(token);
    expect(() => decryptToken(randomBytes(32), sealed)).toThrow();
    const [iv, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => decryptToken(key, [iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
  });
});
