import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contactMessageSchema } from '#machines/protocol/contact-form.js';
import { storeContactSubmission } from '#core/contact/submissions.js';
import { coachAddress } from '#core/email/coach.js';
import { queueEmail } from '#core/email/outbox.js';
import { contactConfirmation, contactNotification } from '#core/email/templates.js';
import { readSiteSettings } from '#core/site/settings.js';
import { inTransaction } from '#core/db/transaction.js';
import { captureGate } from '../plugins/capture-limit.js';
import { rateLimits } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';

/** The contact form's message (the form's own schema), with company optional for other callers. */
const bodySchema = contactMessageSchema.extend({
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
        body: bodySchema,
        response: { 200: z.object({ ok: z.literal(true), id: z.uuid() }) },
      },
    },
    async (request) => {
      const { name, email, message } = request.body;
      const company = request.body.company || null;
      // The submission and both emails commit together: a stored message always has its emails queued.
      const id = await inTransaction(deps.pool, async (client) => {
        const { id, receivedAt } = await storeContactSubmission(client, { name, email, company, message });
        const contact = { id, name, email, company, message, receivedAt };
        const coach = await coachAddress(client, deps.config);
        const site = await readSiteSettings(client);
        await queueEmail(client, {
          kind: 'contact_confirmation',
          to: email,
          replyTo: coach,
          contactId: id,
          ...contactConfirmation(contact, deps.config.publicUrl, site),
        });
        await queueEmail(client, {
          kind: 'contact_notification',
          to: coach,
          replyTo: email,
          contactId: id,
          ...contactNotification(contact),
        });
        return id;
      });
      return { ok: true as const, id };
    },
  );
  done();
}
