// Media as customers send it, measured by the running service (`node dist/main.js`, embedded, as
// `npm start`): for each container, a one-minute file and (MP4 with its index at the end and at
// the front, WAV) a 2 GB one, from a media server that answers ranges and from one that ignores
// them: the quote's latency, the requests and the bytes the probe read. Then the quote's throughput
// when the media server sends no validators (nothing can be remembered), beside bare Express in
// the same run (the floor: the same form body parsed, the same JSON answered, no work).
// Usage: npm run build && npm run bench:media [-- --quotes 400 --concurrency 8]
// Needs ffmpeg (apt-get install ffmpeg); the files are made once into the temporary directory.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';
import { listen, measure, startBareExpress, startService } from './lib.mjs';

const { values } = parseArgs({ options: { quotes: { type: 'string', default: '400' }, concurrency: { type: 'string', default: '8' } } });

// The tests' generator (test/helpers/media.ts), transpiled here: the same files the tests measure.
const source = await readFile('test/helpers/media.ts', 'utf8');
const dir = await mkdtemp(join(tmpdir(), 'bench-media-'));
await writeFile(join(dir, 'media.mjs'), ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
const { MEDIA, mediaFile } = await import(pathToFileURL(join(dir, 'media.mjs')).href);
await rm(dir, { recursive: true, force: true });

/** 2 GB files: a high-bitrate minute of video looped to about an hour (index at the end, then moved to the front), and 3 h of 48 kHz stereo WAV. */
async function largeFiles() {
  const large = join(tmpdir(), 'order-service-media-v1', 'large');
  execFileSync('mkdir', ['-p', large]);
  const ff = (...args) => execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);
  const clip = join(large, 'clip.mp4');
  if (!existsSync(clip)) ff('-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '60', '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '4500k', '-c:a', 'aac', '-shortest', clip);
  const loops = Math.ceil((2 * 1024 ** 3) / statSync(clip).size);
  const files = { 'large-index-end.mp4': join(large, 'index-end.mp4'), 'large-index-start.mp4': join(large, 'index-start.mp4'), 'large.wav': join(large, 'long.wav') };
  if (!existsSync(files['large-index-end.mp4'])) ff('-stream_loop', String(loops - 1), '-i', clip, '-c', 'copy', '-f', 'mp4', files['large-index-end.mp4']);
  if (!existsSync(files['large-index-start.mp4'])) ff('-i', files['large-index-end.mp4'], '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', files['large-index-start.mp4']);
  if (!existsSync(files['large.wav'])) ff('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-ac', '2', '-t', String(Math.ceil((2 * 1024 ** 3) / 192_000)), '-f', 'wav', files['large.wav']);
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
  const headers = { 'content-type': 'application/octet-stream', ...(file.etag ? { etag: `"${file.size}"` } : {}), 'accept-ranges': file.ranges ? 'bytes' : 'none' };
  const range = file.ranges && /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  let [start, end] = [0, file.size - 1];
  if (range && (range[1] || range[2])) {
    start = range[1] ? Number(range[1]) : Math.max(0, file.size - Number(range[2]));
    end = range[1] && range[2] ? Math.min(Number(range[2]), file.size - 1) : file.size - 1;
    res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${file.size}`, 'content-length': end - start + 1 });
  } else {
    res.writeHead(200, { ...headers, 'content-length': file.size });
  }
  const stream = createReadStream(file.path, { start, end });
  stream.on('data', (chunk) => { count.bytes += chunk.length; });
  stream.pipe(res);
  res.on('close', () => stream.destroy());
});
const serve = (path, file, ranges, etag = true) => { served.set(path, { path: file, size: statSync(file).size, ranges, etag }); return `${server.url}${path}`; };

const files = { ...Object.fromEntries(await Promise.all(Object.keys(MEDIA).map(async (name) => [name, await mediaFile(name)]))), ...(await largeFiles()) };
const service = await startService({ concurrency: Number(values.concurrency), env: { AI_ENGINE: 'operator', ALIGN_ENGINE: 'operator', DIARIZER: 'none', QUOTE_PROBE_TIMEOUT_MS: '120000', MEDIA_TIMEOUT_MS: '120000' } });
const quote = async (url) => {
  const started = performance.now();
  const res = await fetch(`${service.base}/api/v4/transcriptions`, { method: 'POST', body: new URLSearchParams({ api_token: service.token, mode: 'test', url, language: 'english' }) });
  return { status: res.status, body: await res.json(), ms: performance.now() - started };
};

const rows = [];
try {
  for (const [name, file] of Object.entries(files)) {
    for (const ranges of [true, false]) {
      const path = `/${ranges ? 'ranged' : 'whole'}/${name}`;
      const answer = await quote(serve(path, file, ranges));
      const { requests, bytes } = counts.get(path) ?? { requests: 0, bytes: 0 };
      const row = { file: name, size_mb: +(statSync(file).size / 1024 ** 2).toFixed(1), server: ranges ? 'ranges' : 'no ranges', seconds: answer.body.seconds ?? answer.body.error, quote_ms: Math.round(answer.ms), requests, read_mb: +(bytes / 1024 ** 2).toFixed(2) };
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  }
  // Throughput of quotes when nothing can be remembered (no validators), beside the floor.
  const count = Number(values.quotes);
  const concurrency = Number(values.concurrency);
  const noValidators = serve('/plain/audio.wav', files['audio.wav'], true, false);
  await quote(noValidators);
  const quotes = await measure('quote, ranges, no validators', count, concurrency, () => quote(noValidators));
  const streamed = serve('/plain-whole/audio.wav', files['audio.wav'], false, false);
  const quotesStreamed = await measure('quote, no ranges, no validators', count, concurrency, () => quote(streamed));
  const floor = await startBareExpress((await quote(noValidators)).body);
  try {
    const bare = await measure('bare Express (floor)', count, concurrency, () => fetch(floor.url, { method: 'POST', body: new URLSearchParams({ api_token: service.token, mode: 'test', url: noValidators, language: 'english' }) }).then((r) => r.json()));
    console.log(JSON.stringify({ ratio_ranges: +(quotes.per_second / bare.per_second).toFixed(2), ratio_no_ranges: +(quotesStreamed.per_second / bare.per_second).toFixed(2) }));
  } finally {
    await floor.stop();
  }
} finally {
  await service.stop();
  server.server.close();
}
