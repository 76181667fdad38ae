import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '#core/http-error.js';
import { errorBodySchema } from '../../auth/schemas.js';
import {
  INTEGRATION_KEYS,
  integrationSchema,
  integrationUpdateSchema,
  marketingTestSchema,
} from '#machines/protocol/admin/integrations.js';
import { BREVO_API_URL, checkAccount, MarketingApiError } from '#core/integrations/brevo.js';
import {
  IntegrationInputError,
  listIntegrations,
  marketingApiKey,
  rotateSigningSecret,
  saveIntegration,
} from '#core/integrations/settings.js';
import { outboundPolicy } from '#core/integrations/outbound.js';
import type { RouteDeps } from '../../routes/deps.js';
import { guarded } from './responses.js';

/**
 * The Integrations screen's settings, stored on the server. Secrets (the automation and chat
 * webhook URLs, the email-marketing API key) are write-only: read back masked, kept when a save
 * leaves the value out. Analytics is built in and cannot be changed.
 */
export function adminIntegrationRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const policy = outboundPolicy(deps.config);

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
    async (request) => {
      try {
        const saved = await saveIntegration(deps.pool, request.params.key, request.body, request.admin!.id, policy);
        // the booking page is among what visitors see: this server shows the save at once, the others hear the trigger
        deps.publicSettings.forget();
        return saved;
      } catch (error) {
        throw error instanceof IntegrationInputError ? new HttpError(400, error.message) : error;
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
    async (request) => {
      const rotated = await rotateSigningSecret(deps.pool, request.admin!.id);
      if (!rotated) throw new HttpError(409, 'Save a webhook URL first; its signing secret is made then.');
      return rotated;
    },
  );
  api.post(
    '/api/admin/integrations/email_marketing/test',
    {
      schema: {
        tags: ['admin'],
        summary: "Test the saved email-marketing API key: Brevo's account behind it answers, or why not",
        response: { 200: marketingTestSchema, 409: errorBodySchema, ...guarded },
      },
    },
    async () => {
      const apiKey = await marketingApiKey(deps.pool);
      if (!apiKey) throw new HttpError(409, 'Save an API key first.');
      try {
        await checkAccount({ baseUrl: deps.config.BREVO_API_URL ?? BREVO_API_URL, apiKey });
        return { ok: true, message: 'Connected: Brevo accepted the API key.' };
      } catch (error) {
        if (error instanceof MarketingApiError) return { ok: false, message: `Connection failed: ${error.message}` };
        throw error;
      }
    },
  );
  done();
}
