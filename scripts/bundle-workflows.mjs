// Bundles the compiled workflow code once, at build time: a worker then starts in about a second
// instead of bundling on every start (which matters when a crashed worker is restarted).
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { bundleOrderWorkflows } from '../dist/temporal/workflowBundle.js';

const noop = () => undefined;
const logger = { trace: noop, debug: noop, info: noop, warn: console.warn, error: console.error, log: noop };
const code = await bundleOrderWorkflows(fileURLToPath(new URL('../dist/workflows/index.js', import.meta.url)), logger);
await writeFile(new URL('../dist/workflow-bundle.js', import.meta.url), code);
