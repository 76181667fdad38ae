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

/** The texts naming a field the form's rules refuse (the browser's own checks let some values through). */
export const CONTACT_FIELD_ERRORS: Record<Exclude<ContactField, 'company'>, string> = {
  name: 'Please enter your name',
  email: 'Please enter a valid email address',
  message: 'Please write a message',
};

/** The fields of `values` the form's rules refuse, each with its text; empty when it can be sent. */
export function contactFieldErrors(values: Record<ContactField, string>): Partial<Record<ContactField, string>> {
  const parsed = contactMessageSchema.safeParse(values);
  const found: Partial<Record<ContactField, string>> = {};
  if (parsed.success) return found;
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as ContactField;
    found[field] ??= field === 'company' ? 'Please keep this under 200 characters' : CONTACT_FIELD_ERRORS[field];
  }
  return found;
}

/**
 * How a contact form posted without JavaScript went (POST /contact, server/routes/contact-form.ts),
 * drawn by the server into the contact page: sent (the form empty), or not (the form as it was
 * sent, with the fields the rules refuse).
 */
export interface ContactFormOutcome {
  sent: boolean;
  values: Record<ContactField, string>;
  errors: Partial<Record<ContactField, string>>;
}
