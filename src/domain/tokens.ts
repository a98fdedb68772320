// API tokens and share links' tokens: random; stored as an HMAC for lookup and AES-256-GCM to be shown again.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

export function newApiToken(): string {
  return randomBytes(24).toString('base64url');
}

/** `secretKey` is 32 bytes. */
export function tokenHash(secretKey: Buffer, token: string): string {
  return createHmac('sha256', secretKey).update(`api-token:${token}`).digest('hex');
}

/** The lookup key of a share link's token (src/db/shareLinks.ts): its own HMAC domain, never an API token's. */
export function shareTokenHash(secretKey: Buffer, token: string): string {
  return createHmac('sha256', secretKey).update(`share-link:${token}`).digest('hex');
}

export function encryptToken(secretKey: Buffer, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretKey, iv);
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

export function decryptToken(secretKey: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  if (!iv || !tag || !body) throw new Error('malformed encrypted token');
  const decipher = createDecipheriv('aes-256-gcm', secretKey, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}
