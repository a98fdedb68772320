// The checks `npm test` runs before the tests (its pretest, after the build): the types of the
// tests and tools, the layer table, ESLint and Prettier. Each is one single-threaded process, so
// they run side by side, as many at once as the machine has cores; each one's output is printed
// whole when it ends, and the run fails if any failed.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const CHECKS = [
  ['types of the tests, benches and clients', 'tsc', ['-p', 'tsconfig.test.json']],
  ['ESLint', 'eslint', ['.']],
  ['Prettier', 'prettier', ['--check', '.']],
  ['the layer table', 'depcruise', ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err']],
];

function run([name, command, args]) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(`node_modules/.bin/${command}`, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (err) => resolve({ name, ok: false, output: String(err) }));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n== ${name} (${command} ${args.join(' ')}): ${code === 0 ? 'ok' : `FAILED (exit ${code})`}, ${seconds} s\n${output}`);
      resolve({ name, ok: code === 0 });
    });
  });
}

const queue = [...CHECKS];
const results = [];
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), CHECKS.length) }, async () => {
    while (queue.length) results.push(await run(queue.shift()));
  }),
);
const failed = results.filter((r) => !r.ok).map((r) => r.name);
if (failed.length) {
  console.error(`\nchecks failed: ${failed.join(', ')}`);
  process.exit(1);
}
