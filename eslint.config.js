// Lint for the whole tree: typescript-eslint's type-checked rules everywhere, React's hook rules and
// accessibility rules for the browser app, and the boundaries between the four parts.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'web/dist/**', '.data/**', 'node_modules/**', 'docs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    // `const { dropped, ...rest } = x` is how an object loses a key; the dropped name is not dead code
    rules: { '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }] },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    files: ['web/src/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  // The boundaries between the parts (docs/architecture.md): machines/ is pure logic shared by browser
  // and server; the browser app never reaches the server's code; workers use the server's library
  // modules but never the HTTP app.
  {
    files: ['machines/**/*.ts'],
    ignores: ['machines/**/*.test.ts', 'machines/**/*.fixtures.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/web/**', '**/workers/**', '**/scripts/**', '**/test/**'],
              message: 'machines/ imports nothing of the other parts.',
            },
            {
              group: ['node:*', 'react', 'react-dom', 'react-router-dom', 'pg', 'ioredis', 'bullmq', 'fastify'],
              message: 'machines/ is pure logic: no Node, DOM or framework modules.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/workers/**', '**/scripts/**', '**/test/**'],
              message: 'The browser app imports only web/ and machines/ (shared types live in machines/protocol).',
            },
            { group: ['node:*'], message: 'The browser app has no Node modules.' },
          ],
        },
      ],
    },
  },
  {
    files: ['workers/**/*.ts'],
    ignores: ['workers/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/app*', '**/server/main*', '**/server/routes/**', '**/server/plugins/**', '**/web/**'],
              message: 'Workers use the backend library modules, never the HTTP app or the browser app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['server/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/workers/**', '**/web/src/**'], message: 'The server never imports the worker or the browser app.' }] },
      ],
    },
  },
  {
    // Tests read untyped JSON from real HTTP answers and assert on it; typing every body would add
    // nothing the assertions do not already check.
    files: ['**/*.test.{ts,tsx}', 'test/**', 'web/e2e/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
  },
);
