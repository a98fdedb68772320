// Which addresses a customer URL may reach: public unicast only, unless an operator's
// OUTBOUND_ALLOW_CIDRS lists the range. Addresses are compared as numbers, so no spelling of an
// address (mapped, translated, 6to4) slips past a textual check.
import { isIPv4, isIPv6 } from 'node:net';

export type Verdict = { allowed: true } | { allowed: false; reason: string; range: string };

interface Range {
  text: string;
  family: 4 | 6;
  base: bigint;
  prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;

function parseV4(text: string): bigint | undefined {
  if (!isIPv4(text)) return undefined;
  return text.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n);
}

function parseV6(text: string): bigint | undefined {
  const plain = text.split('%')[0]!; // a zone id says which interface, not which address
  if (!isIPv6(plain)) return undefined;
  let hex = plain;
  const tail = plain.slice(plain.lastIndexOf(':') + 1);
  if (tail.includes('.')) {
    const v4 = Number(parseV4(tail));
    hex = `${plain.slice(0, plain.length - tail.length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, rest] = hex.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function parseAddress(text: string): { family: 4 | 6; value: bigint } | undefined {
  const bare = text.replace(/^\[(.*)\]$/, '$1');
  const v4 = parseV4(bare);
  if (v4 !== undefined) return { family: 4, value: v4 };
  const v6 = parseV6(bare);
  return v6 === undefined ? undefined : { family: 6, value: v6 };
}

/** `10.0.0.0/8`, `fd00::/8`, or a single address; undefined when it is neither. */
export function parseCidr(text: string): Range | undefined {
  const [address, bits, extra] = text.trim().split('/');
  if (extra !== undefined || !address) return undefined;
  const parsed = parseAddress(address);
  if (!parsed) return undefined;
  const width = BITS[parsed.family];
  const prefix = bits === undefined ? width : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
  if (!(prefix >= 0 && prefix <= width)) return undefined;
  const hostBits = BigInt(width - prefix);
  return { text: text.trim(), family: parsed.family, base: (parsed.value >> hostBits) << hostBits, prefix };
}

function contains(range: Range, family: 4 | 6, value: bigint): boolean {
  if (range.family !== family) return false;
  const hostBits = BigInt(BITS[family] - range.prefix);
  return value >> hostBits === range.base >> hostBits;
}

const rules = (list: Array<[string, string]>) => list.map(([cidr, reason]) => ({ range: parseCidr(cidr)!, reason }));

const BLOCKED_V4 = rules([
  ['0.0.0.0/8', 'the "this network" range'],
  ['10.0.0.0/8', 'a private (RFC 1918) address'],
  ['100.64.0.0/10', 'a carrier-grade NAT address'],
  ['127.0.0.0/8', 'a loopback address'],
  ['169.254.0.0/16', 'a link-local address'],
  ['172.16.0.0/12', 'a private (RFC 1918) address'],
  ['192.0.0.0/24', 'an IETF protocol address'],
  ['192.0.2.0/24', 'a documentation address'],
  ['192.88.99.0/24', 'a 6to4 relay address'],
  ['192.168.0.0/16', 'a private (RFC 1918) address'],
  ['198.18.0.0/15', 'a benchmarking address'],
  ['198.51.100.0/24', 'a documentation address'],
  ['203.0.113.0/24', 'a documentation address'],
  ['224.0.0.0/4', 'a multicast address'],
  ['255.255.255.255/32', 'the broadcast address'],
  ['240.0.0.0/4', 'a reserved address'],
]);

const BLOCKED_V6 = rules([
  ['::/128', 'the unspecified address'],
  ['::1/128', 'a loopback address'],
  ['::/96', 'an IPv4-compatible address'],
  ['::ffff:0:0:0/96', 'an IPv4-translated address'],
  ['64:ff9b:1::/48', 'a local NAT64 address'],
  ['100::/64', 'a discard-only address'],
  ['2001::/32', 'a Teredo address'],
  ['2001::/23', 'an IETF protocol address'],
  ['2001:db8::/32', 'a documentation address'],
  ['3fff::/20', 'a documentation address'],
  ['fc00::/7', 'a unique-local address'],
  ['fe80::/10', 'a link-local address'],
  ['fec0::/10', 'a site-local address'],
  ['ff00::/8', 'a multicast address'],
]);

const GLOBAL_UNICAST_V6 = parseCidr('2000::/3')!;

/** IPv6 forms that carry an IPv4 address the traffic ends up at: that address decides. */
const EMBEDDING: Array<{ range: Range; shift: bigint; name: string }> = [
  { range: parseCidr('::ffff:0:0/96')!, shift: 0n, name: 'IPv4-mapped' },
  { range: parseCidr('64:ff9b::/96')!, shift: 0n, name: 'NAT64' },
  { range: parseCidr('2002::/16')!, shift: 80n, name: '6to4' },
];

function v4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => Number((value >> s) & 0xffn)).join('.');
}

/** A classifier of addresses that allows what `allowCidrs` lists (validated by parseAllowCidrs). */
export function createAddressGuard(allowCidrs: readonly string[]): (address: string) => Verdict {
  const allowed = parseAllowCidrs(allowCidrs);
  const classify = (family: 4 | 6, value: bigint): Verdict => {
    if (allowed.some((range) => contains(range, family, value))) return { allowed: true };
    if (family === 4) {
      const hit = BLOCKED_V4.find((rule) => contains(rule.range, 4, value));
      return hit ? { allowed: false, reason: hit.reason, range: hit.range.text } : { allowed: true };
    }
    for (const embedding of EMBEDDING) {
      if (!contains(embedding.range, 6, value)) continue;
      const inner = (value >> embedding.shift) & 0xffffffffn;
      const verdict = classify(4, inner);
      return verdict.allowed ? verdict : { ...verdict, reason: `${embedding.name} form of ${v4Text(inner)}, ${verdict.reason}` };
    }
    const hit = BLOCKED_V6.filter((rule) => contains(rule.range, 6, value)).sort((a, b) => b.range.prefix - a.range.prefix)[0];
    if (hit) return { allowed: false, reason: hit.reason, range: hit.range.text };
    if (!contains(GLOBAL_UNICAST_V6, 6, value)) return { allowed: false, reason: 'not a global unicast address', range: '::/0' };
    return { allowed: true };
  };
  return (address) => {
    const parsed = parseAddress(address);
    if (!parsed) return { allowed: false, reason: 'not an IP address', range: '' };
    return classify(parsed.family, parsed.value);
  };
}

/** The allow-list as ranges; throws naming the first entry that is not a CIDR. */
export function parseAllowCidrs(entries: readonly string[]): Range[] {
  return entries
    .filter((entry) => entry.trim() !== '')
    .map((entry) => {
      const range = parseCidr(entry);
      if (!range) throw new Error(`${JSON.stringify(entry)} is not a CIDR such as 10.0.0.0/8 or fd00::/8`);
      return range;
    });
}
