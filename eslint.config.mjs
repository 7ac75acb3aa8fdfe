// ESLint flat config (`npm run lint`). TypeScript is linted with typescript-eslint's type-aware rules through the
// tsconfig.json nearest each file: a layer's own (src/analyzer/, src/shared/, src/extension/, src/cli/, webview/) or the
// root one (test/, scripts/, bench/); the plain .mjs/.cjs scripts get the JavaScript rules only (no tsconfig covers them). Formatting is Prettier's business (`npm run format`), not ESLint's.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const unusedVars = { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true };

export default tseslint.config(
  {
    ignores: ['dist/', 'node_modules/', 'bench/node_modules/', '.e2e-run/', '.bench-out/', 'tmp/', 'test/fixtures/', '**/*.d.ts'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  {
    rules: {
      'no-unused-vars': ['error', unusedVars],
      // a `let` that a closure reads before its one assignment stays a `let` (as const it would be in its TDZ)
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // a PDF parser and a terminal table match control bytes (NUL, ESC, C0) on purpose
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test's test()/describe()/it() return promises that the runner itself awaits
          allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] }],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', unusedVars],
      // `async` without `await` is how an implementation (of VS Code's interfaces, a fake, an API) returns a promise
      // and turns a throw into a rejection; it is not a bug
      '@typescript-eslint/require-await': 'off',
      // arrays in messages (page lists such as `[1,2,3]`) read as intended
      '@typescript-eslint/restrict-template-expressions': ['error', { allowArray: true }],
    },
  },
  {
    // the tests read JSON (CLI output, package.json, vsce/npm listings) as `any` and let assert check its shape
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    // mocha's TDD interface (suite/test) inside the VS Code extension host
    files: ['test/e2e/ext-tests/**/*.cjs'],
    languageOptions: { globals: { ...globals.mocha } },
  },
);
