// Installs the tests' third-party tools from PyPI into a project-local venv, .tools/test-tools/, as
// the Temporal binaries are: schemathesis (the API fuzzer the tests point at the service's OpenAPI
// document), ttconv (the independent reader of the TTML/DFXP captions) and openapi-python-client (the
// generator of clients/python, npm run client:generate). Idempotent: skipped when
// the pinned versions answer already.
import { existsSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const TOOLS = { schemathesis: '4.32.5', ttconv: '1.2.3', 'openapi-python-client': '0.29.1' };
const VENV = '.tools/test-tools';
const PYTHON = `${VENV}/bin/python`;
const SCHEMATHESIS = `${VENV}/bin/schemathesis`;

const versionOf = (pkg) =>
  spawnSync(PYTHON, ['-c', `import importlib.metadata as m; print(m.version(${JSON.stringify(pkg)}))`], { encoding: 'utf8' }).stdout?.trim();
const installed = existsSync(SCHEMATHESIS) && Object.entries(TOOLS).every(([pkg, version]) => versionOf(pkg) === version);
if (installed) process.exit(0);

const python = ['python3', 'python'].find((p) => spawnSync(p, ['--version']).status === 0);
if (!python) {
  console.error('install-test-tools: python3 with venv and pip is needed for schemathesis and ttconv (tools of the tests)');
  process.exit(1);
}
const specs = Object.entries(TOOLS).map(([pkg, version]) => `${pkg}==${version}`);
console.log(`install-test-tools: ${specs.join(', ')} into ${VENV}/`);
rmSync(VENV, { recursive: true, force: true });
rmSync('.tools/schemathesis', { recursive: true, force: true }); // where schemathesis alone lived before
const run = (cmd, args) => {
  const result = spawnSync(cmd, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run(python, ['-m', 'venv', VENV]);
run(`${VENV}/bin/pip`, ['install', '--quiet', '--disable-pip-version-check', ...specs]);
if (!existsSync(SCHEMATHESIS) || versionOf('ttconv') !== TOOLS.ttconv) {
  console.error(`install-test-tools: ${VENV} lacks a tool after the install`);
  process.exit(1);
}
