import { defineConfig } from 'vitest/config';

// Three projects, one `vitest run`: unit tests need nothing; integration and browser tests each
// get their own database and BullMQ prefix from test/global-setup.ts.
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{machines,core,server,workers,web,scripts}/**/*.test.{ts,tsx}'],
          exclude: ['**/node_modules/**', '**/*.int.test.ts', '**/*.e2e.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['{machines,core,server,workers,web,scripts}/**/*.int.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['web/e2e/**/*.e2e.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // one browser at a time: two cores
          fileParallelism: false,
        },
      },
    ],
  },
});
