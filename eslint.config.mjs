// ESLint (npm run lint, part of `npm test`'s pretest): typescript-eslint with type information, for
// the promise rules that catch what the compiler does not: a promise nobody awaits or handles
// (no-floating-promises) and one passed where nothing awaits it (no-misused-promises). Formatting is
// Prettier's (.prettierrc.json), not ESLint's.
import tseslint from 'typescript-eslint';

/** What a page has and Node has not, or what does I/O: none of it in the browser code's pure modules. */
const PAGE_GLOBALS = [
  'window',
  'document',
  'navigator',
  'location',
  'history',
  'localStorage',
  'sessionStorage',
  'fetch',
  'XMLHttpRequest',
  'requestAnimationFrame',
  'crypto',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'clients/**/dist/**', '.old-code-*/**', 'coverage/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  // The browser code, with its own types (the DOM, no Node).
  { files: ['src/web/client/**/*.ts'], languageOptions: { parserOptions: { project: './tsconfig.client.json' } } },
  // Its pure parts, unit-tested in Node: no page, no I/O, no editor or upload library, nothing of the
  // browser code outside them (the domain's pure rules they may share with the service).
  {
    files: ['src/web/client/pure/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', ...PAGE_GLOBALS.map((name) => ({ name, message: 'The pure modules of the browser code use no page and do no I/O.' }))],
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: String.raw`^(@codemirror/|tus-js-client$|\.\./[^/]+$)`, message: 'The pure modules import each other and the domain only.' }] },
      ],
    },
  },
);
