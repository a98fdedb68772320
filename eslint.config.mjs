// ESLint (npm run lint, part of `npm test`'s pretest): typescript-eslint with type information, for
// the promise rules that catch what the compiler does not: a promise nobody awaits or handles
// (no-floating-promises) and one passed where nothing awaits it (no-misused-promises). Formatting is
// Prettier's (.prettierrc.json), not ESLint's.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'clients/**/dist/**', 'src/web/assets/**', '.old-code-*/**', 'coverage/**'] },
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
);
