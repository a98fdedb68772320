// `npm test` (after its pretest, the build): vitest, and beside it the checks (scripts/checks.mjs:
// types, layers, ESLint, Prettier) at a lower CPU priority, so that they take the cores only while
// the tests wait on processes and servers. The checks' output is printed once vitest has ended;
// the run fails if either failed. Arguments are vitest's (`npm test -- test/unit`).
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

const CHECKS_NICE = 10;

const checks = spawn(process.execPath, ['scripts/checks.mjs'], { stdio: ['ignore', 'pipe', 'pipe'] });
setPriority(checks.pid, CHECKS_NICE);
let checksOutput = '';
checks.stdout.on('data', (d) => (checksOutput += d));
checks.stderr.on('data', (d) => (checksOutput += d));
const checksDone = new Promise((resolve) => {
  checks.on('error', (err) => resolve({ code: 1, error: String(err) }));
  checks.on('close', (code) => resolve({ code }));
});

const vitest = spawn('node_modules/.bin/vitest', ['run', ...process.argv.slice(2)], { stdio: 'inherit' });
const vitestCode = await new Promise((resolve) => {
  vitest.on('error', () => resolve(1));
  vitest.on('close', (code) => resolve(code ?? 1));
});

const { code: checksCode, error } = await checksDone;
process.stdout.write(`\nThe checks, run beside the tests:${checksOutput}${error ? `\n${error}` : ''}\n`);
process.stdout.write(`checks: ${checksCode === 0 ? 'ok' : 'FAILED'}; vitest: ${vitestCode === 0 ? 'ok' : 'FAILED'}\n`);
process.exit(vitestCode === 0 && checksCode === 0 ? 0 : 1);
