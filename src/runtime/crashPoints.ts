// Named crash points for the crash-matrix tests (test/integration/crashMatrix.test.ts). A process
// started with ORDER_SERVICE_CRASH_AT=<point>[,<point>…] kills itself with SIGKILL when it reaches
// one, with ORDER_SERVICE_CRASH_PROBABILITY (default 1): a real crash, no finally block runs.
// Neither variable is set in production, where a crash point costs one Set lookup.
export type CrashPoint = 'before-charge-commit' | 'after-charge-commit' | 'after-refund-commit' | 'mid-callback';

const armed = new Set(
  (process.env.ORDER_SERVICE_CRASH_AT ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean),
);
const probability = Number(process.env.ORDER_SERVICE_CRASH_PROBABILITY ?? '1');

export function crashPoint(point: CrashPoint): void {
  if (armed.has(point) && Math.random() < probability) process.kill(process.pid, 'SIGKILL');
}
