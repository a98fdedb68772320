// Processes seen from /proc: a process's descendants and what each one is (the service's children
// in the tiedChildren and spawner tests; serviceProcess.ts starts the service).
import { readdirSync } from 'node:fs';
import { processInfo } from '../../src/runtime/tiedChild.js';

export interface Seen {
  pid: number;
  startTime: number;
  args: string[];
}

/** Every process under `root` (children, theirs, …), from /proc. */
export function descendants(root: number): Seen[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => ({ pid: Number(name), info: processInfo(Number(name)) }))
    .filter((p) => p.info && p.info.state !== 'Z');
  const found: Seen[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const { pid, info } of all) {
      if (!parents.has(pid) && parents.has(info!.ppid)) {
        parents.add(pid);
        found.push({ pid, startTime: info!.startTime, args: info!.args });
        grew = true;
      }
    }
  }
  return found;
}

/** Gone: no such process, a zombie, or another process under its pid. */
export const gone = ({ pid, startTime }: Seen) => {
  const now = processInfo(pid);
  return !now || now.state === 'Z' || now.startTime !== startTime;
};
export const running = (seen: Seen) => !gone(seen);
export const isDevServer = (p: Seen) => p.args.includes('start-dev');
export const isEngine = (p: Seen) => p.args.some((a) => a.endsWith('engines/server.py'));
export const isReader = (p: Seen) => p.args.some((a) => a.endsWith('sandbox/child.js'));
export const isSpawner = (p: Seen) => p.args.some((a) => a.endsWith('spawner/process.js'));
