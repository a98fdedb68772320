// The OpenAPI document: valid OpenAPI 3.1; its paths and the app's /api/v4 routes are the same,
// both ways; every example request in it is accepted by the live service (mode=test), and the
// answers match the documented response schemas; /docs serves a page with local assets only;
// the committed typed client (clients/typescript) is what the document generates now.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import openapiTS, { astToString } from 'openapi-typescript';
import { parse } from 'node-html-parser';
import { EXAMPLE_API_TOKEN, EXAMPLE_MEDIA_ORIGIN, openApiDocument } from '../../src/api/openapi/document.js';
import { PRODUCT_LIST } from '../../src/products/registry.js';
import { startService, type TestService } from '../helpers/service.js';
import { startDocumentServer, pngImage, type DocumentServer } from '../helpers/documents.js';
import { wavFile } from '../helpers/mediaServer.js';
// @ts-expect-error: a script of this repository's tooling, in JavaScript without declarations
import { generatePythonClient, sourceFilesOf } from '../../scripts/pythonClient.mjs';

type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

/**
 * METHOD /path ({param} style) of every route of the app's router stack under /api/v4; a route for
 * every method (router.all, as the tus upload's) is `ALL /path`.
 */
function appRoutes(app: TestService['app']): string[] {
  const found: string[] = [];
  const walk = (stack: Json[], mountedAtRoot: boolean) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths: string[] = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          for (const method of Object.keys(layer.route.methods).filter((m) => layer.route.methods[m])) {
            const name = method === '_all' ? 'ALL' : method.toUpperCase();
            if (mountedAtRoot && path.startsWith('/api/v4/')) found.push(`${name} ${path.replace(/:(\w+)/g, '{$1}')}`);
          }
        }
      } else if (Array.isArray(layer.handle?.stack)) {
        // Routers mounted with a path (/account) hold no /api/v4 routes; the v4 routers are mounted at the root.
        walk(layer.handle.stack, mountedAtRoot && layer.slash === true);
      }
    }
  };
  walk((app as unknown as { router: { stack: Json[] } }).router.stack, true);
  return [...new Set(found)].sort();
}

/** The document's METHOD /path; a method the app answers only by its route for every method is `ALL /path`. */
function documentRoutes(doc: Json, appRoutes: string[]): string[] {
  const routes = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => METHODS.includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
  const asServed = routes.map((route) => {
    const path = route.slice(route.indexOf(' ') + 1);
    return !appRoutes.includes(route) && appRoutes.includes(`ALL ${path}`) ? `ALL ${path}` : route;
  });
  return [...new Set(asServed)].sort();
}

describe('OpenAPI document', () => {
  const doc = openApiDocument() as Json;
  let service: TestService;
  let files: DocumentServer;
  let token: string;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  // The document as one schema resource, so that the components' $refs to each other resolve.
  ajv.addSchema({ components: doc.components }, 'openapi');
  const schemaOf = (name: string) => doc.components.schemas[name];
  /** What validates against component `name`. */
  const validatorOf = (name: string) => ({ $ref: `openapi#/components/schemas/${name}` });

  beforeAll(async () => {
    service = await startService({ inProcessWorker: false }); // quotes only: no worker needed
    files = await startDocumentServer();
    files.serve('/audio-90.wav', wavFile(90), 'audio/wav');
    files.serve('/notes.txt', 'This is the transcript of the recording, a few words long.\n'.repeat(20), 'text/plain');
    files.serve('/page.png', pngImage(), 'image/png');
    ({ token } = await service.createAccount(100));
  });
  afterAll(async () => {
    await files?.close();
    await service?.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it('is what GET /api/v4/openapi.json serves', async () => {
    const res = await service.get('/api/v4/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(doc);
  });

  it('documents every /api/v4 route of the app, and no path without a route', () => {
    const routes = appRoutes(service.app);
    expect(routes.length).toBeGreaterThanOrEqual(PRODUCT_LIST.length + 4);
    expect(documentRoutes(doc, routes)).toEqual(routes);
    // The tus upload's route answers every method: the document names HEAD, PATCH and DELETE.
    expect(Object.keys(doc.paths['/api/v4/uploads/{id}']).sort()).toEqual(['delete', 'head', 'options', 'patch']);
  });

  it('documents every product with its parameters, the three encodings, errors and signed callbacks', () => {
    for (const product of PRODUCT_LIST) {
      const op = doc.paths[`/api/v4/${product.path}`].post;
      expect(Object.keys(op.requestBody.content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
      const request = schemaOf(op.requestBody.content['application/json'].schema.$ref.split('/').pop());
      expect(request.required).toEqual(expect.arrayContaining(['mode', 'api_token']));
      expect(Object.keys(request.properties)).toEqual(expect.arrayContaining(['mode', 'api_token', 'idempotency_key', 'callback_url']));
      expect(op.parameters.map((p: Json) => p.name)).toContain('Idempotency-Key');
      expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '409', '413', '415', '429', '500', '503']);
      const callback = op.callbacks.orderSettled['{$request.body#/callback_url}'].post;
      expect(callback.parameters.map((p: Json) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      expect(callback.requestBody.content['multipart/form-data'].schema.$ref).toBeDefined();
    }
  });

  /** The example with this test's token and its files on the loopback server. */
  const live = (value: Json) => JSON.parse(JSON.stringify(value).replaceAll(EXAMPLE_MEDIA_ORIGIN, files.url).replaceAll(EXAMPLE_API_TOKEN, token));

  function encode(type: string, fields: Json): RequestInit {
    if (type === 'application/json') return { headers: { 'content-type': type }, body: JSON.stringify(fields) };
    if (type === 'application/x-www-form-urlencoded') return { body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])) };
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
    return { body: form };
  }

  it.each(PRODUCT_LIST.map((p) => [p.path]))('POST /api/v4/%s: every example, in every encoding, is accepted as documented', async (path) => {
    const op = doc.paths[`/api/v4/${path}`].post;
    const answerSchema = validatorOf(op.responses['200'].content['application/json'].schema.$ref.split('/').pop());
    let examples = 0;
    for (const [type, media] of Object.entries(op.requestBody.content as Json)) {
      for (const example of Object.values(media.examples ?? {}) as Json[]) {
        examples++;
        const fields = live(example.value);
        expect(ajv.validate(validatorOf(media.schema.$ref.split('/').pop()), fields), JSON.stringify(ajv.errors)).toBe(true);
        const res = await fetch(`${service.baseUrl}/api/v4/${path}`, { method: 'POST', ...encode(type, fields) });
        const body = await res.json();
        expect({ type, status: res.status, body }).toMatchObject({ status: 200, body: { mode: 'test', status: 'success' } });
        expect(ajv.validate(answerSchema, body), `${type}: ${JSON.stringify(ajv.errors)}`).toBe(true);
      }
    }
    expect(examples).toBeGreaterThanOrEqual(3);
  });

  it('answers failures with the documented error object', async () => {
    const res = await service.post('/api/v4/transcriptions', { mode: 'test', api_token: token, language: 'english' });
    expect(res.status).toBe(400);
    expect(ajv.validate(validatorOf('Error'), res.body), JSON.stringify(ajv.errors)).toBe(true);
    const unknown = await service.post('/api/v4/transcriptions', {
      mode: 'test',
      api_token: token,
      url: `${files.url}/audio-90.wav`,
      language: 'english',
      colour: 'red',
    });
    expect(unknown).toMatchObject({ status: 400, body: { status: 'error', error: expect.stringContaining('colour') } });
  });

  it('the read operations answer as documented (mode=test)', async () => {
    const list = await service.get(`/api/v4/orders?mode=test&api_token=${token}`);
    expect(list.status).toBe(200);
    expect(ajv.validate(validatorOf('OrderList'), list.body), JSON.stringify(ajv.errors)).toBe(true);
    for (const sample of list.body.orders as Array<{ id: number }>) {
      const one = await service.get(`/api/v4/orders/${sample.id}?mode=test&api_token=${token}`);
      expect(one.status).toBe(200);
      expect(ajv.validate(validatorOf('Order'), one.body), JSON.stringify(ajv.errors)).toBe(true);
    }
    const languages = await service.get('/api/v4/languages');
    expect(ajv.validate(validatorOf('Languages'), languages.body), JSON.stringify(ajv.errors)).toBe(true);
    // The documented enumeration of `product` is what the route accepts.
    for (const product of doc.paths['/api/v4/languages'].get.parameters[0].schema.enum) {
      expect((await service.get(`/api/v4/languages?product=${product}`)).status).toBe(200);
    }
  });

  it("says in every product's file fields, and only there, that an upload's URL is taken", () => {
    for (const product of PRODUCT_LIST) {
      const name = doc.paths[`/api/v4/${product.path}`].post.requestBody.content['application/json'].schema.$ref.split('/').pop();
      const urls = Object.entries(schemaOf(name).properties as Json).filter(([, property]) => property.format === 'uri');
      const files = urls.filter(([field]) => field !== 'callback_url');
      expect(files.length, name).toBeGreaterThanOrEqual(1);
      for (const [field, property] of files) expect(property.description, `${name}.${field}`).toContain('POST /api/v4/uploads');
      expect(schemaOf(name).properties.callback_url.description).not.toContain('upload');
    }
  });

  it('documents the one-shot upload (any body, its answer, its refusals, both ways of the token) as the service answers it', async () => {
    const op = doc.paths['/api/v4/uploads'].post;
    expect(Object.keys(op.requestBody.content).sort()).toEqual(['*/*', 'application/octet-stream']);
    expect(Object.keys(op.responses).sort()).toEqual(['201', '400', '413', '415', '429', '500']);
    expect(op.security).toEqual([{ bearerToken: [] }, { apiTokenQuery: [] }]);
    expect(doc.components.securitySchemes).toMatchObject({
      bearerToken: { type: 'http', scheme: 'bearer' },
      apiTokenQuery: { type: 'apiKey', in: 'query', name: 'api_token' },
    });
    const answer = validatorOf(op.responses['201'].content['application/json'].schema.$ref.split('/').pop());
    const error = validatorOf('Error');
    const wav = new Uint8Array(wavFile(30)); // a body fetch's types take: a view of an ArrayBuffer
    const byHeader = await fetch(`${service.baseUrl}/api/v4/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: wav,
    });
    const byQuery = await fetch(`${service.baseUrl}/api/v4/uploads?api_token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'audio/x-wav' },
      body: wav,
    });
    for (const res of [byHeader, byQuery]) {
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(ajv.validate(answer, body), JSON.stringify(ajv.errors)).toBe(true);
      expect(body).toMatchObject({ size: wav.length, url: res.headers.get('location') });
      // What the product fields' descriptions say: the upload's URL is an order's url.
      const quote = await service.post('/api/v4/transcriptions', { mode: 'test', api_token: token, url: body.url, language: 'english' });
      expect(quote).toMatchObject({ status: 200, body: { seconds: 30 } });
    }
    const refusals = [
      await fetch(`${service.baseUrl}/api/v4/uploads`, { method: 'POST', body: wav }),
      await fetch(`${service.baseUrl}/api/v4/uploads?api_token=${token}`, { method: 'POST', headers: { 'content-encoding': 'gzip' }, body: wav }),
      await overLimit(),
    ];
    expect(refusals.map((r) => r.status)).toEqual([400, 415, 413]);
    for (const res of refusals) expect(ajv.validate(error, await res.json()), JSON.stringify(ajv.errors)).toBe(true);
  });

  /** A one-shot upload whose Content-Length is past the service's limit, refused before its body is read. */
  async function overLimit(): Promise<Response> {
    const { request } = await import('node:http');
    return new Promise((resolve, reject) => {
      const req = request(`${service.baseUrl}/api/v4/uploads?api_token=${token}`, {
        method: 'POST',
        headers: { 'content-length': String(1024 ** 4) },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          req.destroy();
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode }));
        });
      });
      req.on('error', reject);
      req.write('RIFF');
    });
  }

  it('names the tus endpoint: its methods, headers and protocol, as the service speaks it', async () => {
    const post = doc.paths['/api/v4/uploads'].post;
    expect(post.description).toMatch(/Tus-Resumable: 1\.0\.0.*Upload-Length/s);
    expect(post.description).toContain('https://tus.io/protocols/resumable-upload');
    const tag = doc.tags.find((t: Json) => t.name === 'Uploads');
    expect(tag.externalDocs.url).toBe('https://tus.io/protocols/resumable-upload');
    for (const method of ['HEAD', 'PATCH', 'DELETE']) expect(tag.description).toContain(`${method} /api/v4/uploads/{id}`);
    const item = doc.paths['/api/v4/uploads/{id}'];
    for (const method of ['head', 'patch', 'delete']) {
      expect(
        item[method].parameters.map((p: Json) => p.name),
        method,
      ).toEqual(expect.arrayContaining(['id', 'Tus-Resumable']));
      expect(item[method].security).toEqual(post.security);
    }
    expect(item.patch.parameters.map((p: Json) => p.name)).toContain('Upload-Offset');
    expect(Object.keys(item.patch.requestBody.content)).toEqual(['application/offset+octet-stream']);

    // The documented headers are the ones the service answers.
    const options = await fetch(`${service.baseUrl}/api/v4/uploads`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    for (const header of Object.keys(doc.paths['/api/v4/uploads'].options.responses['204'].headers)) expect(options.headers.get(header), header).toBeTruthy();
    const tus = { 'Tus-Resumable': '1.0.0', authorization: `Bearer ${token}` };
    const created = await fetch(`${service.baseUrl}/api/v4/uploads`, { method: 'POST', headers: { ...tus, 'Upload-Length': '4' } });
    expect(created.status).toBe(201);
    for (const header of Object.keys(post.responses['201'].headers)) expect(created.headers.get(header), header).toBeTruthy();
    const upload = created.headers.get('location')!;
    const head = await fetch(upload, { method: 'HEAD', headers: tus });
    expect(head.status).toBe(200);
    for (const header of ['Upload-Offset', 'Upload-Length', 'Cache-Control']) expect(head.headers.get(header), header).toBeTruthy();
    const patch = await fetch(upload, {
      method: 'PATCH',
      headers: { ...tus, 'Upload-Offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: 'RIFF',
    });
    expect(patch.status).toBe(204);
    expect(patch.headers.get('upload-offset')).toBe('4');
    expect((await fetch(upload, { method: 'DELETE', headers: tus })).status).toBe(204);
    expect((await fetch(upload, { method: 'HEAD', headers: tus })).status).toBe(404);
  });

  it('/docs is an HTML page whose assets are all served by the service itself', async () => {
    const res = await fetch(`${service.baseUrl}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = parse(await res.text());
    const assets = [
      ...html.querySelectorAll('script[src]').map((e) => e.getAttribute('src')!),
      ...html.querySelectorAll('link[href]').map((e) => e.getAttribute('href')!),
    ];
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/[^/]/);
      const got = await fetch(`${service.baseUrl}${asset}`);
      expect(got.status, asset).toBe(200);
      expect((await got.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const init = await (await fetch(`${service.baseUrl}/docs/init.js`)).text();
    expect(init).toContain('/api/v4/openapi.json');
    expect(init).toContain('validatorUrl: null');
  });
});

describe('generated client files (clients/typescript, clients/python)', () => {
  const root = join(import.meta.dirname, '..', '..', 'clients', 'typescript');
  const STALE = 'stale: run npm run client:generate';

  it('openapi.json is the document the code builds', async () => {
    expect(JSON.parse(await readFile(join(root, 'openapi.json'), 'utf8')), STALE).toEqual(openApiDocument());
  });

  it('src/schema.ts is what openapi-typescript generates from it', async () => {
    const committed = await readFile(join(root, 'src', 'schema.ts'), 'utf8');
    const generated = astToString(await openapiTS(structuredClone(openApiDocument()) as never, { defaultNonNullable: false }));
    expect(committed.slice(committed.indexOf('*/\n\n') + 4), STALE).toBe(generated);
  });

  it('clients/python is what openapi-python-client generates from it, file for file', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'python-client-'));
    try {
      const document = join(fresh, 'openapi.json');
      await writeFile(document, JSON.stringify(openApiDocument()));
      generatePythonClient(document, join(fresh, 'python'));
      // pip's build output in the folder (build/, *.egg-info/) is not the client: left out.
      const [generated, committed] = await Promise.all([sourceFilesOf(join(fresh, 'python')), sourceFilesOf(join(root, '..', 'python'))]);
      expect(Object.keys(committed).sort(), STALE).toEqual(Object.keys(generated).sort());
      for (const [file, text] of Object.entries(generated)) expect(committed[file], `${file}: ${STALE}`).toBe(text);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  }, 60_000);
});
