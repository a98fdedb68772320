// Copies non-TypeScript files the compiled code reads (SQL migrations) into dist/.
import { cpSync } from 'node:fs';
cpSync('src/db/migrations', 'dist/db/migrations', { recursive: true });
