// Machine translation engines: Apertium as installed on this machine (Debian's packages, no double),
// and the LibreTranslate adapter against a LibreTranslate double on loopback (a real HTTP server
// speaking its API: GET /languages, POST /translate).
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apertiumTranslator, libreTranslateTranslator, translatorsFrom, type Translator } from '../../src/engines/translators.js';
import { EngineFaultError, EngineRejectedError } from '../../src/engines/types.js';
import { keepingTerms } from '../../src/engines/keepTerms.js';
import { describeNeeding } from '../helpers/legs.js';
import { hasLeg } from '../helpers/legCatalog.js';
import { freePort, waitFor } from '../helpers/net.js';
import { startLibreTranslate, type LibreTranslateDouble } from '../helpers/libreTranslate.js';
import { spawnerPid } from '../../src/runtime/spawner/index.js';

const SENTENCES = ['The house is red.', 'I like the blue car.', 'The dog eats bread in the kitchen.', 'We will meet tomorrow at the station.'];

/** Processes in process group `pgid` (Apertium runs its pipeline in a group of its own). */
const groupMembers = (pgid: number): number[] =>
  execFileSync('ps', ['-e', '-o', 'pid=,pgid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([, group]) => group === pgid)
    .map(([pid]) => pid!);

/** This process's children running `apertium`. */
/** The Apertium scripts the spawner runs for this process (their process groups' leaders). */
async function apertiumChildren(): Promise<number[]> {
  const parent = await spawnerPid();
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(parent)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter((line) => /\bapertium -u\b/.test(line))
      .map((line) => Number.parseInt(line.trim(), 10));
  } catch {
    return []; // ps exits 1 when there is no child at all
  }
}

describeNeeding('apertium', 'apertiumTranslator', () => {
  let apertium: Translator;
  beforeAll(async () => {
    const found = await apertiumTranslator();
    if (!found) throw new Error('apertiumTranslator() found no Apertium pair on a machine where `apertium -l` lists eng-spa');
    apertium = found;
  });
  const en2es = (texts: string[], extra: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
    apertium.translate({ texts, from: 'en', to: 'es', timeoutMs: 30_000, ...extra });

  it('translates English into Spanish: one output per text, in order, whitespace kept, no unknown-word marks', async () => {
    const out = await en2es([...SENTENCES, '  Zorblax went home.\n', '', ' \n ']);
    expect(out).toHaveLength(7);
    expect(out[0]).toMatch(/casa/);
    expect(out[0]).toMatch(/roja/);
    expect(out[1]).toMatch(/coche azul/);
    expect(out[2]).toMatch(/perro.*pan.*cocina/);
    expect(out[3]).toMatch(/mañana/);
    expect(out[4]).toMatch(/^ {2}Zorblax \S/);
    expect(out[4]).toMatch(/\n$/);
    expect(out.slice(5)).toEqual(['', ' \n ']);
    for (const text of out) expect(text.trim()).not.toMatch(/[*#@]| {2}/);
  });

  it("keeps the order's terms as listed, as every translator of the service does (keepingTerms)", async () => {
    const text = 'The Red House opened a blue car shop. Siobhan met Tadeusz there.';
    const kept = keepingTerms(apertium);
    expect((await kept.translate({ texts: [text], from: 'en', to: 'es', timeoutMs: 30_000 }))[0]).toMatch(/Casa Roja/i);
    const [out] = await kept.translate({ texts: [text], from: 'en', to: 'es', vocabulary: ['Red House', 'Siobhan'], timeoutMs: 30_000 });
    expect(out).toContain('Red House');
    expect(out).toContain('Siobhan');
    expect(out).not.toMatch(/Casa Roja|\d{8}/i);
    expect(out).toMatch(/abrió/);
    // The translators the service builds are wrapped so.
    const [fromService] = await (
      await translatorsFrom({})
    )
      .covering('en', 'es')!
      .translate({ texts: [text], from: 'en', to: 'es', vocabulary: ['Red House'], timeoutMs: 30_000 });
    expect(fromService).toContain('Red House');
  });

  it('translates Spanish into English', async () => {
    const out = await apertium.translate({ texts: ['La casa es roja.', 'El perro come pan en la cocina.'], from: 'es', to: 'en', timeoutMs: 30_000 });
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(/house is red/);
    expect(out[1]).toMatch(/dog eats bread/);
  });

  it('keeps blank lines inside a text, and never lets a text run into the next', async () => {
    const out = await en2es(['The house is red.\n\nThe car is blue.\n\n\n\nGood morning', 'The dog', 'eats bread.']);
    expect(out).toHaveLength(3);
    expect(out[0]!.split(/\n\n\n\n/)).toHaveLength(2);
    expect(out[0]!.split(/\n\n/).filter(Boolean)).toHaveLength(3);
    expect(out[1]).toMatch(/perro/);
    expect(out[2]).toMatch(/pan/);
    expect(out[1]).not.toMatch(/pan/);
  });

  it('covers the installed pairs only, by ISO 639-1 code', () => {
    expect(apertium.covers('en', 'es')).toBe(true);
    expect(apertium.covers('es', 'en')).toBe(true);
    expect(apertium.covers('en-GB', 'ES')).toBe(true);
    expect(apertium.covers('en', 'de')).toBe(false);
    expect(apertium.covers('de', 'en')).toBe(false);
    expect(apertium.covers('en', 'en')).toBe(false);
  });

  it('refuses a pair it does not have', async () => {
    await expect(apertium.translate({ texts: ['Hello'], from: 'en', to: 'de', timeoutMs: 5000 })).rejects.toBeInstanceOf(EngineRejectedError);
  });

  it('translates long input in bounded runs, order kept (a text longer than a run is cut and put back together)', async () => {
    const many = Array.from({ length: 1200 }, (_, i) => `The house ${i} is red.`);
    const long = Array.from({ length: 2000 }, (_, i) => `The car ${i} is blue.`).join(' ');
    expect(long.length).toBeGreaterThan(32_000);
    const out = await en2es([...many, long]);
    expect(out).toHaveLength(1201);
    out.slice(0, 1200).forEach((text, i) => expect(text).toMatch(new RegExp(`^La casa ${i} es roj[ao]\\.$`)));
    expect(out[1200]!.match(/coche \d+ es azul/g)).toHaveLength(2000);
    expect(out[1200]).toMatch(/coche 1999 es azul\.$/);
  });

  it('kills the whole pipeline when the deadline passes: a fault, and no process left behind', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => `${SENTENCES[i % 4]} Number ${i}.`);
    const running = en2es(many, { timeoutMs: 500 });
    const pgid = await waitFor(async () => (await apertiumChildren())[0], 'apertium to start', 5000);
    await expect(running).rejects.toThrow(EngineFaultError);
    await expect(running).rejects.toThrow(/timed out after 500 ms/);
    await waitFor(() => groupMembers(pgid).length === 0, "the pipeline's processes to be gone", 5000);
  });

  it("ends on the caller's cancellation with an AbortError", async () => {
    const controller = new AbortController();
    const running = en2es(
      Array.from({ length: 2000 }, () => SENTENCES[0]!),
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 100);
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('apertiumTranslator without Apertium', () => {
  it('is undefined where the command is missing', async () => {
    expect(await apertiumTranslator({ command: '/nonexistent/apertium' })).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------

describe('libreTranslateTranslator against a LibreTranslate double', () => {
  let lt: LibreTranslateDouble;
  let translator: Translator;
  beforeAll(async () => {
    lt = await startLibreTranslate([
      { code: 'en', name: 'English', targets: ['es', 'fr', 'zh-Hans'] },
      { code: 'es', name: 'Spanish', targets: ['en'] },
      { code: 'fr', name: 'French', targets: ['en'] },
      { code: 'zh-Hans', name: 'Chinese', targets: ['en'] },
    ]);
    translator = await libreTranslateTranslator({ baseUrl: `${lt.url}/`, apiKey: 'lt-key' });
  });
  afterAll(async () => {
    await lt.close();
  });
  beforeEach(() => {
    lt.requests.length = 0;
    lt.behaviour = { kind: 'translate' };
  });
  const translate = (texts: string[], extra: { timeoutMs?: number; signal?: AbortSignal; from?: string; to?: string } = {}) =>
    translator.translate({ texts, from: 'en', to: 'es', timeoutMs: 10_000, ...extra });

  it('covers the pairs its /languages lists, by ISO 639-1 code', () => {
    expect(translator.covers('en', 'es')).toBe(true);
    expect(translator.covers('es', 'en')).toBe(true);
    expect(translator.covers('EN', 'fr')).toBe(true);
    expect(translator.covers('es', 'fr')).toBe(false);
    expect(translator.covers('en', 'de')).toBe(false);
    expect(translator.covers('en', 'en')).toBe(false);
    expect(translator.covers('zh', 'en')).toBe(true);
  });

  it('posts q as a list with source, target, format and api_key; one output per text, whitespace kept', async () => {
    const out = await translate([' Hello.\n', '', 'Good morning']);
    expect(out).toEqual([' [es] Hello.\n', '', '[es] Good morning']);
    expect(lt.requests).toEqual([
      {
        method: 'POST',
        path: '/translate',
        contentType: 'application/json',
        body: { q: ['Hello.', 'Good morning'], source: 'en', target: 'es', format: 'text', api_key: 'lt-key' },
      },
    ]);
  });

  it("sends the server's own code for a language ('zh' as 'zh-Hans'), and no api_key without one", async () => {
    const keyless = await libreTranslateTranslator({ baseUrl: lt.url });
    lt.requests.length = 0;
    expect(await keyless.translate({ texts: ['你好'], from: 'zh', to: 'en', timeoutMs: 10_000 })).toEqual(['[en] 你好']);
    expect(lt.requests[0]!.body).toEqual({ q: ['你好'], source: 'zh-Hans', target: 'en', format: 'text' });
  });

  it('splits the texts into bounded requests, order kept', async () => {
    const bounded = await libreTranslateTranslator({ baseUrl: lt.url, maxBatchTexts: 2, maxBatchChars: 40 });
    lt.requests.length = 0;
    const long = 'One sentence here. Another one there. And a third one.';
    const out = await bounded.translate({ texts: ['a', 'b', 'c', long], from: 'en', to: 'es', timeoutMs: 10_000 });
    expect(out.slice(0, 3)).toEqual(['[es] a', '[es] b', '[es] c']);
    expect(out[3]).toBe('[es] One sentence here. Another one there. [es] And a third one.');
    const qs = lt.requests.map((r) => r.body.q as string[]);
    expect(qs).toEqual([['a', 'b'], ['c', 'One sentence here. Another one there.'], ['And a third one.']]);
  });

  it("takes a 400 as the server's refusal, with its words", async () => {
    lt.behaviour = { kind: 'status', status: 400, body: JSON.stringify({ error: 'Invalid request: request (6000) exceeds text limit (5000)' }) };
    const err = await translate(['Hello']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineRejectedError);
    expect((err as Error).message).toBe('Invalid request: request (6000) exceeds text limit (5000)');
  });

  it('takes 500, 429 and 403 as faults worth retrying', async () => {
    for (const status of [500, 429, 403]) {
      lt.behaviour = { kind: 'status', status, body: JSON.stringify({ error: 'Cannot translate text' }) };
      await expect(translate(['Hello'])).rejects.toThrow(new RegExp(`^libretranslate:127\\.0\\.0\\.1:\\d+ answered HTTP ${status}: Cannot translate text$`));
      await expect(translate(['Hello'])).rejects.toBeInstanceOf(EngineFaultError);
    }
  });

  it("takes a server that does not answer in time as a fault, and the caller's cancellation as an AbortError", async () => {
    lt.behaviour = { kind: 'hang' };
    await expect(translate(['Hello'], { timeoutMs: 300 })).rejects.toThrow(/timed out after 300 ms/);
    const controller = new AbortController();
    const running = translate(['Hello'], { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('takes an answer that is not JSON, not its shape, or not one text per text as a fault', async () => {
    for (const body of ['<html>busy</html>', '{"translated":["x"]}', '{"translatedText":["x","y"]}']) {
      lt.behaviour = { kind: 'answer', body };
      await expect(translate(['Hello'])).rejects.toBeInstanceOf(EngineFaultError);
    }
  });

  it('refuses a pair the server does not list, without asking it', async () => {
    await expect(translate(['Hola'], { from: 'es', to: 'fr' })).rejects.toBeInstanceOf(EngineRejectedError);
    expect(lt.requests).toEqual([]);
  });

  it('cannot be built when the languages cannot be listed: a fault', async () => {
    await expect(libreTranslateTranslator({ baseUrl: `http://127.0.0.1:${await freePort()}` })).rejects.toBeInstanceOf(EngineFaultError);
    const broken = await startLibreTranslate({ languages: ['en'] });
    try {
      await expect(libreTranslateTranslator({ baseUrl: broken.url })).rejects.toThrow(/not in LibreTranslate's shape/);
    } finally {
      await broken.close();
    }
  });

  it("chooses the user's server first, then Apertium, else none", async () => {
    const french = await startLibreTranslate([
      { code: 'en', name: 'English', targets: ['fr', 'es'] },
      { code: 'fr', name: 'French', targets: ['en'] },
      { code: 'es', name: 'Spanish', targets: [] },
    ]);
    try {
      const translators = await translatorsFrom({ libreTranslate: { baseUrl: french.url } });
      expect(translators.covering('en', 'fr')?.name).toMatch(/^libretranslate:/);
      expect(translators.covering('en', 'es')?.name).toMatch(/^libretranslate:/);
      expect(translators.covering('es', 'en')?.name).toBe(hasLeg('apertium') ? 'apertium' : undefined);
      expect(translators.covering('en', 'de')).toBeUndefined();
      const serverOnly = await translatorsFrom({ libreTranslate: { baseUrl: french.url }, apertium: false });
      expect(serverOnly.all.map((t) => t.name)).toEqual([expect.stringMatching(/^libretranslate:/)]);
      expect(serverOnly.covering('es', 'en')).toBeUndefined();
    } finally {
      await french.close();
    }
  });
});
