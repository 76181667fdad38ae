import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contactMessageSchema } from '#machines/protocol/contact-form.js';
import { acceptContactMessage } from '#core/contact/accept-message.js';
import { captureGate } from '../plugins/capture-limit.js';
import { rateLimits } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';

/** The contact form's message (the form's own schema), with company optional for other callers. */
export const contactBodySchema = contactMessageSchema.extend({
  company: z.string().trim().max(200).optional(),
  message: z.string().trim().min(1, 'Message is required').max(10_000),
});

/** POST /api/functions/send-contact-email: the send-contact-email function. */
export function contactRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/functions/send-contact-email',
    {
      config: { rateLimit: rateLimits.contact },
      // the address typed here is stored and mailed: it counts as a capture (decision 0045)
      preHandler: captureGate(deps),
      schema: {
        summary: 'send-contact-email: store a contact message and queue its confirmation and the coach notification',
        tags: ['contact'],
        body: contactBodySchema,
        response: { 200: z.object({ ok: z.literal(true), id: z.uuid() }) },
      },
    },
    async (request) => {
      const { name, email, message } = request.body;
      const id = await acceptContactMessage(deps.pool, deps.config, { name, email, company: request.body.company || null, message });
      return { ok: true as const, id };
    },
  );
  done();
}
