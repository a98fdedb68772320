// The order of the test files. Where vitest has no record of the last run's times (a fresh clone,
// CI) it starts the largest files first, and a long file that is not large (the local engine's)
// starts late and runs on alone at the end. So the files measured longest start first, in this
// order; the rest follow as vitest orders them (the last run's times, else the file's size).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The files that took 40 s or more (2026-11-29, 2 cores), longest first. */
const LONGEST_FIRST = [
  'test/integration/localEngine.test.ts',
  'test/browser/workbench.test.ts',
  'test/integration/tiedChildren.test.ts',
  'test/integration/misbehavingServers.test.ts',
  'test/integration/mediaFormats.test.ts',
  'test/integration/cleanMachine.test.ts',
  'test/integration/hostileDocuments.test.ts',
  'test/browser/wordEditor.test.ts',
  'test/browser/accountArea.test.ts',
  'test/integration/mediaContainers.test.ts',
  'test/integration/quickstart.test.ts',
  'test/integration/pdfScripts.test.ts',
];

const rank = (file: TestSpecification) => {
  const index = LONGEST_FIRST.findIndex((path) => file.moduleId.endsWith(path));
  return index === -1 ? LONGEST_FIRST.length : index;
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byVitest = await super.sort(files);
    return byVitest
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}
