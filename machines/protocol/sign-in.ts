import { z } from 'zod';

/** The shortest password sign-in accepts. */
export const MIN_PASSWORD_LENGTH = 6;

/** What the sign-in form submits: email required and email-shaped, password at least 6 characters. */
export const credentialsSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1)
    .max(320)
    .regex(/^[^\s@]+@[^\s@]+$/),
  password: z.string().min(MIN_PASSWORD_LENGTH).max(1000),
});
/** Sign-in credentials. */
export type Credentials = z.infer<typeof credentialsSchema>;

/** Every event the sign-in machine accepts. */
export const signInEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('SUBMIT'), email: z.string().max(320), password: z.string().max(1000) }),
  z.object({ type: z.literal('EDIT') }),
]);
/** An event of the sign-in machine. */
export type SignInEvent = z.infer<typeof signInEventSchema>;
