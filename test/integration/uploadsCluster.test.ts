// Uploads across API processes (issue 52, item 5), with `npm run start:cluster` (scripts/cluster.mjs:
// two api and two worker processes on one PostgreSQL database, one file store) and a third API
// process of this test's own, which it may kill (the cluster stops whole when one of its processes
// dies). No sticky sessions: an upload begun on one API is continued on another, a PATCH cut by a
// SIGKILL of its API resumes elsewhere or after a restart, and two PATCHes of one upload at once on
// two processes never both write. PostgreSQL leg only (PGlite serves one process).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import { freshDatabase, type TestDatabase } from '../helpers/databases.js';
import { wavFile } from '../helpers/mediaServer.js';
import { close, freePort, waitFor } from '../helpers/net.js';

const TUS = { 'tus-resumable': '1.0.0' };

/** Two consecutive free ports (the cluster's APIs listen on PORT and PORT + 1). */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    const next = createServer();
    const free = await new Promise<boolean>((r) => {
      next.once('error', () => r(false));
      next.listen(port + 1, '127.0.0.1', () => r(true));
    });
    if (free) {
      await close(next);
      return port;
    }
  }
}

/** A WAV of `seconds` of noise: valid audio whose bytes no other upload has. */
function noiseWav(seconds: number): Buffer {
  const wav = wavFile(seconds);
  randomBytes(wav.length - 44).copy(wav, 44);
  return wav;
}

/** A PATCH sent by hand: its headers at once, its body when the test says, its answer (or its failure) awaited. */
function openPatch(url: string, token: string, offset: number, length: number): { req: ClientRequest; answer: Promise<IncomingMessage | Error> } {
  const req = httpRequest(url, {
    method: 'PATCH',
    headers: {
      ...TUS,
      authorization: `Bearer ${token}`,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
      'content-length': length,
    },
  });
  const answer = new Promise<IncomingMessage | Error>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res));
      res.on('error', () => resolve(res));
    });
    req.on('error', resolve);
  });
  req.flushHeaders();
  return { req, answer };
}

describeNeeding('workerProcess', 'uploads on npm run start:cluster', () => {
  let database: TestDatabase;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let cluster: ChildProcess;
  let output = '';
  let bases: string[];
  /** The test's own API process (killed and restarted by it), on the cluster's database, files and Temporal. */
  let third: { child: ChildProcess; base: string; output: string } | undefined;
  let thirdPort: number;
  let token: string;

  beforeAll(async () => {
    [database, dataDir] = await Promise.all([freshDatabase('postgres'), mkdtemp(join(tmpdir(), 'order-uploads-cluster-'))]);
    const port = await freePortPair();
    bases = [`http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`];
    env = {
      ...process.env,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_DEV_PORT: String(await freePort()),
      TEMPORAL_UI_PORT: String(await freePort()),
      QUALITY_CHECK_PROBABILITY: '0',
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
      AI_ENGINE: 'operator',
      ALIGN_ENGINE: 'operator',
    };
    delete env.TEMPORAL_ADDRESS;
    delete env.PUBLIC_BASE_URL;
    cluster = spawn(process.execPath, ['scripts/cluster.mjs'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    cluster.stdout!.on('data', (d) => (output += d));
    cluster.stderr!.on('data', (d) => (output += d));
    await waitFor(() => output.includes('Cluster:') || (cluster.exitCode !== null && Promise.reject(new Error(output))), 'the cluster to start', 120_000);
    thirdPort = await freePort();
    await startThird();
    const opsToken = (await readFile(join(dataDir, 'ops-token'), 'utf8')).trim();
    const account = (await fetch(`${bases[0]}/ops/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${opsToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'uploads', balance: 100 }),
    }).then((r) => r.json())) as { api_token: string };
    token = account.api_token;
  }, 150_000);

  afterAll(async () => {
    if (third?.child.exitCode === null) third.child.kill('SIGKILL');
    if (cluster?.exitCode === null) {
      const exited = new Promise((r) => cluster.once('exit', r));
      cluster.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    }
    // Never leave the cluster's children behind.
    for (const [, pid] of output.matchAll(/^(?:api|worker)-\d: pid (\d+)$/gm)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (cluster?.exitCode === null) cluster.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    await database?.close();
  }, 40_000);

  /** `node dist/main.js api` as the cluster starts its APIs: the same database, files, Temporal and public address. */
  async function startThird(): Promise<void> {
    const started = { child: undefined as unknown as ChildProcess, base: `http://127.0.0.1:${thirdPort}`, output: '' };
    started.child = spawn(process.execPath, ['dist/main.js', 'api'], {
      env: { ...env, PORT: String(thirdPort), TEMPORAL_ADDRESS: `127.0.0.1:${env.TEMPORAL_DEV_PORT}`, PUBLIC_BASE_URL: `http://localhost:${env.PORT}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.child.stdout!.on('data', (d) => (started.output += d));
    started.child.stderr!.on('data', (d) => (started.output += d));
    await waitFor(
      () => /"msg":"started"/.test(started.output) || (started.child.exitCode !== null && Promise.reject(new Error(started.output))),
      'the third API to start',
      60_000,
    );
    third = started;
  }

  const uploadPath = (url: string) => join(dataDir, 'files', 'uploads', new URL(url).pathname.split('/').at(-1)!);
  /** The upload's URL as `base` serves it (the Location names the cluster's one public address). */
  const at = (base: string, url: string) => base + new URL(url).pathname;
  const create = async (base: string, length: number) => {
    const res = await fetch(`${base}/api/v4/uploads`, {
      method: 'POST',
      headers: { ...TUS, authorization: `Bearer ${token}`, 'upload-length': String(length) },
    });
    expect(res.status).toBe(201);
    return res.headers.get('location')!;
  };
  const headOffset = async (url: string) => {
    const res = await fetch(url, { method: 'HEAD', headers: { ...TUS, authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return Number(res.headers.get('upload-offset'));
  };
  const patch = (url: string, offset: number, bytes: Uint8Array) =>
    fetch(url, {
      method: 'PATCH',
      headers: { ...TUS, authorization: `Bearer ${token}`, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(bytes),
    });
  const order = (base: string, url: string, mode: 'test' | 'live') =>
    fetch(`${base}/api/v4/transcriptions`, { method: 'POST', body: new URLSearchParams({ api_token: token, mode, url, language: 'english' }) }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }),
    );

  it('continues an upload begun on one API on the other, PATCH by PATCH, to a byte-identical file ordered through either', async () => {
    const wav = noiseWav(120);
    const url = await create(bases[0]!, wav.length);
    expect(new URL(url).origin).toBe(`http://localhost:${env.PORT}`);
    const chunk = 128 * 1024;
    for (let offset = 0, i = 0; offset < wav.length; offset += chunk, i++) {
      const base = bases[i % 2]!;
      expect(await headOffset(at(base, url))).toBe(offset);
      const res = await patch(at(base, url), offset, wav.subarray(offset, offset + chunk));
      expect([res.status, res.headers.get('upload-offset')]).toEqual([204, String(Math.min(offset + chunk, wav.length))]);
    }
    expect((await readFile(uploadPath(url))).equals(wav)).toBe(true);
    for (const base of bases) {
      const quote = await order(base, url, 'test');
      expect(quote.status, JSON.stringify(quote.body)).toBe(200);
      expect(quote.body.seconds).toBe(120);
    }
    const live = await order(bases[1]!, url, 'live');
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    expect(live.body.in_wallet).toBe(100 - (live.body.order_total as number));
  });

  it('loses at most the PATCH its API was killed in: HEAD elsewhere and after a restart says where to resume, and the file completes intact', async () => {
    const wav = noiseWav(100);
    const url = await create(third!.base, wav.length);
    const first = 200_000;
    expect((await patch(at(third!.base, url), 0, wav.subarray(0, first))).status).toBe(204);
    // The second PATCH announces the rest, sends some of it, and its API dies under it.
    const sent = 300_000;
    const cut = openPatch(at(third!.base, url), token, first, wav.length - first);
    cut.req.write(wav.subarray(first, first + sent));
    await waitFor(async () => (await stat(uploadPath(url))).size > first + 50_000, 'part of the PATCH on disk');
    const killed = new Promise((r) => third!.child.once('exit', r));
    third!.child.kill('SIGKILL');
    await killed;
    expect(await cut.answer).toBeInstanceOf(Error);

    const offset = await headOffset(at(bases[0]!, url));
    expect(offset).toBeGreaterThanOrEqual(first);
    expect(offset).toBeLessThanOrEqual(first + sent);
    await startThird();
    expect(await headOffset(at(third!.base, url))).toBe(offset);
    const resumed = await patch(at(third!.base, url), offset, wav.subarray(offset));
    expect([resumed.status, resumed.headers.get('upload-offset')]).toEqual([204, String(wav.length)]);
    expect((await readFile(uploadPath(url))).equals(wav)).toBe(true);
    const quote = await order(bases[1]!, url, 'test');
    expect([quote.status, quote.body.seconds]).toEqual([200, 100]);
  });

  it('never lets two PATCHes of one upload on two processes both write: the later one waits for the lock, and the file is one of them whole', async () => {
    const [mine, theirs] = [randomBytes(400_000), randomBytes(400_000)];
    const url = await create(bases[0]!, mine.length);
    // The first PATCH, on API 1, has passed its offset check and waits for its body...
    const held = openPatch(at(bases[0]!, url), token, 0, mine.length);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The second, on API 2, at the same offset with other bytes, sent whole.
    const second = await patch(at(bases[1]!, url), 0, theirs);
    held.req.end(mine);
    const firstAnswer = await held.answer;
    const answers = [
      firstAnswer instanceof Error ? firstAnswer.message : [firstAnswer.statusCode, firstAnswer.headers['upload-offset']],
      [second.status, second.headers.get('upload-offset')],
    ];
    const completed = answers.filter((a) => Array.isArray(a) && a[0] === 204 && String(a[1]) === String(mine.length));
    expect(completed, JSON.stringify(answers)).toHaveLength(1);
    const offset = await headOffset(at(bases[1]!, url));
    expect(offset).toBe(mine.length);
    const file = await readFile(uploadPath(url));
    expect(file.equals(mine) || file.equals(theirs), JSON.stringify(answers)).toBe(true);
  });

  it('serves many uploads at once on one API without starving its database connections', async () => {
    const count = 12;
    const files = Array.from({ length: count }, () => randomBytes(100_000));
    const urls = await Promise.all(files.map((f) => create(bases[0]!, f.length)));
    // Every PATCH holds its upload's lock while its body is on the way.
    const patches = urls.map((url, i) => openPatch(at(bases[0]!, url), token, 0, files[i]!.length));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // Meanwhile the same API answers what needs its database.
    const started = Date.now();
    const quote = await fetch(`${bases[0]}/api/v4/orders?api_token=${token}&mode=live`, { signal: AbortSignal.timeout(10_000) });
    expect(quote.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    patches.forEach((p, i) => p.req.end(files[i]));
    const answers = await Promise.all(patches.map((p) => p.answer));
    expect(answers.map((a) => (a instanceof Error ? a.message : a.statusCode))).toEqual(Array(count).fill(204));
    for (const [i, url] of urls.entries()) expect((await readFile(uploadPath(url))).equals(files[i]!)).toBe(true);
  });
});
