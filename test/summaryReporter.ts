// Prints one plain closing line, "vitest: N passed, N failed, N skipped", for CI log readers.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') { counts.failed++; failedHere++; }
        else counts.skipped++;
      }
      // A file that failed outside its tests (an import, a beforeAll) counts as one failure.
      if (module.state() === 'failed' && failedHere === 0) counts.failed++;
    }
    process.stdout.write(`\nvitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
