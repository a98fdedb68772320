// Prints, at the end of the run, the slowest tests (where `npm test`'s time goes), which optional
// legs were skipped and how to run them (once, not per test file), then one plain closing line,
// "vitest: N passed, N failed, N skipped", for CI log readers.
import type { Reporter, TestModule } from 'vitest/node';
import { hasLeg, legMarker, LEGS, type Leg } from './helpers/legCatalog.js';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const skippedByLeg = new Map<Leg, number>();
    const legs = Object.keys(LEGS) as Leg[];
    const durations: Array<[string, number]> = [];
    const files: Array<[string, number]> = [];
    for (const module of testModules) {
      files.push([relative(module.moduleId), module.diagnostic().duration]);
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        durations.push([`${relative(module.moduleId)} > ${test.name}`, test.diagnostic()?.duration ?? 0]);
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') {
          counts.failed++;
          failedHere++;
        } else {
          counts.skipped++;
          const leg = legs.find((l) => test.fullName.includes(legMarker(l)));
          if (leg && !hasLeg(leg)) skippedByLeg.set(leg, (skippedByLeg.get(leg) ?? 0) + 1);
        }
      }
      // A file that failed outside its tests (an import, a beforeAll) counts as one failure.
      if (module.state() === 'failed' && failedHere === 0) counts.failed++;
    }
    process.stdout.write(slowest('files (with their setup)', files, 10) + slowest('tests', durations, 15));
    process.stdout.write(skippedLegs(skippedByLeg));
    process.stdout.write(`\nvitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}

function skippedLegs(skipped: Map<Leg, number>): string {
  if (skipped.size === 0) return '';
  const lines = [...skipped].map(
    ([leg, tests]) => `  ${LEGS[leg].label}: ${tests} test${tests === 1 ? '' : 's'} skipped (${LEGS[leg].missing}).\n    To run them: ${LEGS[leg].howToRun}`,
  );
  return `\nSkipped legs (not on this machine; everything else ran):\n${lines.join('\n')}\n`;
}

const relative = (path: string) => path.replace(/^.*?\/test\//, 'test/');

function slowest(what: string, durations: Array<[string, number]>, count: number): string {
  const top = durations.sort((a, b) => b[1] - a[1]).slice(0, count);
  if (top.length === 0) return '';
  return `\nSlowest ${what}:\n${top.map(([name, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${name.length > 150 ? `${name.slice(0, 149)}…` : name}`).join('\n')}\n`;
}
