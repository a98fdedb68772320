// ttconv (Sandflow's TTML converter, PyPI; installed into .tools/test-tools by `npm install`), the
// independent reader of the TTML/DFXP captions in the format tests: it reads a TTML document and
// writes it as SRT, which the subtitle parser then reads.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export const TTCONV_PYTHON = resolve('.tools/test-tools/bin/python');
export const HAS_TTCONV = existsSync(TTCONV_PYTHON);

/** The TTML document as ttconv reads it, written out as SRT. */
export async function ttmlToSrt(ttml: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ttconv-'));
  try {
    await writeFile(join(dir, 'in.ttml'), ttml);
    await promisify(execFile)(TTCONV_PYTHON, [
      '-m',
      'ttconv.tt',
      'convert',
      '-i',
      join(dir, 'in.ttml'),
      '-o',
      join(dir, 'out.srt'),
      '--itype',
      'TTML',
      '--otype',
      'SRT',
    ]);
    return await readFile(join(dir, 'out.srt'), 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
