import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  applyBodySchema,
  applyResultSchema,
  dryRunBodySchema,
  gradingViewSchema,
  regradeReportSchema,
} from '#machines/protocol/admin/grading.js';
import { applyRules, dryRun, undoLastApplication } from '#core/grading/regrade.js';
import { gradingView } from '#core/grading/rule-sets.js';
import { errorBodySchema } from '../../auth/schemas.js';
import type { RouteDeps } from '../../routes/deps.js';
import { guarded } from './responses.js';

/**
 * The admin's grading rules: the set in force and its history, a dry run of a proposed set over a
 * scope of past leads (changes nothing), applying a set over the same scope (new versioned results
 * beside the old), and undo (applying the previous set again over the leads the last one re-graded).
 */
export function gradingRoutes(app: FastifyInstance, deps: Pick<RouteDeps, 'pool'>, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/admin/grading',
    {
      schema: {
        tags: ['admin'],
        summary: 'The grading rules in force, every application of a rule set and what an undo would restore',
        response: { 200: gradingViewSchema, ...guarded },
      },
    },
    async () => gradingView(deps.pool),
  );

  api.post(
    '/api/admin/grading/dry-run',
    {
      schema: {
        tags: ['admin'],
        summary: 'What a proposed rule set would do to the past leads in scope: tier moves with counts; nothing is stored',
        body: dryRunBodySchema,
        response: { 200: regradeReportSchema, 400: errorBodySchema, ...guarded },
      },
    },
    async (request) => dryRun(deps.pool, request.body.rules, request.body.scope),
  );

  api.post(
    '/api/admin/grading/apply',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Put a rule set in force: re-grade the leads in scope (as the dry run counted them) into new versioned results, and grade new assessments under it',
        body: applyBodySchema,
        response: { 200: applyResultSchema, 400: errorBodySchema, ...guarded },
      },
    },
    async (request) => applyRules(deps.pool, request.body.rules, request.body.scope, request.admin!.id, request.body.note),
  );

  api.post(
    '/api/admin/grading/undo',
    {
      schema: {
        tags: ['admin'],
        summary: 'Apply again the rule set in force before the latest application, over the leads it re-graded',
        response: { 200: applyResultSchema, 409: errorBodySchema, ...guarded },
      },
    },
    async (request) => undoLastApplication(deps.pool, request.admin!.id),
  );
  done();
}
