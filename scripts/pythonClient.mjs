// Generates the Python client (openapi-python-client, from the test tools' venv that npm install
// fills: scripts/install-test-tools.mjs) from an OpenAPI document into `outDir`, with this
// repository's settings and templates (clients/python-generator.yaml, clients/python-templates/),
// then adds the package's hand-written modules (clients/python-templates/package/: uploads.py).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PYTHON_GENERATOR = join(ROOT, '.tools', 'test-tools', 'bin', 'openapi-python-client');
const SETTINGS = join(ROOT, 'clients', 'python-generator.yaml');
const TEMPLATES = join(ROOT, 'clients', 'python-templates');

/** Writes the client to `outDir` (replacing it) and answers its path; throws with the generator's output when it fails. */
export function generatePythonClient(document, outDir) {
  if (!existsSync(PYTHON_GENERATOR)) throw new Error(`${PYTHON_GENERATOR} is missing: run npm install (scripts/install-test-tools.mjs installs it)`);
  const args = ['generate', '--path', document, '--output-path', outDir, '--overwrite', '--meta', 'setup'];
  args.push('--config', SETTINGS, '--custom-template-path', TEMPLATES);
  const result = spawnSync(PYTHON_GENERATOR, args, { encoding: 'utf8' });
  // A warning means the document says something the generator cannot type: fix the document.
  if (result.status !== 0 || /warning/i.test(result.stdout + result.stderr)) {
    throw new Error(`openapi-python-client failed or warned:\n${result.stdout}${result.stderr}`);
  }
  // The generator writes only the modules of its templates: the hand-written ones join them as they are.
  const packageName = /^package_name_override:\s*(\S+)/m.exec(readFileSync(SETTINGS, 'utf8'))[1];
  cpSync(join(TEMPLATES, 'package'), join(outDir, packageName), { recursive: true, filter: (path) => !path.includes('__pycache__') });
  return outDir;
}

/** What pip and Python write into a client folder, which is not the client: caches and build output. */
const BUILD_OUTPUT = (path) => path.split(sep).some((part) => part === '__pycache__' || part === 'build' || part === 'dist' || part.endsWith('.egg-info'));

/** The client's own files under `dir` (build output left out), by their path relative to it. */
export async function sourceFilesOf(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = {};
  for (const e of entries) {
    const path = relative(dir, join(e.parentPath, e.name));
    if (e.isFile() && !BUILD_OUTPUT(path)) files[path] = await readFile(join(e.parentPath, e.name), 'utf8');
  }
  return files;
}
