import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '#machines/protocol/admin/common.js';
import {
  emailCatalogSchema,
  reminderSettingsSchema,
  reminderSettingsViewSchema,
  sentEmailSchema,
  testEmailResultSchema,
} from '#machines/protocol/admin/emails.js';
import { emailCatalog, sendTestEmail } from '#core/email/test-email.js';
import { reminderSettingsView, saveReminderSettings } from '#core/site/reminder-settings.js';
import { errorBodySchema } from '../../auth/schemas.js';
import type { RouteDeps } from '../../routes/deps.js';
import { contactEmails } from '../sent-emails.js';
import { guarded, guardedWithInput, notFound } from './responses.js';

const previewParamsSchema = z.object({ id: z.string().regex(/^[a-z_]{1,40}$/, 'Expected the name of an email, e.g. results.') });

/**
 * The admin's Emails (decision 0049): every email previewed from a sample, a test of any sent to
 * the signed-in admin, the reminders' timing and on/off, and a contact message's two emails.
 */
export function adminEmailRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/admin/emails',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every email the site sends, drawn for a sample lead by the templates the real sends use',
        response: { 200: emailCatalogSchema, ...guarded },
      },
    },
    async (request) => emailCatalog(deps.pool, deps.config, request.admin!.email),
  );

  api.post(
    '/api/admin/emails/:id/test',
    {
      schema: {
        tags: ['admin'],
        summary: "Send me a test: one email's sample to the signed-in admin's own address, through the outbox and its limit",
        params: previewParamsSchema,
        response: { 200: testEmailResultSchema, ...guardedWithInput },
      },
    },
    async (request) => {
      const sent = await sendTestEmail(deps.pool, deps.config, request.params.id, request.admin!.email);
      if (!sent) throw notFound('email', request.params.id);
      return sent;
    },
  );

  api.get(
    '/api/admin/reminder-settings',
    {
      schema: {
        tags: ['admin'],
        summary: "The follow-up reminders' on/off and delay (the server's defaults until saved)",
        response: { 200: reminderSettingsViewSchema, ...guarded },
      },
    },
    async () => reminderSettingsView(deps.pool, deps.config),
  );

  api.put(
    '/api/admin/reminder-settings',
    {
      schema: {
        tags: ['admin'],
        summary: 'Replace the reminder settings; every reminder timer set from now on uses them',
        body: reminderSettingsSchema,
        response: { 200: reminderSettingsViewSchema, 400: errorBodySchema, ...guarded },
      },
    },
    async (request) => saveReminderSettings(deps.pool, request.body, request.admin!.id, deps.config),
  );

  api.get(
    '/api/admin/contact/:id/emails',
    {
      schema: {
        tags: ['admin'],
        summary: "A contact message's emails: the visitor's confirmation and the coach's notification, as sent",
        params: idParamsSchema,
        response: { 200: z.array(sentEmailSchema), ...guardedWithInput },
      },
    },
    async (request) => {
      const emails = await contactEmails(deps.pool, request.params.id);
      if (!emails) throw notFound('contact message', request.params.id);
      return emails;
    },
  );
  done();
}
