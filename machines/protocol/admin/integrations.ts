import { z } from 'zod';
import { timestamp } from './common.js';

/** The integration cards, in the product's order; the integration_settings CHECK lists the same keys. */
export const INTEGRATION_KEYS = ['payments', 'scheduling', 'automation', 'email_marketing', 'team_chat', 'analytics'] as const;
export type IntegrationKey = (typeof INTEGRATION_KEYS)[number];

/** One card of GET /api/admin/integrations (and the answer of saving or rotating it). */
export const integrationSchema = z.object({
  key: z.enum(INTEGRATION_KEYS),
  enabled: z.boolean(),
  configured: z.boolean(),
  /** The value: in clear for the booking URL, masked (last 4 characters) for secrets, null when unset. */
  value: z.string().nullable(),
  secret: z.boolean(),
  /** Automation only: the secret its POSTs are signed with, once a URL is saved. */
  signingSecret: z.string().nullable(),
  /** Scheduling only: the Calendly or Cal.com webhook signing key, masked (write-only), null when unset. */
  webhookKey: z.string().nullable(),
  /** Email marketing only: the Brevo list confirmed leads are added to, null when unset. */
  listId: z.string().nullable(),
  /** Email marketing only: how the newest lead sync went (failed: its cause, for the coach), null before any. */
  lastSync: z.object({ at: timestamp, failed: z.boolean(), message: z.string().nullable() }).nullable(),
  updatedAt: timestamp.nullable(),
});
export type Integration = z.infer<typeof integrationSchema>;

export const integrationListSchema = z.object({ integrations: integrationSchema.array() });

/** PUT /api/admin/integrations/:key */
export const integrationUpdateSchema = z.strictObject({
  enabled: z.boolean().optional(),
  value: z.string().max(2000).optional(),
  /** Scheduling only: the provider's webhook signing key; blank clears it. */
  webhookKey: z
    .string()
    .trim()
    .refine((key) => key === '' || (key.length >= 16 && key.length <= 500), 'A signing key is 16 to 500 characters.')
    .optional(),
  /** Email marketing only: the Brevo list id (a number); blank clears it. */
  listId: z
    .string()
    .trim()
    .regex(/^([1-9][0-9]{0,9})?$/, 'A Brevo list id is a whole number, e.g. 7.')
    .optional(),
});
export type IntegrationUpdate = z.infer<typeof integrationUpdateSchema>;

/** POST /api/admin/integrations/email_marketing/test: whether the saved key opens the provider's account. */
export const marketingTestSchema = z.object({ ok: z.boolean(), message: z.string() });
