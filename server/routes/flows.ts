import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import { diagnosticScreens } from '../../machines/content/index.js';
import {
  flowConflictResponseSchema,
  flowEventBodySchemas,
  flowSnapshotResponseSchema,
  flowStartBodySchema,
  type FlowStartBody,
} from '../../machines/protocol/api.js';
import { initializeFromToken } from '../leads/token-session.js';
import { FlowConflictError } from '../flows/flow-store.js';
import type { RouteDeps } from './deps.js';

/** The ref value the community platform puts on its links (spec: "the community-platform marker"). */
export const COMMUNITY_REF = 'community';

const params = z.object({ id: z.uuid() });

async function inputFor(pool: pg.Pool, body: FlowStartBody): Promise<unknown> {
  switch (body.machine) {
    case 'assessmentFlow':
      return {
        mode: body.mode,
        testingMode: body.testing,
        token: body.token ? (await initializeFromToken(pool, body.token)).check : null,
        communityReferral: body.ref === COMMUNITY_REF,
        knownSession: body.knownSession,
      };
    case 'diagnostic':
      return { screens: diagnosticScreens };
    case 'mirror':
      return undefined;
  }
}

/** POST /api/flows, GET /api/flows/:id, POST /api/flows/:id/events: the server-authoritative flows. */
export async function flowRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/api/flows', { schema: { body: flowStartBodySchema, response: { 201: flowSnapshotResponseSchema } } }, async (request, reply) => {
    const body = request.body;
    const flow = await deps.engine.start(body.machine, await inputFor(deps.pool, body), { mode: body.mode, testing: body.testing });
    return reply.status(201).send(flow);
  });

  api.get('/api/flows/:id', { schema: { params, response: { 200: flowSnapshotResponseSchema } } }, async (request) =>
    deps.engine.get(request.params.id),
  );

  api.post(
    '/api/flows/:id/events',
    { schema: { params, body: z.object({ event: z.looseObject({ type: z.string().min(1).max(80) }), expectedVersion: z.number().int().min(0).optional() }), response: { 200: flowSnapshotResponseSchema, 409: flowConflictResponseSchema } } },
    async (request, reply) => {
      try {
        // the event schema depends on the flow's machine, known once the flow is locked
        return await deps.engine.apply(request.params.id, (machine) => flowEventBodySchemas[machine].parse(request.body), 'client');
      } catch (error) {
        if (!(error instanceof FlowConflictError)) throw error;
        return reply.status(409).send({ statusCode: 409, error: 'Conflict', message: error.message, flow: error.flow });
      }
    },
  );
}
