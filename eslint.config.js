// Lint for the whole tree: typescript-eslint's type-checked rules everywhere, React's hook rules and
// accessibility rules for the browser app, and the boundaries between the four parts.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const PARTS = ['machines', 'core', 'server', 'workers', 'web', 'test', 'scripts'];
/** The browser app's features (web/src/features/*), kept apart from each other. */
const FEATURES = ['admin', 'assessment', 'standalone'];
const climbs = [
  { regex: '^(\\.\\./){3,}', message: "Import through the part's alias (#machines/, #core/, #web/ ...) instead of climbing three levels." },
  {
    regex: `^(\\.\\./)+(${PARTS.join('|')})/`,
    message: 'Another part is imported through its alias (#machines/, #core/, #server/ ...), never by a relative path.',
  },
];
const only = (allowed, why) => ({
  regex: `^#(?!(${allowed.join('|')})/)`,
  message: why,
});

/** no-restricted-imports per part: what a part's own (non-test) modules may import. Tests may reach the harness. */
function boundaries() {
  const rule = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns: [...climbs, ...patterns] }] });
  // the backend's processes load these SDKs on first use, so one that never needs them never holds them (decision 0031)
  const loadedOnUse = ['pdfkit', 'openai', 'stripe'].map((name) => ({
    name,
    allowTypeImports: true,
    message: `${name} is loaded where it is used, with await import('${name}'), not at start (docs/decisions/0031).`,
  }));
  const backendRule = (...patterns) => ({
    'no-restricted-imports': ['error', { paths: loadedOnUse, patterns: [...climbs, ...patterns] }],
  });
  const tests = ['**/*.test.{ts,tsx}', '**/*.fixtures.ts'];
  const webOnly = only(['machines', 'web'], 'The browser app imports only web/ and machines/ (shared types live in machines/protocol).');
  const noNode = { group: ['node:*'], message: 'The browser app has no Node modules.' };
  return [
    { files: ['**/*.{ts,tsx,mjs}'], rules: rule() },
    {
      files: ['machines/**/*.ts'],
      ignores: tests,
      rules: rule(only(['machines'], 'machines/ is pure logic and imports nothing of the other parts.'), {
        group: ['node:*', 'react', 'react-dom', 'react-router-dom', 'pg', 'ioredis', 'bullmq', 'fastify'],
        message: 'machines/ is pure logic: no Node, DOM or framework modules.',
      }),
    },
    {
      files: ['core/**/*.ts'],
      ignores: tests,
      rules: backendRule(
        only(['machines', 'core'], 'The backend core (core/) serves the HTTP app and the workers; it imports only machines/ and itself.'),
      ),
    },
    {
      files: ['server/**/*.ts'],
      ignores: tests,
      rules: backendRule(
        only(['machines', 'core', 'server'], 'The HTTP app imports machines/ and the core, never the workers or the browser app.'),
      ),
    },
    {
      files: ['workers/**/*.ts'],
      ignores: tests,
      rules: backendRule(only(['machines', 'core', 'workers'], 'Workers run on the core (core/), never on the HTTP app (server/).')),
    },
    {
      files: ['web/src/**/*.{ts,tsx}'],
      ignores: tests,
      rules: rule(webOnly, noNode),
    },
    // a feature never imports another: what two share lives in web/src/components or web/src/lib
    ...FEATURES.map((feature) => {
      const others = FEATURES.filter((other) => other !== feature).join('|');
      return {
        files: [`web/src/features/${feature}/**/*.{ts,tsx}`],
        ignores: tests,
        rules: rule(webOnly, noNode, {
          regex: `^(\\.\\./)+(${others})/|^#web/features/(${others})/`,
          message: `A feature imports no other feature (${feature} here); move what both use into web/src/components or web/src/lib.`,
        }),
      };
    }),
  ];
}

/**
 * Fixed waits in tests: a test waits for what it expects (until() from test/until.ts, an event, a
 * hook, a ping's answer), never for a length of time, which is slow on an idle machine and flaky on
 * a busy one (docs/testing.md). A wait that nothing can replace is allowed with a disable comment
 * saying why: `// eslint-disable-next-line no-restricted-syntax -- <why nothing can be awaited>`.
 */
const FIXED_WAIT = 'A test waits for what it expects (until(), an event, a hook), not for a fixed time; see docs/testing.md.';
const fixedWaits = [
  // setTimeout(resolve, 300), setTimeout(check, 50), globalThis.setTimeout(...): anything but a 0 ms turn of the event loop
  { selector: "CallExpression[callee.name='setTimeout'][arguments.length>1]:not([arguments.1.value=0])", message: FIXED_WAIT },
  { selector: "CallExpression[callee.property.name='setTimeout'][arguments.length>1]:not([arguments.1.value=0])", message: FIXED_WAIT },
  { selector: 'ImportDeclaration[source.value=/^(node:)?timers.promises$/]', message: FIXED_WAIT },
  { selector: "CallExpression[callee.property.name='waitForTimeout']", message: FIXED_WAIT },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-next/**',
      'web/dist/**',
      'web/dist-ssr/**',
      '.data/**',
      'node_modules/**',
      'docs/**',
      '.dependency-cruiser.cjs',
    ],
  },
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
  // The boundaries between the parts (docs/architecture.md). Each part is imported through its alias
  // (package.json "imports"); a relative path may not climb into another part, nor more than two levels.
  ...boundaries(),
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
    files: ['**/*.test.{ts,tsx}', 'test/**', 'web/e2e/**'],
    // the one poll interval: every other wait in a test goes through until()
    ignores: ['test/until.ts'],
    rules: { 'no-restricted-syntax': ['error', ...fixedWaits] },
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
