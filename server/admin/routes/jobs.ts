import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#machines/protocol/admin/common.js';
import {
  adminJobSchema,
  jobsPageSchema,
  jobsQuerySchema,
  jobsSummarySchema,
  retryFailedBodySchema,
  retryFailedResultSchema,
} from '#machines/protocol/admin/jobs.js';
import { machinesSchema } from '#machines/protocol/admin/machines.js';
import { HttpError } from '#core/http-error.js';
import { errorBodySchema } from '../../auth/schemas.js';
import type { RouteDeps } from '../../routes/deps.js';
import { jobsSummary, listJobs, removeJob, retryFailedJobs, retryJob } from '../jobs.js';
import { machinesOverview } from '../machines.js';
import { guarded, notFound } from './responses.js';

/** Ops: the job queues (counts, rows, retry, retry all failed, remove) and the flow machines with their live state counts. */
export function adminJobRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { queues } = deps;

  api.get(
    '/api/admin/jobs/summary',
    {
      schema: {
        tags: ['admin'],
        summary: "Jobs per queue and status from the outbox, with BullMQ's live counts (redis: 'down' when Redis does not answer)",
        response: { 200: jobsSummarySchema, ...guarded },
      },
    },
    () => jobsSummary(deps.pool, queues),
  );

  api.get(
    '/api/admin/jobs',
    {
      schema: {
        tags: ['admin'],
        summary: 'Job rows, newest first, filtered by queue and status, 25 per page',
        querystring: jobsQuerySchema,
        response: { 200: jobsPageSchema, 400: errorBodySchema, ...guarded },
      },
    },
    (request) => listJobs(deps.pool, request.query),
  );

  // retrying or removing one job: the job as it stands now, or why not (gone, running, Redis away)
  const jobActionResponses = {
    200: adminJobSchema,
    400: errorBodySchema,
    404: errorBodySchema,
    409: errorBodySchema,
    503: errorBodySchema,
    ...guarded,
  };

  api.post(
    '/api/admin/jobs/:id/retry',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Run a failed job again, once: its attempts reset and it goes back through the outbox (409 unless failed, or unfinished with its BullMQ job failed or gone)',
        params: idParamsSchema,
        response: jobActionResponses,
      },
    },
    async (request) => {
      const outcome = await retryJob(deps.pool, queues, request.params.id);
      if ('missing' in outcome) throw notFound('job', request.params.id);
      if ('notFailed' in outcome) {
        throw new HttpError(409, `Only a failed job can be retried; this one is ${outcome.notFailed}, and still on its way`);
      }
      if ('redisDown' in outcome) throw new HttpError(503, 'The job queue is not reachable; the job stays failed. Try again shortly.');
      return outcome.job;
    },
  );

  api.post(
    '/api/admin/jobs/retry-failed',
    {
      schema: {
        tags: ['admin'],
        summary: 'Run every failed job again (of one queue with { queue }, else of all), as the single retry does; answers how many',
        body: retryFailedBodySchema,
        response: { 200: retryFailedResultSchema, 400: errorBodySchema, 503: errorBodySchema, ...guarded },
      },
    },
    async (request) => {
      const outcome = await retryFailedJobs(deps.pool, queues, request.body?.queue);
      if ('redisDown' in outcome) {
        throw new HttpError(
          503,
          `The job queue is not reachable: ${outcome.retried ? `${outcome.retried} retried, the rest` : 'the jobs'} stay failed. Try again shortly.`,
        );
      }
      return outcome;
    },
  );

  api.delete(
    '/api/admin/jobs/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Remove a job for good: from BullMQ and its row from the jobs table (409 while it runs)',
        params: idParamsSchema,
        response: jobActionResponses,
      },
    },
    async (request) => {
      const outcome = await removeJob(deps.pool, queues, request.params.id);
      if ('missing' in outcome) throw notFound('job', request.params.id);
      if ('running' in outcome) {
        throw new HttpError(409, 'This job is running now and cannot be removed; wait for it to finish or fail, then remove it.');
      }
      if ('redisDown' in outcome) throw new HttpError(503, 'The job queue is not reachable; the job was not removed. Try again shortly.');
      return outcome.removed;
    },
  );

  api.get(
    '/api/admin/machines',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Each flow machine: its states and transitions from the definition, the flows now in each state, events per minute over the last hour',
        response: { 200: machinesSchema, ...guarded },
      },
    },
    () => machinesOverview(deps.pool),
  );
  done();
}
