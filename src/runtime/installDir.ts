// Where `npm install` puts what it brings beside node_modules (the local speech engine, the
// packaged ffmpeg and the PDF fonts: scripts/install-*.mjs): ENGINES_DIR, else the checkout's
// .engines. The same from src/ (the tests) and dist/ (npm start): both sit one folder below it.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const installDir = (env: NodeJS.ProcessEnv = process.env): string =>
  resolve(env.ENGINES_DIR ?? fileURLToPath(new URL('../../.engines', import.meta.url)));
