// Copies non-TypeScript files the compiled code reads (SQL migrations, the pages' style sheet and icon) into dist/;
// the pages' scripts are bundled there by scripts/bundle-pages.mjs.
import { cpSync } from 'node:fs';
// The SQL ones: the code migrations are compiled there by tsc.
cpSync('src/db/migrations', 'dist/db/migrations', { recursive: true, filter: (path) => !path.endsWith('.ts') });
cpSync('src/web/assets', 'dist/web/assets', { recursive: true });
