// The address classifier behind the outbound guard: every non-public range, in every spelling
// that can reach a socket, and the operator's allow-list.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAddressGuard, parseAllowCidrs, parseCidr } from '../../src/net/addressGuard.js';
import { privateAddressHint, RefusedAddressError } from '../../src/net/outbound.js';
import { loadConfig } from '../../src/config.js';

const strict = createAddressGuard([]);
const refused = (address: string, guard = strict) => !guard(address).allowed;

describe('the address guard', () => {
  it.each([
    // loopback, this network, RFC 1918, link-local (cloud metadata), CGNAT
    '127.0.0.1',
    '127.0.0.2',
    '127.255.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.0.1',
    '192.168.255.255',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.254',
    // multicast, reserved, broadcast
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.254',
    '255.255.255.255',
    // IETF, documentation, benchmarking, 6to4 relay
    '192.0.0.8',
    '192.0.2.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '192.88.99.1',
  ])('refuses IPv4 %s', (address) => {
    expect(refused(address)).toBe(true);
  });

  it.each([
    '::',
    '::1',
    '0:0:0:0:0:0:0:1',
    '::0.0.0.1',
    'fc00::1',
    'fd12:3456:789a::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'fec0::1',
    'ff02::1',
    'ff05::1:3',
    '2001:db8::1',
    '2001:db8:ffff::1',
    '100::1',
    '3fff::1',
    // mapped, translated, NAT64, 6to4 and Teredo forms of private IPv4 addresses
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:7f00:0001',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:0.0.0.0',
    '::ffff:0:127.0.0.1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::1',
    '2002:7f00:1::1',
    '2002:c0a8:101::1',
    '2001::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '::127.0.0.1',
    // IPv6 outside global unicast
    '4000::1',
    'e000::1',
  ])('refuses IPv6 %s', (address) => {
    expect(refused(address)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.167.255.255',
    '192.169.0.1',
    '198.17.255.255',
    '198.20.0.1',
    '223.255.255.255',
    '11.0.0.1',
    '126.255.255.255',
    '128.0.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:81b::200e',
    '::ffff:93.184.216.34',
    '64:ff9b::93.184.216.34',
    '2002:5db8:d822::1',
  ])('allows the public address %s', (address) => {
    expect(strict(address)).toEqual({ allowed: true });
  });

  it('refuses what is not an IP address', () => {
    for (const text of ['localhost', '0x7f000001', '2130706433', '127.1', '', 'fe80::1::2', '1.2.3.4.5']) expect(refused(text)).toBe(true);
  });

  it('names the range and why', () => {
    expect(strict('127.0.0.1')).toEqual({ allowed: false, reason: 'a loopback address', range: '127.0.0.0/8' });
    expect(strict('169.254.169.254')).toMatchObject({ range: '169.254.0.0/16', reason: 'a link-local address' });
    expect(strict('::1')).toMatchObject({ range: '::1/128', reason: 'a loopback address' });
    expect(strict('::')).toMatchObject({ range: '::/128' });
    expect(strict('255.255.255.255')).toMatchObject({ reason: 'the broadcast address' });
    expect(strict('::ffff:127.0.0.1')).toMatchObject({ range: '127.0.0.0/8', reason: 'IPv4-mapped form of 127.0.0.1, a loopback address' });
    expect(strict('2002:a00:1::')).toMatchObject({ range: '10.0.0.0/8', reason: '6to4 form of 10.0.0.1, a private (RFC 1918) address' });
    expect(strict('2001:0:4136:e378::1')).toMatchObject({ range: '2001::/32', reason: 'a Teredo address' });
  });

  it('allows exactly the listed ranges, in any spelling of their addresses', () => {
    const guard = createAddressGuard(['127.0.0.0/8', '::1/128', '10.1.0.0/16', ' 192.168.1.5 ']);
    for (const ok of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1', '64:ff9b::7f00:1', '10.1.255.255', '192.168.1.5']) {
      expect(guard(ok), ok).toEqual({ allowed: true });
    }
    for (const no of ['10.2.0.1', '192.168.1.6', '169.254.169.254', 'fe80::1', '::2', '0.0.0.0']) expect(refused(no, guard), no).toBe(true);
    // Host bits are ignored, as in routing tables.
    expect(createAddressGuard(['172.16.5.9/12'])('172.31.0.1')).toEqual({ allowed: true });
    expect(createAddressGuard(['fd00::/8'])('fdff::1')).toEqual({ allowed: true });
  });

  it('parses CIDRs and names an invalid entry', () => {
    expect(parseCidr('10.0.0.0/8')).toMatchObject({ family: 4, prefix: 8 });
    expect(parseCidr('::1')).toMatchObject({ family: 6, prefix: 128 });
    for (const bad of ['10.0.0.0/33', '::/129', '10.0.0/8', 'localhost', '10.0.0.0/8/1', '10.0.0.0/', '10.0.0.0/-1', '10.0.0.0/1e1']) {
      expect(parseCidr(bad), bad).toBeUndefined();
    }
    expect(() => parseAllowCidrs(['127.0.0.0/8', 'ten/8'])).toThrow('"ten/8" is not a CIDR such as 10.0.0.0/8 or fd00::/8');
    expect(parseAllowCidrs(['', ' '])).toEqual([]);
  });
});

describe('configuration and the start hint', () => {
  it('reads OUTBOUND_ALLOW_CIDRS and the probe limits, and refuses a bad CIDR at start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'guard-config-'));
    try {
      const env = { DATA_DIR: dataDir, AI_ENGINE: 'operator', ALIGN_ENGINE: 'operator' };
      const defaults = await loadConfig(env);
      expect(defaults.outbound).toEqual({ allowCidrs: [] });
      expect(defaults.probes).toEqual({ quote: { timeoutMs: 10_000 }, perAccount: 4, waitMs: 1000, cacheEntries: 10_000 });
      // A quote measures with the live limits on size and length (MEDIA_MAX_BYTES, MEDIA_MAX_SECONDS).
      expect(defaults.media).toEqual({ maxBytes: 5 * 1024 ** 3, maxSeconds: 36_000, timeoutMs: 30_000 });
      const set = await loadConfig({ ...env, OUTBOUND_ALLOW_CIDRS: ' 127.0.0.0/8, ::1/128 ,', QUOTE_PROBE_TIMEOUT_MS: '5000', PROBES_PER_ACCOUNT: '2' });
      expect(set.outbound.allowCidrs).toEqual(['127.0.0.0/8', '::1/128']);
      expect(set.probes).toMatchObject({ quote: { timeoutMs: 5000 }, perAccount: 2 });
      await expect(loadConfig({ ...env, OUTBOUND_ALLOW_CIDRS: '10.0.0.0/8,10.0.0.0/40' })).rejects.toThrow(
        'OUTBOUND_ALLOW_CIDRS: "10.0.0.0/40" is not a CIDR such as 10.0.0.0/8 or fd00::/8',
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('npm start says once how to allow a refused private range', () => {
    const lines: string[] = [];
    const hint = privateAddressHint((line) => lines.push(line));
    hint(new RefusedAddressError('127.0.0.1', '127.0.0.0/8', 'a loopback address', 'localhost'));
    hint(new RefusedAddressError('10.0.0.1', '10.0.0.0/8', 'a private (RFC 1918) address', '10.0.0.1'));
    expect(lines).toEqual([
      'A customer URL was refused because it points to a private address (127.0.0.1); ' +
        'set OUTBOUND_ALLOW_CIDRS=127.0.0.0/8 to allow it for local experiments.',
    ]);
  });
});
