import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin } from '../auth/guard.js';
import { errorBodySchema } from '../auth/schemas.js';
import {
  INTEGRATION_KEYS,
  IntegrationInputError,
  integrationSchema,
  integrationUpdateSchema,
  listIntegrations,
  rotateSigningSecret,
  saveIntegration,
} from '#core/integrations/settings.js';
import { outboundPolicy } from '#core/integrations/outbound.js';
import type { RouteDeps } from './deps.js';

const guarded = { 401: errorBodySchema, 403: errorBodySchema };

/**
 * The Integrations screen's settings, stored on the server. Secrets (the automation and chat
 * webhook URLs, the email-marketing API key) are write-only: read back masked, kept when a save
 * leaves the value out. Analytics is built in and cannot be changed.
 */
export function adminIntegrationRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const policy = outboundPolicy(deps.config);
  app.addHook('onRequest', requireAdmin(deps.pool));
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  api.get(
    '/api/admin/integrations',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every integration card: enabled, configured and its value (secrets masked)',
        response: { 200: z.object({ integrations: integrationSchema.array() }), ...guarded },
      },
    },
    async () => ({ integrations: await listIntegrations(deps.pool) }),
  );

  api.put(
    '/api/admin/integrations/:key',
    {
      schema: {
        tags: ['admin'],
        summary: 'Turn a card on or off and set its value (a blank value clears it; an omitted one keeps it)',
        params: z.object({ key: z.enum(INTEGRATION_KEYS) }),
        body: integrationUpdateSchema,
        response: { 200: integrationSchema, 400: errorBodySchema, ...guarded },
      },
    },
    async (request, reply) => {
      try {
        return await saveIntegration(deps.pool, request.params.key, request.body, request.admin!.id, policy);
      } catch (error) {
        if (!(error instanceof IntegrationInputError)) throw error;
        return reply.status(400).send({ statusCode: 400, error: 'Bad Request', message: error.message });
      }
    },
  );

  api.post(
    '/api/admin/integrations/automation/rotate-secret',
    {
      schema: {
        tags: ['admin'],
        summary: 'Replace the automation signing secret; the old one stops verifying at once',
        response: { 200: integrationSchema, 409: errorBodySchema, ...guarded },
      },
    },
    async (request, reply) => {
      const rotated = await rotateSigningSecret(deps.pool, request.admin!.id);
      if (rotated) return rotated;
      return reply
        .status(409)
        .send({ statusCode: 409, error: 'Conflict', message: 'Save a webhook URL first; its signing secret is made then.' });
    },
  );
  done();
}
