// Hostile files against the running service: each is refused with a 400 naming the field, within
// a bound, while the service goes on answering others; a live order with one charges nothing and
// starts no workflow; readers killed at their limits leave nothing behind; a large honest document
// is still accepted.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startService, type TestService } from '../helpers/service.js';
import { startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { HOSTILE_DOCUMENTS, HOSTILE_MEDIA, honestTextPdf, honestTextPdfWords, pdfWithMillionsOfWords, rtfDeeplyNested } from '../helpers/hostileFiles.js';
import { placeOrder } from '../helpers/orders.js';
import { accounts, orders } from '../../src/db/schema.js';

/**
 * How long a refusal may take: the CPU limit (5 s of the reader's CPU time by default) and the time to
 * fetch and start a reader. CPU time, not wall time: while other suites run Whisper on the same two
 * cores, the 3-million-word PDF's 5 s of CPU took 5.0, 8.5, 14.5 and 21.4 s of wall time in full runs.
 */
const REFUSAL_BOUND_MS = 40_000;
/** What an internal message looks like: a stack, an error class, a memory address, a V8 limit. */
const INTERNAL = /\bat \w|Error\b|0x[0-9a-f]{4,}|\bstack\b|undefined|ENOENT|heap/i;

let service: TestService;
let docs: DocumentServer;
let token: string;
beforeAll(async () => {
  [service, docs] = await Promise.all([startService(), startDocumentServer()]);
  ({ token } = await service.createAccount(500));
});
afterAll(async () => {
  await Promise.all([service?.close(), docs?.close()]);
});

const pair = { translate_from: 'english', translate_to: 'french' };
const quoteTranslation = (url: string, extra: Record<string, unknown> = {}) =>
  service.post('/api/v4/translations', { api_token: token, mode: 'test', url, ...pair, ...extra });

/** Resident memory of this process, which hosts the API and the worker under test. */
const rssMb = () => process.memoryUsage().rss / 1024 ** 2;

/** The reader processes this process has now (children running the sandbox's script). */
function readerProcesses(): number {
  const out = execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes('sandbox/child.js')).length;
}

describe('hostile documents, one at a time', () => {
  it.each(HOSTILE_DOCUMENTS.map((d) => [d.name, d] as const))('refuses %s with a 400 naming the field, within a bound', async (_name, hostile) => {
    const bytes = hostile.bytes();
    expect(bytes.length).toBeLessThan(3 * 1024 ** 2);
    const url = docs.serve(`/${hostile.fileName}`, bytes, hostile.contentType);
    const started = Date.now();
    const res = await quoteTranslation(url);
    const tookMs = Date.now() - started;
    expect(res.status).toBe(400);
    expect(res.body.status).toBe('error');
    expect(res.body.error).toMatch(/^url: /);
    expect(res.body.error).not.toMatch(INTERNAL);
    expect(tookMs).toBeLessThan(REFUSAL_BOUND_MS);
  });

  it('refuses a hostile transcript for proofreading, naming transcription_url', async () => {
    const hostile = HOSTILE_DOCUMENTS.find((d) => d.fileName.endsWith('.rtf'))!;
    const url = docs.serve(`/transcript-${hostile.fileName}`, hostile.bytes(), hostile.contentType);
    const media = docs.serve('/speech.wav', (await import('../helpers/mediaServer.js')).wavFile(30), 'audio/wav');
    const res = await service.post('/api/v4/transcription-proofreadings', {
      api_token: token,
      mode: 'test',
      audio_url: media,
      transcription_url: url,
      language: 'english',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^transcription_url: the document is nested more than 200 levels deep$/);
  });

  it.each(HOSTILE_MEDIA.map((m) => [m.name, m] as const))('refuses crafted media (%s) with a 400 naming the field', async (_name, hostile) => {
    const url = docs.serve(`/${hostile.fileName}`, hostile.bytes(), hostile.contentType);
    const started = Date.now();
    const res = await service.post('/api/v4/ai-transcriptions', { api_token: token, mode: 'test', url, language: 'english' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^url: /);
    expect(res.body.error).not.toMatch(INTERNAL);
    expect(Date.now() - started).toBeLessThan(REFUSAL_BOUND_MS);
  });
});

describe('while hostile documents are being opened', () => {
  it('answers other requests without delay and keeps its memory bounded', async () => {
    const hostile = HOSTILE_DOCUMENTS.filter((d) => d.fileName.endsWith('.pdf') || d.fileName.endsWith('.docx')).slice(0, 4);
    expect(hostile).toHaveLength(4);
    // Written and served before the clock starts: generating them is this process's work, not the service's.
    const urls = hostile.map((d, n) => docs.serve(`/attack-${n}-${d.fileName}`, d.bytes(), d.contentType));
    const attackers = await Promise.all(hostile.map(async () => (await service.createAccount(10)).token));
    const before = rssMb();
    let peakRss = before;
    let slowestMs = 0;
    let answered = 0;
    let attacking = true;
    const others = (async () => {
      while (attacking) {
        const started = performance.now();
        const res = await service.get('/api/v4/languages');
        expect(res.status).toBe(200);
        slowestMs = Math.max(slowestMs, performance.now() - started);
        peakRss = Math.max(peakRss, rssMb());
        answered++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    // Four accounts, so the per-account probe cap is not what holds them back.
    const attacks = await Promise.all(urls.map((url, n) => service.post('/api/v4/translations', { api_token: attackers[n], mode: 'test', url, ...pair })));
    attacking = false;
    await others;
    // Two readers at once (the default on two cores): the others wait their turn or are told to retry.
    for (const res of attacks) {
      // Busy readers are the service's capacity: 503 with Retry-After, never a 429 (the caller's excess).
      expect([400, 503]).toContain(res.status);
      if (res.status === 503) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      else expect(res.body.error).toMatch(/^url: /);
    }
    expect(attacks.filter((r) => r.status === 400).length).toBeGreaterThanOrEqual(2);
    expect(answered).toBeGreaterThan(20);
    expect(slowestMs).toBeLessThan(500);
    expect(peakRss - before).toBeLessThan(150);
  });
});

describe('a live order with a hostile file', () => {
  it('is a 400: the wallet is unchanged and no workflow starts', async () => {
    const { token: customer, accountId } = await service.createAccount(100);
    const hostile = HOSTILE_DOCUMENTS.find((d) => d.fileName === 'huge-page-tree.pdf')!;
    const url = docs.serve('/live-huge-page-tree.pdf', hostile.bytes(), hostile.contentType);
    const workflowsBefore = await workflowsOnQueue();
    const res = await service.post('/api/v4/translations', { api_token: customer, mode: 'live', url, ...pair });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^url: the PDF has more than 2,000 pages$/);
    const [account] = await service.database.db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(account!.balanceCents).toBe(100_00);
    expect(await service.database.db.select().from(orders).where(eq(orders.accountId, accountId))).toEqual([]);
    expect(await workflowsOnQueue()).toEqual(workflowsBefore);
  });

  async function workflowsOnQueue(): Promise<string[]> {
    const ids: string[] = [];
    for await (const wf of service.temporal.workflow.list({ query: `TaskQueue = '${service.taskQueue}'` })) ids.push(wf.workflowId);
    return ids.sort();
  }
});

describe('a hostile result file uploaded by a worker', () => {
  it('is refused when submitted, naming the result kind; the order stays open', async () => {
    const { wavFile } = await import('../helpers/mediaServer.js');
    const { token: customer } = await service.createAccount(100);
    const audio = docs.serve('/order-audio.wav', wavFile(30), 'audio/wav');
    const placed = await placeOrder(service, { token: customer, fields: { url: audio, language: 'english' } });
    const bomb = await service.complete(
      placed.body.order_id,
      'transcript.docx',
      HOSTILE_DOCUMENTS.find((d) => d.fileName === 'zip-bomb-lying-sizes.docx')!.bytes(),
    );
    expect(bomb.status).toBe(400);
    expect(bomb.body.error).toBe('transcription file: the document unpacks to more than 200 MB');
    const nested = await service.complete(placed.body.order_id, 'transcript.rtf', rtfDeeplyNested());
    expect(nested.body.error).toBe('transcription file: the document is nested more than 200 levels deep');
    const order = await service.get(`/api/v4/orders/${placed.body.order_id}?api_token=${customer}&mode=live`);
    expect(order.body.status).not.toBe('finished');
  });
});

describe('readers killed at their limits', () => {
  let strict: TestService;
  beforeAll(async () => {
    // A low CPU limit, so that the kills take seconds, not minutes.
    strict = await startService({ sandbox: { limits: { cpuMs: 250 } } });
  });
  afterAll(async () => {
    await strict?.close();
  });

  it('leak nothing: forty refusals in a row leave the memory where it was, and the pool recovers', async () => {
    const { token: attacker } = await strict.createAccount(10);
    const slow = docs.serve('/slow-millions-of-words.pdf', pdfWithMillionsOfWords(), 'application/pdf');
    const nested = docs.serve('/nested.rtf', rtfDeeplyNested(), 'application/rtf');
    const quote = (url: string) => strict.post('/api/v4/translations', { api_token: attacker, mode: 'test', url, ...pair });
    // Warm up (readers started, modules loaded) before the baseline.
    expect((await quote(slow)).body.error).toBe('url: the document takes too long to read (more than 0.25 s of work)');
    const before = rssMb();
    // Twenty readers killed at their CPU limit (each a reader started again: seconds of CPU), twenty
    // files refused by a reader at its nesting limit.
    for (let n = 0; n < 40; n += 2) {
      const pairOfRefusals = await Promise.all([quote(slow), quote(nested)]);
      expect(pairOfRefusals.map((res) => res.body.error)).toEqual([
        'url: the document takes too long to read (more than 0.25 s of work)',
        'url: the document is nested more than 200 levels deep',
      ]);
    }
    expect(rssMb() - before).toBeLessThan(60);
    expect(readerProcesses()).toBeLessThanOrEqual(2 + 3); // documents, plus the media readers of both services
    // The pool recovered: an honest document is read as before. (Plain text: a fresh reader's first
    // PDF loads the PDF library inside the 0.25 s of CPU this service allows, which a slow machine exceeds.)
    const honest = docs.serve('/honest-after-kills.txt', 'word '.repeat(150), 'text/plain');
    expect((await quote(honest)).body).toMatchObject({ status: 'success', words: 150 });
  }, 180_000);
});

describe('a large honest document', () => {
  it('is still accepted: a 300-page text PDF counts all its words', async () => {
    const url = docs.serve('/book.pdf', honestTextPdf(300, 300), 'application/pdf');
    const res = await quoteTranslation(url);
    expect(res.body).toMatchObject({ status: 'success', words: honestTextPdfWords(300, 300) });
  });
});
