import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The Temporal SDK's native worker does not survive thread pools; forks are safe.
    pool: 'forks',
    maxWorkers: 2,
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    reporters: ['default', './test/summaryReporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
