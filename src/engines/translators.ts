// Machine translation for drafts, behind one interface: a user's LibreTranslate-compatible server,
// or Apertium where Debian's packages are installed (`apertium` and a pair such as
// `apertium-eng-spa`). Failures split as for speech engines (types.ts): rejected or worth retrying.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fetch } from 'undici';
import { z } from 'zod';
import { engineDispatcher, parseAnswer, readCapped, requestFailure, statusError } from './engineHttp.js';
import { keepingTerms } from './keepTerms.js';
import { spawnChild } from '../runtime/spawner/index.js';
import { EngineFaultError, EngineRejectedError, type TranslateRequest, type Translator, type Translators } from './types.js';

export type { Translator, Translators } from './types.js';

// ---------------------------------------------------------------------------------------------
// Texts cut into pieces and grouped into batches, so that every call to an engine is bounded.

/** A piece of one text: its words (`core`) go to the engine, the whitespace around them does not. */
interface Piece {
  text: number;
  lead: string;
  core: string;
  trail: string;
}

interface BatchLimits {
  maxChars: number;
  maxTexts: number;
}

/** Translates `req.texts` by batches of non-empty pieces, one batch after the other, and puts the texts back together. */
async function inBatches(req: TranslateRequest, limits: BatchLimits, translateBatch: (cores: string[]) => Promise<string[]>): Promise<string[]> {
  const pieces = req.texts.flatMap((text, index) =>
    cut(text, limits.maxChars).map((part): Piece => {
      const [, lead = '', core = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(part) ?? [];
      return { text: index, lead, core, trail };
    }),
  );
  const translated = new Map<Piece, string>();
  let batch: Piece[] = [];
  let chars = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const outputs = await translateBatch(batch.map((p) => p.core));
    if (outputs.length !== batch.length) throw new EngineFaultError(`the engine answered ${outputs.length} texts for ${batch.length}`);
    batch.forEach((p, i) => translated.set(p, outputs[i]!));
    batch = [];
    chars = 0;
  };
  for (const piece of pieces.filter((p) => p.core !== '')) {
    if (batch.length >= limits.maxTexts || (batch.length > 0 && chars + piece.core.length > limits.maxChars)) await flush();
    batch.push(piece);
    chars += piece.core.length;
  }
  await flush();
  const texts = req.texts.map(() => '');
  for (const p of pieces) texts[p.text] += p.lead + (translated.get(p) ?? '') + p.trail;
  return texts;
}

/** `text` in pieces of at most `max` characters: cut after a line break, else a sentence end, else a space. */
function cut(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let at = lastEnd(window, /\n/g) ?? lastEnd(window, /[.!?…]\s/g) ?? lastEnd(window, /\s/g) ?? max;
    // Never between the two halves of a surrogate pair.
    if (at === max && /[\uD800-\uDBFF]/.test(window.at(-1)!)) at--;
    pieces.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  pieces.push(rest);
  return pieces;
}

/** Where the last match of `pattern` in `s` ends, when that is inside `s`. */
function lastEnd(s: string, pattern: RegExp): number | undefined {
  let end: number | undefined;
  for (const m of s.matchAll(pattern)) end = m.index + m[0].length;
  return end !== undefined && end > 0 && end < s.length ? end : undefined;
}

/** ISO 639-1 base of a code: 'pt-BR' → 'pt'. */
const baseOf = (code: string): string => code.trim().toLowerCase().split(/[-_]/)[0]!;

// ---------------------------------------------------------------------------------------------
// Apertium: rule-based, local, one process pipeline per batch.

/** Characters per run of `apertium`: under a second of work (measured: ~0.2 s to start, then ~50 kB/s). */
const APERTIUM_BATCH_CHARS = 32_000;
/** Apertium's own three-letter codes (ISO 639-3) that have an ISO 639-1 code; two-letter ones are ISO 639-1 already. */
const ISO_639_1 = new Map(
  (
    'afr af ara ar arg an bel be bos bs bre br bul bg cat ca ces cs cym cy dan da deu de ell el eng en epo eo ' +
    'eus eu fin fi fra fr gle ga glg gl hin hi hrv hr ind id isl is ita it kaz kk kir ky mkd mk mlt mt msa ms ' +
    'zlm ms nld nl nno nn nob nb nor no oci oc pol pl por pt ron ro rus ru slv sl spa es sqi sq srd sc srp sr ' +
    'swe sv tat tt tur tr ukr uk urd ur uzb uz'
  )
    .match(/\S+ \S+/g)!
    .map((pair) => pair.split(' ') as [string, string]),
);
/** A translation mode as `apertium -l` lists it: `eng-spa`, `spa-eng_US`, `oc_aran-ca`; debugging modes have more parts. */
const MODE = /^([a-z]{2,3})(_\w+)?-([a-z]{2,3})(_\w+)?$/;

export interface ApertiumOptions {
  /** The `apertium` script; default: found on PATH. */
  command?: string;
}

/**
 * Apertium as installed on this machine: the pairs come from `apertium -l` (the modes it would
 * run, wherever its data directory is), asked once here. Undefined when Apertium is missing or has
 * no pair with ISO 639-1 codes on both sides.
 */
export async function apertiumTranslator(opts: ApertiumOptions = {}): Promise<Translator | undefined> {
  const command = opts.command ?? 'apertium';
  let listing: string;
  try {
    listing = (await promisify(execFile)(command, ['-l'], { timeout: 10_000 })).stdout;
  } catch {
    return undefined;
  }
  const modes = new Map<string, { mode: string; plain: boolean }>();
  for (const mode of listing.split('\n').map((line) => line.trim())) {
    const m = MODE.exec(mode);
    const from = m && (m[1]!.length === 2 ? m[1]! : ISO_639_1.get(m[1]!));
    const to = m && (m[3]!.length === 2 ? m[3]! : ISO_639_1.get(m[3]!));
    if (!m || !from || !to || from === to) continue;
    // A pair's plain mode over its variants (spa-eng over spa-eng_US).
    const plain = !m[2] && !m[4];
    const known = modes.get(`${from}>${to}`);
    if (!known || (plain && !known.plain)) modes.set(`${from}>${to}`, { mode, plain });
  }
  if (modes.size === 0) return undefined;
  const modeFor = (from: string, to: string) => modes.get(`${baseOf(from)}>${baseOf(to)}`)?.mode;
  const name = 'apertium';

  return {
    name,
    covers: (from, to) => modeFor(from, to) !== undefined,
    async translate(req) {
      const mode = modeFor(req.from, req.to);
      if (!mode) throw new EngineRejectedError(`Apertium does not translate ${req.from} into ${req.to} on this machine`);
      const deadline = AbortSignal.timeout(req.timeoutMs);
      const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
      try {
        return await inBatches(req, { maxChars: APERTIUM_BATCH_CHARS, maxTexts: Infinity }, async (cores) => {
          const joined = await runJoined(command, mode, cores, signal);
          // Should Apertium ever merge or split a separator, each piece alone is still right (and slower).
          if (joined) return joined;
          const alone: string[] = [];
          for (const core of cores) alone.push(tidy(await runApertium(command, mode, core, signal)));
          return alone;
        });
      } catch (err) {
        throw requestFailure(err, name, 'translation', req, deadline);
      }
    },
  };
}

/**
 * Several texts in one run, separated by a run of line breaks longer than any inside them: Apertium
 * passes line breaks through untouched, and a blank line ends a sentence, so no text reads into the
 * next. Undefined when the output does not come back in as many parts.
 */
async function runJoined(command: string, mode: string, cores: string[], signal: AbortSignal): Promise<string[] | undefined> {
  if (cores.length === 1) return [tidy(await runApertium(command, mode, cores[0]!, signal))];
  const longest = Math.max(0, ...cores.flatMap((c) => (c.match(/\n+/g) ?? []).map((run) => run.length)));
  const breaks = Math.max(3, longest + 2);
  const output = await runApertium(command, mode, cores.join('\n'.repeat(breaks)), signal);
  const parts = output.trim().split(new RegExp(`\\n{${breaks},}`));
  return parts.length === cores.length ? parts.map(tidy) : undefined;
}

/** Apertium leaves a space where it drops a word (a subject pronoun in Spanish): one space is enough. */
const tidy = (s: string): string => s.trim().replace(/ {2,}/g, ' ');

/**
 * One `apertium -u <mode> <file>` (no shell; -u: unknown words without their `*` mark). The input
 * goes in a file: the script reads /dev/stdin, which cannot be opened when stdin is a socket, as
 * Node's pipes are (it then prints nothing and exits 0). Killed with its whole pipeline on abort or
 * when the output outgrows the input by far.
 */
async function runApertium(command: string, mode: string, input: string, signal: AbortSignal): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'apertium-'));
  try {
    const file = join(dir, 'input.txt');
    await writeFile(file, input);
    if (signal.aborted) throw new Error('aborted before Apertium started');
    const maxOutput = 4 * Buffer.byteLength(input) + 64 * 1024;
    // A process group of its own: the script runs a pipeline of a dozen processes, and a kill must reach them all.
    // TMPDIR: the script's own temporary file, which a kill leaves behind, goes where `rm` below reaches it.
    const child = await spawnChild(command, ['-u', mode, file], { detached: true, env: { ...process.env, TMPDIR: dir } }).catch((err: Error) => {
      throw new EngineFaultError(`apertium could not run: ${err.message}`);
    });
    return await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let stderr = '';
      let failed: Error | undefined;
      const fail = (err: Error) => {
        failed ??= err;
        child.kill('SIGKILL', true);
      };
      const onAbort = () => fail(new Error('aborted'));
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
      child.stdout!.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > maxOutput) fail(new EngineFaultError(`apertium ${mode}: more than ${maxOutput} bytes of output`));
        else chunks.push(chunk);
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        if (stderr.length < 2000) stderr += chunk.toString('utf8');
      });
      child.on('close', (code: number | null, killedBy: NodeJS.Signals | null) => {
        signal.removeEventListener('abort', onAbort);
        if (failed) return reject(failed);
        const why = stderr.trim().replace(/\s+/g, ' ').slice(0, 200);
        if (code !== 0) return reject(new EngineFaultError(`apertium ${mode} exited with ${code ?? killedBy}: ${why}`));
        if (size === 0) return reject(new EngineFaultError(`apertium ${mode} printed nothing: ${why}`));
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// LibreTranslate (and servers speaking its API): GET /languages, POST /translate with q as an array.

/** A translation answer larger than this is not one (batches are a few kB). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

const languagesAnswer = z.array(z.object({ code: z.string(), name: z.string().nullish(), targets: z.array(z.string()).nullish() }));
const translateAnswer = z.object({ translatedText: z.union([z.array(z.string()), z.string()]) });

export interface LibreTranslateOptions {
  baseUrl: string;
  apiKey?: string;
  /** Deadline for listing the languages. Default 10 s. */
  timeoutMs?: number;
  /** Bounds of one /translate request (a server may refuse more: `--char-limit`, `--batch-limit`). Defaults 5000 characters, 50 texts. */
  maxBatchChars?: number;
  maxBatchTexts?: number;
}

/**
 * A LibreTranslate-compatible server. Its language list (GET /languages) is read once, here, so that
 * `covers` can answer at once: a server that gains languages needs a new translator. EngineFaultError
 * when the list cannot be read.
 */
export async function libreTranslateTranslator(opts: LibreTranslateOptions): Promise<Translator> {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const name = `libretranslate:${new URL(base).host}`;
  const limits = { maxChars: opts.maxBatchChars ?? 5000, maxTexts: opts.maxBatchTexts ?? 50 };

  async function call<T>(path: string, body: object | undefined, answer: z.ZodType<T>, signal: AbortSignal): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body) headers['content-type'] = 'application/json';
    const response = await fetch(`${base}${path}`, {
      method: body ? 'POST' : 'GET',
      headers,
      dispatcher: engineDispatcher,
      signal,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await readCapped(response, name, MAX_ANSWER_BYTES);
    if (!response.ok) throw statusError(name, response.status, text, 'the translation server');
    return parseAnswer(name, text, answer, `in LibreTranslate's shape for ${path}`);
  }

  const listing = { timeoutMs: opts.timeoutMs ?? 10_000 };
  const listDeadline = AbortSignal.timeout(listing.timeoutMs);
  let languages: z.infer<typeof languagesAnswer>;
  try {
    languages = await call('/languages', undefined, languagesAnswer, listDeadline);
  } catch (err) {
    // Any failure to list is one to retry later, a refusal included: nothing was asked of the texts.
    const fault = requestFailure(err, name, 'language list', listing, listDeadline);
    throw fault instanceof EngineRejectedError ? new EngineFaultError(`${name}: the languages could not be listed: ${fault.message}`) : fault;
  }
  // The server's code for an ISO 639-1 code: its own exact code first, else one of that base ('zh' → 'zh-Hans').
  const codes = new Map<string, string>();
  for (const { code } of languages) codes.set(code.toLowerCase(), code);
  for (const { code } of languages) if (!codes.has(baseOf(code))) codes.set(baseOf(code), code);
  const all = languages.map((l) => l.code);
  // Servers older than LibreTranslate 1.3 list no targets: every language to every other.
  const targets = new Map(languages.map((l) => [l.code, new Set(l.targets ?? all)]));
  const pair = (from: string, to: string) => {
    const source = codes.get(from.trim().toLowerCase()) ?? codes.get(baseOf(from));
    const target = codes.get(to.trim().toLowerCase()) ?? codes.get(baseOf(to));
    return source && target && source !== target && targets.get(source)?.has(target) ? { source, target } : undefined;
  };

  return {
    name,
    covers: (from, to) => pair(from, to) !== undefined,
    async translate(req) {
      const codesOf = pair(req.from, req.to);
      if (!codesOf) throw new EngineRejectedError(`the translation server does not translate ${req.from} into ${req.to}`);
      const deadline = AbortSignal.timeout(req.timeoutMs);
      const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
      try {
        return await inBatches(req, limits, async (q) => {
          const body = { q, ...codesOf, format: 'text', ...(opts.apiKey ? { api_key: opts.apiKey } : {}) };
          const { translatedText } = await call('/translate', body, translateAnswer, signal);
          // A server that answers one text with a string rather than a list of one.
          return typeof translatedText === 'string' ? [translatedText] : translatedText;
        });
      } catch (err) {
        throw requestFailure(err, name, 'translation', req, deadline);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The choice.

export interface TranslatorsConfig {
  /** A user's LibreTranslate-compatible server, asked first. */
  libreTranslate?: { baseUrl: string; apiKey?: string };
  /** Apertium where it is installed; false leaves it out. Default true. */
  apertium?: boolean;
}

/** The translators of a worker, built once at its start; EngineFaultError when the user's server cannot list its languages. */
export async function translatorsFrom(config: TranslatorsConfig): Promise<Translators> {
  const [server, apertium] = await Promise.all([
    config.libreTranslate ? libreTranslateTranslator(config.libreTranslate) : undefined,
    config.apertium === false ? undefined : apertiumTranslator(),
  ]);
  // Every translator keeps the order's terms as they are.
  const all = [server, apertium].filter((t): t is Translator => t !== undefined).map(keepingTerms);
  return { all, covering: (from, to) => all.find((t) => t.covers(from, to)) };
}
