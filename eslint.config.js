// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'docs/api/**', '**/test/fixtures/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Results are handled, not unwrapped, outside tests: an unwrap throws the error a caller was meant to see.
    files: ['packages/*/src/**/*.ts', 'bench/**/*.mjs', 'stress/**/*.mjs', 'examples/**/*.ts'],
    ignores: ['**/*.test.ts', 'packages/*/src/testing/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { property: '_unsafeUnwrap', message: 'Handle the Result (isErr / match) instead of unwrapping it.' },
        { property: '_unsafeUnwrapErr', message: 'Handle the Result (isErr / match) instead of unwrapping it.' },
      ],
    },
  },
  {
    // The main entry of every package is pure: I/O lives in adapter subpaths.
    files: ['packages/*/src/**/*.ts'],
    ignores: [
      'packages/*/src/node/**',
      'packages/*/src/github/**',
      'packages/cli/**',
      'packages/*/src/**/*.test.ts',
      'packages/*/src/testing/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'date-fns',
              message:
                'Import one function from its subpath (date-fns/format): Node loads the whole barrel, ~250 modules, +14 MiB RSS in every cycle.',
            },
          ],
          patterns: [
            {
              group: [
                'node:fs',
                'node:fs/*',
                'fs',
                'node:child_process',
                'child_process',
                'execa',
                'node:net',
                'node:http',
                'node:https',
                'node:timers',
                'node:timers/*',
              ],
              message: 'Pure module: do I/O through a port in an adapter subpath.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'Pure module: pass configuration in, do not read process.' },
        { name: 'setTimeout', message: 'Pure module: use the Sleep port.' },
        { name: 'setInterval', message: 'Pure module: use the Sleep port.' },
      ],
      // Repeats the unwrap ban above: a later block's options replace an earlier block's for the same rule.
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Pure module: use the Clock port.' },
        { property: '_unsafeUnwrap', message: 'Handle the Result (isErr / match) instead of unwrapping it.' },
        { property: '_unsafeUnwrapErr', message: 'Handle the Result (isErr / match) instead of unwrapping it.' },
      ],
    },
  },
  {
    // Package entries name every export, so the public surface is a reviewed list (api-reports/ records it):
    // `export *` would publish every helper a module exports for its neighbours.
    files: ['packages/*/src/index.ts', 'packages/*/src/{node,testing,tokenizer,github}/index.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportAllDeclaration',
          message:
            'Package entry: name each export (export { a, type B } from …); export * would make every helper of the module public API.',
        },
      ],
    },
  },
  {
    // Plain JS scripts (benchmarks, generators, fake executables) run on Node without type information.
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { project: false, projectService: false, program: null },
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setImmediate: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        fetch: 'readonly',
        structuredClone: 'readonly',
        performance: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        require: 'readonly',
        __dirname: 'readonly',
        module: 'writable',
      },
    },
  },
  {
    // Files stay small and named by what they do: a source file over 400 lines holds two things.
    // Import circles are checked by scripts/check-cycles.mjs (part of `pnpm lint`).
    files: ['packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    // A function over 80 lines (blank lines and comments not counted) does several things: name them.
    files: ['packages/*/src/**/*.ts'],
    // Tests and the port contract suites (a suite is one describe block of tests, exported for adapters).
    ignores: ['**/*.test.ts', 'packages/*/src/testing/contracts/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['**/*.test.ts', 'packages/*/test/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
