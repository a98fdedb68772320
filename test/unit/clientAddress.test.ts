// TRUST_PROXY (the proxies whose X-Forwarded-For names the client of the limits per address) and the
// access log's masking of share tokens (issue 51).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { parseTrustProxy } from '../../src/http/clientAddress.js';
import { loggedPath } from '../../src/http/loggedPath.js';

const base = async () => ({ DATA_DIR: await mkdtemp(join(tmpdir(), 'cfg-')), SECRET_KEY: 'ab'.repeat(32), OPS_TOKEN: 'ops', ENGINES_DIR: tmpdir() });

describe('TRUST_PROXY', () => {
  it('trusts no proxy unless told: the socket’s peer is the client', async () => {
    expect((await loadConfig(await base())).trustProxy).toBe(false);
    for (const off of ['', ' ', 'false', '0']) expect(parseTrustProxy(off), off).toBe(false);
  });

  it('takes a number of hops, or the proxies’ addresses, CIDRs and range names, as Express does', async () => {
    expect((await loadConfig({ ...(await base()), TRUST_PROXY: '10.0.0.0/8, 192.168.1.7' })).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.7']);
    expect(parseTrustProxy('2')).toBe(2);
    const list = parseTrustProxy('loopback,uniquelocal,linklocal,fd00::/8,::1,127.0.0.1/32');
    expect(list).toEqual(['loopback', 'uniquelocal', 'linklocal', 'fd00::/8', '::1', '127.0.0.1/32']);
    // Whatever is accepted, Express's `trust proxy` compiles (it throws on what it cannot read).
    for (const value of [list, 2, false]) expect(() => express().set('trust proxy', value)).not.toThrow();
  });

  it('refuses `true` (any client would pick its own address) and what is not an address', async () => {
    await expect(loadConfig({ ...(await base()), TRUST_PROXY: 'true' })).rejects.toThrow(/TRUST_PROXY=true/);
    for (const wrong of ['proxy.example', '10.0.0.0/33', '::1/129', '10.0.0.1/8/2', '10.0.0.256', 'loopback,nearby', '1.5']) {
      expect(() => parseTrustProxy(wrong), wrong).toThrow(/TRUST_PROXY/);
    }
  });
});

describe('the access log’s path', () => {
  const token = 'Ab3_-'.repeat(6) + 'xy';
  it('masks a share token whatever the case of the prefix and however many slashes, keeping what follows', () => {
    expect(loggedPath(`/shared/${token}`)).toBe('/shared/…');
    expect(loggedPath(`/SHARED/${token}/media`)).toBe('/SHARED/…/media');
    expect(loggedPath(`/Shared/${token}/files/transcription`)).toBe('/Shared/…/files/transcription');
    expect(loggedPath(`//shared//${token}`)).toBe('//shared//…');
  });

  it('leaves other paths as they are', () => {
    for (const path of ['/account/orders/12', '/sharedx/abc', '/api/v4/orders', '/account/shared/abc']) expect(loggedPath(path)).toBe(path);
  });
});
