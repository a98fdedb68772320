// The TypeScript client as an integrator installs it: built (`npm run client:build`), packed with
// `npm pack`, installed from the tarball into a new project (no workspace link), and used against
// the started service from plain JavaScript (.mjs), from CommonJS (.cjs), from TypeScript compiled
// by tsc (strict, node16 resolution; bundler resolution type-checked) and through a bundler
// (rolldown): each quotes a test-mode order, uploads a local file (tus, by its upload() helper) and
// quotes an order of it by the URL it answers, lists the sample orders following next_page_url, and
// gets a refusal as one typed OrderServiceError; the package README's calls compile.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, wavFile, type MediaServer } from '../helpers/mediaServer.js';

const run = promisify(execFile);
const ROOT = resolve('.');
const BIN = join(ROOT, 'node_modules', '.bin');

/** The integrator's script: the same calls in JavaScript and TypeScript (types only in the latter). */
const script = (typed: boolean) => `
import { createOrderClient, orThrow, OrderServiceError } from '@order-service/client';
${typed ? "import type { components } from '@order-service/client';\ndeclare const process: { argv: string[] }; // no @types/node in this project\n" : ''}
${calls(typed)}`;

/** The same calls from CommonJS: require() of the ES module (Node 20.19 and later), no top-level await. */
const commonJsScript = () => `
const { createOrderClient, orThrow, OrderServiceError } = require('@order-service/client');
(async () => {
${calls(false)}
})().catch((err) => { console.error(err); process.exit(1); });
`;

const calls = (typed: boolean) => `
const [baseUrl, token, mediaUrl, filePath, resumeStore] = process.argv.slice(2)${typed ? ' as [string, string, string, string, string]' : ''};
const api = createOrderClient(baseUrl);
const quote = await orThrow(api.POST('/api/v4/transcriptions', { body: { mode: 'test', api_token: token, url: mediaUrl, language: 'english' } }));
// A local file: uploaded by tus (its dependency tus-js-client), then ordered by the URL it answers.
const uploadUrl${typed ? ': string' : ''} = await api.upload(filePath, { apiToken: token, resumeStore });
const uploaded = await orThrow(api.POST('/api/v4/ai-transcriptions', { body: { mode: 'test', api_token: token, url: uploadUrl, language: 'english' } }));
const ids${typed ? ': number[]' : ''} = [];
let query${typed ? ": { api_token: string; mode: 'test' | 'live'; cursor?: string; per_page?: number }" : ''} = { api_token: token, mode: 'test', per_page: 3 };
for (;;) {
  const page${typed ? ": components['schemas']['OrderList']" : ''} = await orThrow(api.GET('/api/v4/orders', { params: { query } }));
  ids.push(...page.orders.map((o) => o.id));
  if (!page.next_page_url) break;
  // The next page's URL carries the token and mode: its cursor is what moves on.
  query = { ...query, cursor: new URL(page.next_page_url).searchParams.get('cursor') ?? undefined };
}
let refusal = null;
try {
  // A URL the service cannot use: a string to the types, a 400 naming the field to the service.
  await orThrow(api.POST('/api/v4/transcriptions', { body: { mode: 'test', api_token: token, url: 'not a url', language: 'english' } }));
} catch (err) {
  if (!(err instanceof OrderServiceError)) throw err;
  refusal = { status: err.status, message: err.message, retryable: err.retryable, body: err.body };
}
console.log(JSON.stringify({ seconds: quote.seconds, uploadUrl, uploadedSeconds: uploaded.seconds, ids, refusal }));
`;

describe('the TypeScript client installed from its packed tarball', () => {
  let service: TestService;
  let media: MediaServer;
  let project: string;
  let token: string;

  beforeAll(async () => {
    [service, media] = await Promise.all([startService(), startMediaServer()]);
    ({ token } = await service.createAccount(100));
    project = await mkdtemp(join(tmpdir(), 'client-project-'));
    await run('npm', ['run', 'client:build'], { cwd: ROOT });
    await run('npm', ['pack', '--pack-destination', project], { cwd: join(ROOT, 'clients', 'typescript') });
    const tarball = (await readdir(project)).find((f) => f.endsWith('.tgz'))!;
    expect(tarball).toMatch(/^order-service-client-4\.\d+\.\d+\.tgz$/);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module' }));
    // From the tarball, with its dependencies from the registry (the npm cache where they are).
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${tarball}`], { cwd: project });
    await writeFile(join(project, 'talk.wav'), wavFile(42));
  }, 180_000);
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
    if (project) await rm(project, { recursive: true, force: true });
  });

  async function runs(file: string): Promise<{ seconds: number; uploadUrl: string; uploadedSeconds: number; ids: number[]; refusal: Record<string, unknown> }> {
    const args = [file, service.baseUrl, token, media.audio(90), join(project, 'talk.wav'), join(project, 'uploads.json')];
    const { stdout } = await run('node', args, { cwd: project });
    return JSON.parse(stdout);
  }
  const expectTheCalls = (out: Awaited<ReturnType<typeof runs>>) => {
    expect(out.seconds).toBe(90);
    expect(out.uploadUrl).toMatch(new RegExp(`^${service.baseUrl}/api/v4/uploads/[0-9a-f]{32}$`));
    expect(out.uploadedSeconds).toBe(42);
    // Every sample order, each once, over pages of three.
    expect(out.ids.length).toBeGreaterThanOrEqual(8);
    expect(new Set(out.ids).size).toBe(out.ids.length);
    expect(out.refusal).toMatchObject({ status: 400, retryable: false, body: { status: 'error' } });
    expect(out.refusal.message).toMatch(/^url: /);
  };

  it('installs as a package of compiled JavaScript with declarations, no TypeScript source', async () => {
    const files = await readdir(join(project, 'node_modules', '@order-service', 'client', 'dist'));
    expect(files.sort()).toEqual(['errors.d.ts', 'errors.js', 'index.d.ts', 'index.js', 'schema.d.ts', 'schema.js', 'upload.d.ts', 'upload.js']);
    await expect(readdir(join(project, 'node_modules', '@order-service', 'client', 'src'))).rejects.toThrow(/ENOENT/);
  });

  it('works from plain JavaScript (.mjs)', async () => {
    await writeFile(join(project, 'quote.mjs'), script(false));
    expectTheCalls(await runs('quote.mjs'));
  });

  it('works from CommonJS (.cjs), which require()s the ES module', async () => {
    await writeFile(join(project, 'quote.cjs'), commonJsScript());
    expectTheCalls(await runs('quote.cjs'));
  });

  it('works from TypeScript compiled by tsc (strict, node16 resolution; bundler resolution type-checks too)', async () => {
    await writeFile(join(project, 'quote.ts'), script(true));
    // The package README's calls, for every operation, compile as they are written.
    const readme = await readFile(join(ROOT, 'clients', 'typescript', 'README.md'), 'utf8');
    await writeFile(join(project, 'readme.ts'), `declare const TOKEN: string;\n${readme.split('```ts\n')[1]!.split('```')[0]}\nexport {};\n`);
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'Node16', moduleResolution: 'Node16', strict: true, lib: ['ES2022', 'DOM'], types: [], outDir: 'out' },
        files: ['quote.ts', 'readme.ts'],
      }),
    );
    // The integrator's own tsc: compile errors (a wrong call, a type the package lacks) fail here.
    await run(join(BIN, 'tsc'), ['-p', 'tsconfig.json'], { cwd: project }).catch((err: { stdout?: string }) => {
      throw new Error(`tsc refused the integrator's file:\n${err.stdout ?? String(err)}`);
    });
    expectTheCalls(await runs(join('out', 'quote.js')));
    // A project whose bundler resolves modules: the same files type-check (the bundler emits).
    await writeFile(
      join(project, 'tsconfig.bundler.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, lib: ['ES2022', 'DOM'], types: [], noEmit: true },
        files: ['quote.ts', 'readme.ts'],
      }),
    );
    await run(join(BIN, 'tsc'), ['-p', 'tsconfig.bundler.json'], { cwd: project }).catch((err: { stdout?: string }) => {
      throw new Error(`tsc (bundler resolution) refused the integrator's file:\n${err.stdout ?? String(err)}`);
    });
  }, 60_000);

  it('works through a bundler (rolldown): one file, no node_modules needed at run time', async () => {
    await writeFile(join(project, 'bundled.mjs'), script(false));
    await run(join(BIN, 'rolldown'), ['bundled.mjs', '--file', 'bundle.mjs', '--format', 'esm', '--platform', 'node'], { cwd: project });
    await rm(join(project, 'node_modules'), { recursive: true, force: true });
    expectTheCalls(await runs('bundle.mjs'));
  }, 60_000);
});
