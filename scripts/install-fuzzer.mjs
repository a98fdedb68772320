// Installs schemathesis (PyPI), the third-party API fuzzer the test run points at the service's
// OpenAPI document, into a project-local venv .tools/schemathesis/, as the Temporal binaries are.
// Idempotent: skipped when the pinned version answers already.
import { existsSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const VERSION = '4.32.5';
const VENV = '.tools/schemathesis';
const BIN = `${VENV}/bin/schemathesis`;

const installed = existsSync(BIN) && spawnSync(BIN, ['--version'], { encoding: 'utf8' }).stdout?.includes(VERSION);
if (installed) process.exit(0);

const python = ['python3', 'python'].find((p) => spawnSync(p, ['--version']).status === 0);
if (!python) {
  console.error('install-fuzzer: python3 with venv and pip is needed for schemathesis (the API fuzzer of the tests)');
  process.exit(1);
}
console.log(`install-fuzzer: schemathesis ${VERSION} into ${VENV}/`);
rmSync(VENV, { recursive: true, force: true });
const run = (cmd, args) => {
  const result = spawnSync(cmd, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run(python, ['-m', 'venv', VENV]);
run(`${VENV}/bin/pip`, ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${VERSION}`]);
if (!existsSync(BIN)) {
  console.error(`install-fuzzer: ${BIN} is missing after the install`);
  process.exit(1);
}
