import { z } from 'zod';
import { emailSchema, hasText } from './common.js';

/** The contact form's fields. */
const contactFieldSchema = z.enum(['name', 'email', 'company', 'message']);
/** One contact form field. */
export type ContactField = z.infer<typeof contactFieldSchema>;

/** A sendable contact message: the send-contact-email body. */
export const contactMessageSchema = z.object({
  name: z.string().trim().min(1).max(200),
  email: emailSchema,
  company: z.string().trim().max(200),
  message: z.string().max(10_000).refine(hasText, 'Message is required'),
});
/** A sendable contact message. */
export type ContactMessage = z.infer<typeof contactMessageSchema>;

/** Every event the contact form machine accepts. */
export const contactFormEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('EDIT'), field: contactFieldSchema, value: z.string().max(10_000) }),
  z.object({ type: z.literal('SUBMIT') }),
]);
/** An event of the contact form machine. */
export type ContactFormEvent = z.infer<typeof contactFormEventSchema>;
