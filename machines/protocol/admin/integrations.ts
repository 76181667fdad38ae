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
});
export type IntegrationUpdate = z.infer<typeof integrationUpdateSchema>;
