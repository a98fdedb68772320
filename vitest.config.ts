import { defineConfig } from 'vitest/config';
import LongestFirst from './test/sequencer.js';

export default defineConfig({
  test: {
    // The Temporal SDK's native worker does not survive thread pools; forks are safe.
    pool: 'forks',
    maxWorkers: 2,
    // Each fork runs file after file: the modules (the Temporal SDK, drizzle, the routes) are loaded
    // and PGlite's wasm compiled once per fork, not once per file (import time 200 s → 25 s). Every
    // suite starts and stops what it uses; no test mocks a module or stubs a global.
    isolate: false,
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    sequence: { sequencer: LongestFirst },
    reporters: ['default', './test/summaryReporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
