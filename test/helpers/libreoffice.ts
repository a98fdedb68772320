// LibreOffice headless as an independent reader and writer of office files (.ci/run installs
// Debian's libreoffice-writer-nogui; without it these checks are skipped, visibly).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { hasLeg } from './legCatalog.js';

const run = promisify(execFile);

export const HAS_LIBREOFFICE = hasLeg('libreoffice');

/** Converts `bytes` (named `fileName`) with `soffice --convert-to target`, e.g. 'txt:Text'. */
export async function convert(bytes: Uint8Array, fileName: string, target: string, extension: string): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'lo-'));
  try {
    await writeFile(join(dir, fileName), bytes);
    // A profile of its own, so parallel test files do not share LibreOffice's lock.
    await run('soffice', [`-env:UserInstallation=file://${dir}/profile`, '--headless', '--convert-to', target, '--outdir', dir, join(dir, fileName)], {
      timeout: 60_000,
    });
    return await readFile(join(dir, fileName.replace(/\.[^.]+$/, `.${extension}`)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
