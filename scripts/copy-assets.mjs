// Copies non-TypeScript files the compiled code reads (SQL migrations, the account area's script and styles) into dist/.
import { cpSync } from 'node:fs';
cpSync('src/db/migrations', 'dist/db/migrations', { recursive: true });
cpSync('src/web/assets', 'dist/web/assets', { recursive: true });
