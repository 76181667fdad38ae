import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '#core/http-error.js';
import { ADAPTER_WAIT_MS, leadAssessmentSchema, sendHomework, sendHomeworkSchema, submitAssessment } from '../adapters/assessment.js';
import { rateLimits } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';

/** Parses the proxy's data with its action's schema, naming bad fields as data.x. */
function parseData<T extends z.ZodType>(schema: T, data: unknown): z.infer<T> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new z.ZodError(parsed.error.issues.map((issue) => ({ ...issue, path: ['data', ...issue.path] })));
}

const proxyBody = z.object({ action: z.string().min(1).max(60), data: z.record(z.string(), z.unknown()).default({}) });
const proxyQuery = z.object({ wait: z.enum(['0', '1']).default('0') });

/**
 * The product's workflow proxy at POST /api/functions/workflow-proxy (only lead-assessment and
 * send-homework; anything else is 'Unknown action: {name}'), and a 404 for a function name nobody
 * serves. Both actions are events on the caller's own assessment flow (server/adapters/assessment.ts):
 * the flow's jobs grade and email, so a lead id gives a stranger nothing (404). With ?wait=1 the
 * answer waits up to 30 s for the job, else it is 202 at once. The other named calls are static
 * routes registered by their own modules, which take precedence over the :name catch-all.
 */
export function functionRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/functions/workflow-proxy',
    {
      config: { rateLimit: rateLimits.homework },
      schema: {
        summary: "The workflow proxy: lead-assessment or send-homework, as events on the caller's own assessment",
        tags: ['functions'],
        body: proxyBody,
        querystring: proxyQuery,
      },
    },
    async (request, reply) => {
      const { action, data } = request.body;
      const waitMs = request.query.wait === '1' ? ADAPTER_WAIT_MS : 0;
      if (action === 'lead-assessment') {
        const assessment = parseData(leadAssessmentSchema, data);
        const { flow, answer } = await submitAssessment(deps, request.visitorId, assessment.leadId, assessment.survey, waitMs);
        return answer ? reply.send(answer) : reply.status(202).send({ flowId: flow.flowId, status: 'grading' });
      }
      if (action === 'send-homework') {
        const { flowId, outcome } = await sendHomework(deps, request.visitorId, parseData(sendHomeworkSchema, data), waitMs);
        // The maybe flow's send-homework failure is re-thrown to the caller
        if (outcome === 'failed') throw new HttpError(502, 'Failed to send homework. Please contact support.', { flowId });
        return reply.status(outcome === 'sent' ? 200 : 202).send({ flowId, status: outcome, success: outcome === 'sent' });
      }
      throw new HttpError(400, `Unknown action: ${action}`);
    },
  );

  api.post(
    '/api/functions/:name',
    { schema: { summary: 'Any other function name: 404', tags: ['functions'], params: z.object({ name: z.string().max(100) }) } },
    (request) => {
      throw new HttpError(404, `Unknown function: ${request.params.name}`);
    },
  );
  done();
}
