// Media as customers send it, measured by the running service (`node dist/main.js`, embedded, as
// `npm start`): for each container, a one-minute file and (MP4 with its index at the end and at
// the front, WAV) a 2 GB one, from a media server that answers ranges and from one that ignores
// them: the quote's latency, the requests and the bytes the probe read. Then the quote's throughput
// when the media server sends no validators (nothing can be remembered by URL), with an ETag, and
// without ranges, beside bare Express in the same run (the floor: the same form body parsed, the
// same JSON answered, no work), and between the two the service's stack alone (a 404); each side
// warmed up alike first, and the CPU each quote cost the service (with its children) and the bench
// (its load and the media server) beside it. The media
// server serves files up to 16 MB from memory, as a static server's cache would: on this machine
// its CPU is shared with the service, where a customer's host costs it nothing.
// Usage: npm run build && npm run bench:media [-- --quotes 8000 --concurrency 8 --throughput-only]
// Needs ffmpeg (apt-get install ffmpeg); the files are made once into the temporary directory.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';
import { listen, measure, startBareExpress, startService, treeCpuMs } from './lib.mjs';

const { values } = parseArgs({
  options: {
    quotes: { type: 'string', default: '8000' },
    concurrency: { type: 'string', default: '8' },
    'throughput-only': { type: 'boolean', default: false },
  },
});

// The tests' generator (test/helpers/media.ts), transpiled here: the same files the tests measure.
const source = await readFile('test/helpers/media.ts', 'utf8');
const dir = await mkdtemp(join(tmpdir(), 'bench-media-'));
await writeFile(
  join(dir, 'media.mjs'),
  ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText,
);
const { MEDIA, mediaFile } = await import(pathToFileURL(join(dir, 'media.mjs')).href);
await rm(dir, { recursive: true, force: true });

/** 2 GB files: a high-bitrate minute of video looped to about an hour (index at the end, then moved to the front), and 3 h of 48 kHz stereo WAV. */
async function largeFiles() {
  const large = join(tmpdir(), 'order-service-media-v1', 'large');
  execFileSync('mkdir', ['-p', large]);
  const ff = (...args) => execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);
  const clip = join(large, 'clip.mp4');
  if (!existsSync(clip))
    ff(
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=1280x720:rate=25',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000',
      '-t',
      '60',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-b:v',
      '4500k',
      '-c:a',
      'aac',
      '-shortest',
      clip,
    );
  const loops = Math.ceil((2 * 1024 ** 3) / statSync(clip).size);
  const files = {
    'large-index-end.mp4': join(large, 'index-end.mp4'),
    'large-index-start.mp4': join(large, 'index-start.mp4'),
    'large.wav': join(large, 'long.wav'),
  };
  if (!existsSync(files['large-index-end.mp4'])) ff('-stream_loop', String(loops - 1), '-i', clip, '-c', 'copy', '-f', 'mp4', files['large-index-end.mp4']);
  if (!existsSync(files['large-index-start.mp4']))
    ff('-i', files['large-index-end.mp4'], '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', files['large-index-start.mp4']);
  if (!existsSync(files['large.wav']))
    ff(
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000',
      '-ac',
      '2',
      '-t',
      String(Math.ceil((2 * 1024 ** 3) / 192_000)),
      '-f',
      'wav',
      files['large.wav'],
    );
  return files;
}

// The customer's media server: ranges answered (or not), an ETag (or not), every request and byte counted.
const served = new Map();
const counts = new Map();
const server = await listen((req, res) => {
  const path = new URL(req.url, 'http://media').pathname;
  const file = served.get(path);
  if (!file) return void res.writeHead(404).end();
  const count = counts.get(path) ?? { requests: 0, bytes: 0 };
  counts.set(path, count);
  count.requests += 1;
  const etag = file.etag ? `"${file.size}"` : undefined;
  if (etag && req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
  const headers = { 'content-type': 'application/octet-stream', ...(etag ? { etag } : {}), 'accept-ranges': file.ranges ? 'bytes' : 'none' };
  const range = file.ranges && /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  let [start, end] = [0, file.size - 1];
  if (range && (range[1] || range[2])) {
    start = range[1] ? Number(range[1]) : Math.max(0, file.size - Number(range[2]));
    end = range[1] && range[2] ? Math.min(Number(range[2]), file.size - 1) : file.size - 1;
    res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${file.size}`, 'content-length': end - start + 1 });
  } else {
    res.writeHead(200, { ...headers, 'content-length': file.size });
  }
  if (file.bytes) {
    count.bytes += end - start + 1;
    return void res.end(file.bytes.subarray(start, end + 1));
  }
  const stream = createReadStream(file.path, { start, end });
  stream.on('data', (chunk) => {
    count.bytes += chunk.length;
  });
  stream.pipe(res);
  res.on('close', () => stream.destroy());
});
/** A file served at `path`; small ones from memory, as a static server's cache would (a real media host costs this machine nothing). */
let connections = 0;
server.server.on('connection', () => {
  connections += 1;
});
const serve = (path, file, ranges, etag = true) => {
  const size = statSync(file).size;
  served.set(path, { path: file, size, ranges, etag, bytes: size <= 16 * 1024 ** 2 ? readFileSync(file) : undefined });
  return `${server.url}${path}`;
};

const files = {
  ...Object.fromEntries(await Promise.all(Object.keys(MEDIA).map(async (name) => [name, await mediaFile(name)]))),
  ...(values['throughput-only'] ? {} : await largeFiles()),
};
const service = await startService({
  concurrency: Number(values.concurrency),
  nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_PROFILE] : [],
  env: { AI_ENGINE: 'operator', ALIGN_ENGINE: 'operator', DIARIZER: 'none', QUOTE_PROBE_TIMEOUT_MS: '120000', MEDIA_TIMEOUT_MS: '120000' },
});
const quote = async (url) => {
  const started = performance.now();
  const res = await fetch(`${service.base}/api/v4/transcriptions`, {
    method: 'POST',
    body: new URLSearchParams({ api_token: service.token, mode: 'test', url, language: 'english' }),
  });
  return { status: res.status, body: await res.json(), ms: performance.now() - started };
};

/** `measure`, with the CPU each quote cost the service and the bench (its load and the media server). */
async function measured(name, count, concurrency, once, servicePid, path) {
  const served0 = { ...(counts.get(path) ?? { requests: 0, bytes: 0 }), connections };
  const [service0, bench0] = [servicePid ? treeCpuMs(servicePid) : 0, process.cpuUsage()];
  const row = await measure(name, count, concurrency, once);
  const bench = process.cpuUsage(bench0);
  const costs = {
    name,
    service_cpu_ms_per_quote: servicePid ? +((treeCpuMs(servicePid) - service0) / count).toFixed(2) : undefined,
    bench_cpu_ms_per_quote: +((bench.user + bench.system) / 1000 / count).toFixed(2),
  };
  if (path)
    Object.assign(costs, {
      requests_per_quote: +((counts.get(path).requests - served0.requests) / count).toFixed(2),
      kb_per_quote: +((counts.get(path).bytes - served0.bytes) / 1024 / count).toFixed(1),
      connections_per_quote: +((connections - served0.connections) / count).toFixed(2),
    });
  console.log(JSON.stringify(costs));
  return { ...row, ...costs };
}

const rows = [];
try {
  for (const [name, file] of values['throughput-only'] ? [] : Object.entries(files)) {
    for (const ranges of [true, false]) {
      const path = `/${ranges ? 'ranged' : 'whole'}/${name}`;
      const answer = await quote(serve(path, file, ranges));
      const { requests, bytes } = counts.get(path) ?? { requests: 0, bytes: 0 };
      const row = {
        file: name,
        size_mb: +(statSync(file).size / 1024 ** 2).toFixed(1),
        server: ranges ? 'ranges' : 'no ranges',
        seconds: answer.body.seconds ?? answer.body.error,
        quote_ms: Math.round(answer.ms),
        requests,
        read_mb: +(bytes / 1024 ** 2).toFixed(2),
      };
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  }
  // Throughput of quotes when nothing can be remembered (no validators), beside the floor.
  const count = Number(values.quotes);
  const concurrency = Number(values.concurrency);
  const noValidators = serve('/plain/audio.wav', files['audio.wav'], true, false);
  // Both sides warmed up alike before they are measured (the JIT, the connections, the memories).
  const warmUp = (once) => measure('(warm-up, not counted)', Math.max(200, Math.round(count / 4)), concurrency, once);
  await warmUp(() => quote(noValidators));
  const quotes = await measured('quote, ranges, no validators', count, concurrency, () => quote(noValidators), service.pid, '/plain/audio.wav');
  const withEtag = serve('/etag/audio.wav', files['audio.wav'], true, true);
  const quotesEtag = await measured('quote, ranges, an ETag', count, concurrency, () => quote(withEtag), service.pid, '/etag/audio.wav');
  const streamed = serve('/plain-whole/audio.wav', files['audio.wav'], false, false);
  const quotesStreamed = await measured('quote, no ranges, no validators', count, concurrency, () => quote(streamed), service.pid, '/plain-whole/audio.wav');
  // The service's stack alone: the same form through its middleware, the access log and metrics,
  // to a path no route takes (404). What a quote costs beyond it is the quote's own work.
  const stack = await measured(
    "the service's stack alone (404)",
    count,
    concurrency,
    () =>
      fetch(`${service.base}/api/v4/no-such-product`, { method: 'POST', body: new URLSearchParams({ api_token: service.token, mode: 'test' }) }).then((r) =>
        r.json(),
      ),
    service.pid,
  );
  const floor = await startBareExpress((await quote(noValidators)).body);
  try {
    const bareQuote = () =>
      fetch(floor.url, { method: 'POST', body: new URLSearchParams({ api_token: service.token, mode: 'test', url: noValidators, language: 'english' }) }).then(
        (r) => r.json(),
      );
    await warmUp(bareQuote);
    const bare = await measured('bare Express (floor)', count, concurrency, bareQuote, floor.pid);
    console.log(
      JSON.stringify({
        ratio_ranges: +(quotes.per_second / bare.per_second).toFixed(2),
        ratio_etag: +(quotesEtag.per_second / bare.per_second).toFixed(2),
        ratio_no_ranges: +(quotesStreamed.per_second / bare.per_second).toFixed(2),
        ratio_stack_alone: +(stack.per_second / bare.per_second).toFixed(2),
      }),
    );
  } finally {
    await floor.stop();
  }
} finally {
  await service.stop();
  server.server.close();
}
