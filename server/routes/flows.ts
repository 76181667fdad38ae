import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EXPECTED_VERSION_HEADER,
  bookingReferenceResponseSchema,
  flowConflictResponseSchema,
  flowEventBodySchemas,
  flowSnapshotResponseSchema,
  flowStartBodySchema,
} from '#machines/protocol/api.js';
import { completedPathOf } from '#machines/protocol/snapshots.js';
import { FlowConflictError } from '#core/flows/flow-store.js';
import { bookingReferenceFor } from '#core/scheduling/booking-references.js';
import { HttpError } from '#core/http-error.js';
import { captureGate, isCaptureEvent } from '../plugins/capture-limit.js';
import { rateLimits } from '../plugins/security.js';
import { startVisitorFlow } from '../visitors/start-flow.js';
import type { RouteDeps } from './deps.js';

const params = z.object({ id: z.uuid() });

/**
 * The version a flow event is to apply at: the body's `expectedVersion`, or the header a proxy
 * resends a request by (EXPECTED_VERSION_HEADER); a request carrying both has them equal.
 */
function expectedVersionOf(header: string | string[] | undefined, body: number | undefined): number | undefined {
  if (header === undefined) return body;
  const value = Array.isArray(header) || !/^\d{1,9}$/.test(header) ? NaN : Number(header);
  if (Number.isNaN(value))
    throw new HttpError(400, `${EXPECTED_VERSION_HEADER} must be a whole number.`, {
      fields: { [EXPECTED_VERSION_HEADER]: 'a whole number' },
    });
  if (body !== undefined && body !== value)
    throw new HttpError(400, `expectedVersion and ${EXPECTED_VERSION_HEADER} differ.`, {
      fields: { expectedVersion: `equal to ${EXPECTED_VERSION_HEADER}` },
    });
  return value;
}
const eventBody = z.object({
  event: z.looseObject({ type: z.string().min(1).max(80) }),
  expectedVersion: z.number().int().min(0).optional(),
});

/**
 * POST /api/flows, GET /api/flows/:id, POST /api/flows/:id/events: the server-authoritative flows,
 * each its visitor's own; GET /api/flows/:id/booking-reference: the reference its booking link carries.
 */
export function flowRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // a capture or email-capture event counts against the client's one capture limit, as POST /api/leads does (decision 0045)
  const captureEvents = captureGate(deps, (request) => isCaptureEvent((request.body as z.infer<typeof eventBody>).event));

  api.post(
    '/api/flows',
    { config: { rateLimit: rateLimits.flowStarts }, schema: { body: flowStartBodySchema, response: { 201: flowSnapshotResponseSchema } } },
    async (request, reply) => {
      const flow = await startVisitorFlow(deps, request, reply, request.body, undefined, { welcomeBack: true });
      return reply.status(201).send(flow);
    },
  );

  api.get('/api/flows/:id', { schema: { params, response: { 200: flowSnapshotResponseSchema } } }, async (request) =>
    deps.engine.get(request.params.id, { visitorId: request.visitorId }),
  );

  api.get(
    '/api/flows/:id/booking-reference',
    { schema: { params, response: { 200: bookingReferenceResponseSchema } } },
    async (request) => {
      const flow = await deps.engine.get(request.params.id, { visitorId: request.visitorId });
      // issued to the visitor whose deposit is paid, for the link to book with (a stranger had the flows' 404 above)
      if (completedPathOf(flow.snapshot)?.kind !== 'deposit_paid')
        throw new HttpError(404, 'This flow has no paid deposit to book a session for.');
      return { reference: await bookingReferenceFor(deps.pool, flow.flowId) };
    },
  );

  api.post(
    '/api/flows/:id/events',
    {
      config: { rateLimit: rateLimits.flowEvents },
      preHandler: captureEvents,
      schema: {
        params,
        body: eventBody,
        response: { 200: flowSnapshotResponseSchema, 409: flowConflictResponseSchema },
      },
    },
    async (request) => {
      try {
        const expectedVersion = expectedVersionOf(request.headers[EXPECTED_VERSION_HEADER], request.body.expectedVersion);
        // the event schema depends on the flow's machine, known once the flow is locked
        return await deps.engine.apply(
          request.params.id,
          (machine) => ({ ...flowEventBodySchemas[machine].parse(request.body), expectedVersion }),
          'client',
          { visitorId: request.visitorId },
        );
      } catch (error) {
        // a refused event answers with the flow as it stands, for the browser to adopt
        throw error instanceof FlowConflictError ? new HttpError(409, error.message, { flow: error.flow }) : error;
      }
    },
  );
  done();
}
