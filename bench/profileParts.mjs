// What a CPU profile of the service (`node --cpu-prof`, as bench/placement.mjs takes with
// BENCH_PROFILE=<dir>) spent, by part: each sample goes to the first frame from the top of its stack
// that belongs to a known part (the service's own modules by folder, the libraries by package), so
// a library called by the service counts as that library. Per order when --orders is given.
// Usage: node bench/profileParts.mjs <file.cpuprofile>… [--orders N]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ options: { orders: { type: 'string' } }, allowPositionals: true });

/** Parts by where a frame's code lives, the first match wins (libraries before the service's folders). */
const PARTS = [
  ['Temporal SDK: workflow sandbox', /@temporalio\/(workflow|worker\/lib\/workflow)|workflow-bundle/],
  ['Temporal SDK: protobuf', /@temporalio\/proto|protobufjs/],
  ['Temporal SDK: client and worker', /@temporalio\//],
  ['gRPC', /@grpc\//],
  ['PGlite', /@electric-sql\/pglite/],
  ['node-postgres', /node_modules\/pg/],
  ['drizzle', /drizzle-orm/],
  [
    'Express and body parsers',
    /node_modules\/(express|router|body-parser|raw-body|qs|iconv-lite|multer|busboy|type-is|content-type|on-finished|finalhandler|send|path-to-regexp|statuses|mime|negotiator|accepts)/,
  ],
  ['undici', /undici/],
  ['zod', /node_modules\/zod/],
  ['logging (pino)', /pino|sonic-boom|thread-stream/],
  ['metrics (prom-client)', /prom-client/],
  ['service: payload codec', /src\/temporal\/payloadCodec|dist\/temporal\/payloadCodec/],
  ['service: media probe and outbound', /dist\/net\//],
  ['service: documents sandbox (parent side)', /dist\/documents\//],
  ['service: api', /dist\/api\//],
  ['service: orders', /dist\/orders\//],
  ['service: activities', /dist\/activities\//],
  ['service: db', /dist\/db\//],
  ['service: products and domain', /dist\/(products|domain|contracts)\//],
  ['service: other', /dist\//],
  ['other libraries', /node_modules/],
  ['node internals', /^node:|^internal\//],
];
const SPECIAL = {
  '(garbage collector)': 'garbage collector',
  '(idle)': 'idle',
  '(program)': 'program (native, unattributed)',
  '(root)': 'program (native, unattributed)',
};

const totals = new Map();
let busyUs = 0;
for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const partOfNode = new Map();
  const partOf = (id) => {
    if (partOfNode.has(id)) return partOfNode.get(id);
    const node = byId.get(id);
    const { functionName, url } = node.callFrame;
    let part = SPECIAL[functionName];
    if (!part && url) part = PARTS.find(([, re]) => re.test(url))?.[0];
    if (!part && url === '' && functionName && !functionName.startsWith('(')) part = undefined; // a native function: its caller's part
    if (!part) part = parent.has(id) ? partOf(parent.get(id)) : 'program (native, unattributed)';
    partOfNode.set(id, part);
    return part;
  };
  // Each sample's time: the gap to the next sample.
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const us = timeDeltas[i + 1] ?? 0;
    const part = partOf(samples[i]);
    totals.set(part, (totals.get(part) ?? 0) + us);
    if (part !== 'idle') busyUs += us;
  }
}

const orders = values.orders ? Number(values.orders) : undefined;
const rows = [...totals].filter(([part]) => part !== 'idle').sort((a, b) => b[1] - a[1]);
console.log(`| part | ms | share of busy |${orders ? ' ms per order |' : ''}`);
console.log(`|---|---|---|${orders ? '---|' : ''}`);
for (const [part, us] of rows)
  console.log(`| ${part} | ${(us / 1000).toFixed(0)} | ${((100 * us) / busyUs).toFixed(1)} % |${orders ? ` ${(us / 1000 / orders).toFixed(2)} |` : ''}`);
console.log(`| busy (all but idle) | ${(busyUs / 1000).toFixed(0)} | 100 % |${orders ? ` ${(busyUs / 1000 / orders).toFixed(2)} |` : ''}`);
