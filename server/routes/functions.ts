import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assessmentResponse, leadAssessmentSchema, queueLeadAssessment, waitForJob } from '../leads/grading-requests.js';
import { insertJob } from '../queues/outbox.js';
import { flowResultSchema, homeworkSourceSchema } from '../../machines/protocol/assessment-flow.js';
import type { RouteDeps } from './deps.js';

/** The longest the proxy waits for a job with ?wait=1 (spec section 7: a 30 s timeout). */
const PROXY_WAIT_MS = 30_000;

const sendHomeworkSchema = z.object({
  leadId: z.uuid().nullish(),
  email: z.email().max(320),
  name: z.string().max(200).nullish(),
  sendHomework: z.boolean(),
  source: homeworkSourceSchema,
  diagnosticData: flowResultSchema.nullish(),
});

/** Parses the proxy's data with its action's schema, naming bad fields as data.x. */
function parseData<T extends z.ZodType>(schema: T, data: unknown): z.infer<T> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new z.ZodError(parsed.error.issues.map((issue) => ({ ...issue, path: ['data', ...issue.path] })));
}

const proxyBody = z.object({ action: z.string().min(1).max(60), data: z.record(z.string(), z.unknown()).default({}) });
const proxyQuery = z.object({ wait: z.enum(['0', '1']).default('0') });

/**
 * The spec's workflow proxy at POST /api/functions/workflow-proxy (only lead-assessment and
 * send-homework; anything else is 'Unknown action: {name}'), and a 404 for a function name nobody
 * serves. The other named calls are static routes registered by their own modules, which take
 * precedence over the :name catch-all.
 */
export async function functionRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/functions/workflow-proxy',
    { schema: { summary: 'The workflow proxy: lead-assessment or send-homework as jobs', tags: ['functions'], body: proxyBody, querystring: proxyQuery } },
    async (request, reply) => {
      const { action, data } = request.body;
      if (action === 'lead-assessment') {
        const jobId = await queueLeadAssessment(deps.pool, parseData(leadAssessmentSchema, data));
        if (request.query.wait === '0') return reply.status(202).send({ jobId, status: 'queued' });
        const outcome = await waitForJob(deps.pool, jobId, PROXY_WAIT_MS);
        if (outcome.status === 'failed') {
          return reply.status(502).send({ statusCode: 502, error: 'Bad Gateway', message: 'Grading failed; the result was not stored.', jobId });
        }
        const result = outcome.status === 'completed' ? await assessmentResponse(deps.pool, jobId) : null;
        return result ? reply.send({ jobId, ...result }) : reply.status(202).send({ jobId, status: outcome.status });
      }
      if (action === 'send-homework') {
        const homework = parseData(sendHomeworkSchema, data);
        const jobId = await insertJob(deps.pool, {
          queue: 'homework',
          name: 'send-homework',
          payload: { flowId: null, request: { ...homework, leadId: homework.leadId ?? null, name: homework.name ?? null, diagnosticData: homework.diagnosticData ?? null } },
          leadId: homework.leadId ?? null,
        });
        if (request.query.wait === '0') return reply.status(202).send({ jobId, status: 'queued' });
        const outcome = await waitForJob(deps.pool, jobId, PROXY_WAIT_MS);
        if (outcome.status === 'failed') {
          // spec section 8: the maybe flow's send-homework failure is re-thrown to the caller
          return reply.status(502).send({ statusCode: 502, error: 'Bad Gateway', message: 'Failed to send homework. Please contact support.', jobId });
        }
        return reply.status(outcome.status === 'completed' ? 200 : 202).send({ jobId, status: outcome.status, success: outcome.status === 'completed' });
      }
      return reply.status(400).send({ statusCode: 400, error: 'Bad Request', message: `Unknown action: ${action}` });
    },
  );

  api.post(
    '/api/functions/:name',
    { schema: { summary: 'Any other function name: 404', tags: ['functions'], params: z.object({ name: z.string().max(100) }) } },
    async (request, reply) =>
      reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `Unknown function: ${request.params.name}` }),
  );
}
