// Issue 55: the machine of a newcomer who ran only `npm install`. The service runs as `npm start`
// runs it (node dist/main.js) with no ffmpeg on PATH (every directory holding one is replaced by
// links to its other programs) and FONT_DIRS an empty folder, so that only what npm install brought
// decodes media (.engines/ffmpeg) and draws PDFs (.engines/fonts). An AIFF, a WMA, an MP4 and a
// Speex order are transcribed by the local engine; Thai, Khmer, Japanese and Amharic PDF results
// read back as their text (pdftotext) and as a person sees them (tesseract, where Debian has the
// language's data).
// The media are made beforehand by the test's own ffmpeg (test/helpers/spokenMedia.ts).
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/serviceProcess.js';
import { startRangedServer, type RangedServer } from '../helpers/rangedServer.js';
import { SPOKEN, spokenMedia } from '../helpers/spokenMedia.js';
import { wordErrorRate } from '../helpers/speech.js';
import { waitFor } from '../helpers/net.js';
import { drawnGlyphIds, ocrPdfPage, pdfFonts, pdfLines } from '../helpers/pdfReaders.js';
import { characterErrorRate } from '../../src/domain/textDistance.js';
import { packagedFfmpeg } from '../../src/engines/audioRendition.js';
import type { MediaFormatKey } from '../../src/documents/mediaFormats.js';

const run = promisify(execFile);
const FFMPEG_PROGRAMS = /^ff(mpeg|probe|play)$/;

/** `path` with each directory that holds an ffmpeg replaced by one (under `shadows`) of links to its other programs. */
function withoutFfmpeg(path: string, shadows: string): string {
  return path
    .split(delimiter)
    .filter(Boolean)
    .map((dir, i) => {
      if (!existsSync(join(dir, 'ffmpeg'))) return dir;
      const shadow = join(shadows, String(i));
      mkdirSync(shadow, { recursive: true });
      for (const name of readdirSync(dir)) if (!FFMPEG_PROGRAMS.test(name)) symlinkSync(join(dir, name), join(shadow, name));
      return shadow;
    })
    .join(delimiter);
}

interface Sample {
  language: string;
  text: string;
  ocr?: { data: string; maxCer: number };
}
const SAMPLES: Sample[] = JSON.parse(readFileSync(new URL('../helpers/scriptSamples.json', import.meta.url), 'utf8'));
/** Each language's sample, and the packaged font its PDF must embed. */
const SCRIPTS = [
  ['thai', 'NotoSansThai'],
  ['khmer', 'NotoSansKhmer'],
  ['japanese', 'NotoSansJP'],
  ['amharic', 'NotoSansEthiopic'],
].map(([language, font]) => ({ ...SAMPLES.find((s) => s.language === language)!, font: font! }));
const withoutSpaces = (s: string) => s.normalize('NFC').replace(/\s+/g, '');

describeNeeding(['ffmpeg', 'localEngine', 'scripts'], 'a machine with nothing but npm install: no ffmpeg on PATH, FONT_DIRS empty', () => {
  let root: string;
  let PATH: string;
  let server: RangedServer;
  let service: ServiceProcess;
  const get = async (path: string) => (await fetch(`${service.baseUrl}${path}`)).json();
  const place = async (path: string, fields: Record<string, string>) => {
    const res = await fetch(`${service.baseUrl}/api/v4/${path}`, {
      method: 'POST',
      body: new URLSearchParams({ api_token: service.apiToken, mode: 'live', ...fields }),
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body.order_id as number;
  };
  const record = async (id: number) => (await get(`/api/v4/orders/${id}?api_token=${service.apiToken}&mode=live`)).data;
  const settled = (id: number, what: string) =>
    waitFor(
      async () => {
        const r = await record(id);
        return ['finished', 'refunded', 'canceled'].includes(r.status) && r;
      },
      what,
      240_000,
    );

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'clean-machine-'));
    PATH = withoutFfmpeg(process.env.PATH ?? '', join(root, 'bin'));
    const noFonts = join(root, 'no-fonts');
    mkdirSync(noFonts);
    server = await startRangedServer();
    await Promise.all((['aiff', 'asf', 'mp4', 'speex', 'wav'] as MediaFormatKey[]).map((format) => spokenMedia(format)));
    service = await startServiceProcess({ PATH, FONT_DIRS: noFonts });
  }, 300_000);
  afterAll(async () => {
    await service?.stop();
    await server?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('runs the ffmpeg and the fonts npm install brought, and says so', () => {
    // The service's PATH has no ffmpeg, and the machine's other programs are still on it.
    expect(spawnSync('sh', ['-c', 'command -v ffmpeg'], { env: { PATH } }).status).not.toBe(0);
    expect(spawnSync('sh', ['-c', 'command -v nice && command -v setpriv'], { env: { PATH } }).status).toBe(0);
    expect(service.output()).toContain(`measured by ffmpeg (npm install's, ${packagedFfmpeg().binary})`);
    expect(service.output()).toMatch(/PDF fonts: {3}Noto, for every script of the language sets/);
  });

  it('an AIFF, a WMA, an MP4 and a Speex order are accepted, decoded and transcribed by the local engine', async () => {
    // Speex: the packaged FFmpeg's own decoder renders it at twice its length (libspeex is named instead).
    const formats: MediaFormatKey[] = ['aiff', 'asf', 'mp4', 'speex'];
    const ids = await Promise.all(
      formats.map(async (format) => place('ai-transcriptions', { url: server.serve(`/${format}`, await spokenMedia(format)), language: 'english' })),
    );
    for (const [i, id] of ids.entries()) {
      const done = await settled(id, `the ${formats[i]} order`);
      expect(done.status, formats[i]).toBe('finished');
      const text = await (await fetch(`${done.transcription_url}&format=text`)).text();
      expect(wordErrorRate(SPOKEN, text.replace(/\[\d\d:\d\d:\d\d\]/g, '')), `${formats[i]}: ${text}`).toBeLessThan(0.35);
    }
  }, 300_000);

  it('Thai, Khmer, Japanese and Amharic PDF results are drawn in the packaged fonts and read back', async () => {
    const wav = server.serve('/speech.wav', await spokenMedia('wav'));
    const ids = await Promise.all(SCRIPTS.map(({ language }) => place('transcriptions', { url: wav, language })));
    for (const [i, { language, text, font, ocr }] of SCRIPTS.entries()) {
      const file = join(root, `${language}.txt`);
      await writeFile(file, `${text}\n`);
      await run(process.execPath, ['dist/cli/order-ops.js', 'complete', String(ids[i]), '--file', `transcription=${file}`], { env: service.env });
      const done = await settled(ids[i]!, `the ${language} order`);
      const pdf = Buffer.from(await (await fetch(`${done.transcription_url}&format=pdf`)).arrayBuffer());

      // Every glyph real (none is .notdef, the empty box), every font embedded, the script's in its packaged font.
      expect(
        drawnGlyphIds(pdf).filter((g) => g === 0),
        language,
      ).toEqual([]);
      const fonts = await pdfFonts(pdf);
      expect(fonts.filter((f) => !f.embedded)).toEqual([]);
      expect(
        fonts.map((f) => f.name.replace(/^[A-Z]{6}\+/, '')),
        language,
      ).toContain(`${font}-Regular`);
      // What a reader copies: the text as written.
      expect(withoutSpaces((await pdfLines(pdf)).join('')), language).toContain(withoutSpaces(text));
      if (ocr) {
        // What a person sees: the page read by tesseract, past the English title (which the language's data does not read).
        const read = (await ocrPdfPage(pdf, ocr.data)).split('\n').filter((line) => line.trim());
        const cer = characterErrorRate(withoutSpaces(text), withoutSpaces(read.slice(1).join('')));
        expect(cer, `tesseract read: ${read.join(' / ')}`).toBeLessThanOrEqual(ocr.maxCer);
      }
    }
  }, 300_000);
});
