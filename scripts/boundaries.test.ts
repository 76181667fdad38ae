import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The import rules of docs/architecture.md, as ESLint applies them from eslint.config.js. Only
// no-restricted-imports runs here (no type information needed), on code that is never written to disk.
const eslint = new ESLint({
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
});

async function refused(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.message);
}

describe('the boundaries between the parts', () => {
  it.each([
    ['machines/grading/example.ts', "import { x } from '#core/logger.js';"],
    ['machines/grading/example.ts', "import { x } from 'node:crypto';"],
    ['machines/grading/example.ts', "import { x } from 'react';"],
    ['core/flows/example.ts', "import { x } from '#server/app.js';"],
    ['core/flows/example.ts', "import { x } from '#workers/build.js';"],
    ['workers/processors/example.ts', "import { x } from '#server/routes/flows.js';"],
    ['server/routes/example.ts', "import { x } from '#workers/build.js';"],
    ['server/routes/example.ts', "import { x } from '#web/main.js';"],
    ['web/src/features/example.tsx', "import { x } from '#core/queues/names.js';"],
    ['web/src/features/example.tsx', "import { x } from '#server/app.js';"],
    ['web/src/features/example.tsx', "import { x } from 'node:fs';"],
    ['server/routes/example.ts', "import { x } from '../../core/logger.js';"],
    ['web/src/features/assessment/steps/example.tsx', "import { x } from '../../../lib/flows/socket.js';"],
    // a feature never imports another
    ['web/src/features/admin/example.tsx', "import { x } from '../assessment/score-chart.js';"],
    ['web/src/features/standalone/diagnostic/example.tsx', "import { x } from '../../assessment/countdown.js';"],
    ['web/src/features/assessment/steps/example.tsx', "import { x } from '#web/features/admin/api.js';"],
    // SDKs the backend loads on first use (decision 0031)
    ['core/reports/example.ts', "import PDFDocument from 'pdfkit';"],
    ['server/routes/example.ts', "import OpenAI from 'openai';"],
    ['workers/processors/example.ts', "import PDFDocument from 'pdfkit';"],
    ['core/payments/example.ts', "import Stripe from 'stripe';"],
  ])('%s may not run %s', async (filePath, code) => {
    expect(await refused(filePath, code)).toHaveLength(1);
  });

  it.each([
    ['machines/grading/example.ts', "import { x } from '#machines/protocol/common.js';"],
    ['core/flows/example.ts', "import { x } from '#machines/index.js';"],
    ['server/routes/example.ts', "import { x } from '#core/flows/engine.js';"],
    ['workers/processors/example.ts', "import { x } from '#core/queues/outbox.js';"],
    ['web/src/features/example.tsx', "import { x } from '#machines/protocol/socket.js';"],
    ['server/routes/example.test.ts', "import { x } from '#workers/build.js';"],
    ['server/routes/example.ts', "import { x } from '../auth/guard.js';"],
    ['core/reports/example.ts', "import type PDFDocument from 'pdfkit';"],
    ['web/src/features/admin/example.tsx', "import { x } from '../../components/score-chart.js';"],
    ['web/src/features/assessment/steps/example.tsx', "import { x } from '../live/types.js';"],
    ['core/reports/example.test.ts', "import PDFDocument from 'pdfkit';"],
    ['core/payments/example.ts', "import type Stripe from 'stripe';"],
  ])('%s may run %s', async (filePath, code) => {
    expect(await refused(filePath, code)).toEqual([]);
  });
});
