import { z } from 'zod';

/** Sign-in failure texts, copied exactly. */
export const SIGN_IN_MESSAGES = {
  invalidCredentials: 'Invalid email or password. Please try again.',
  shortPassword: 'Password should be at least 6 characters long.',
} as const;

/** The app's error body (server/plugins/error-handler.ts), for response schemas and the OpenAPI document. */
export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});

const sessionUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role: z.literal('admin'),
  /** A generated first password: the admin area stays closed until it is changed. */
  mustChangePassword: z.boolean(),
});

/** The shortest password an admin may choose (a generated one is 20 characters). */
const MIN_NEW_PASSWORD_LENGTH = 12;

export const CHANGE_PASSWORD_MESSAGES = {
  wrongCurrent: 'Your current password is not correct.',
  tooShort: `Please choose a password of at least ${MIN_NEW_PASSWORD_LENGTH} characters.`,
  unchanged: 'Please choose a password different from the current one.',
} as const;

export const changePasswordBodySchema = z
  .object({
    currentPassword: z
      .string({ error: 'Please enter your current password.' })
      .min(1, 'Please enter your current password.')
      .max(1024, 'Password is too long.'),
    newPassword: z
      .string({ error: 'Please choose a new password.' })
      .min(MIN_NEW_PASSWORD_LENGTH, CHANGE_PASSWORD_MESSAGES.tooShort)
      .max(1024, 'Password is too long.'),
  })
  .refine((body) => body.newPassword !== body.currentPassword, { path: ['newPassword'], message: CHANGE_PASSWORD_MESSAGES.unchanged });

export const signInBodySchema = z.object({
  // the HTML email rule (what the sign-in form's type=email accepts), so admin@localhost works
  email: z
    .string({ error: 'Please enter your email address.' })
    .trim()
    .toLowerCase()
    .max(320, 'Please enter a valid email address')
    .regex(z.regexes.html5Email, 'Please enter a valid email address'),
  password: z
    .string({ error: 'Please enter your password.' })
    .min(6, SIGN_IN_MESSAGES.shortPassword)
    // scrypt cost grows with input; nobody's password is this long
    .max(1024, 'Password is too long.'),
});

export const signedInSchema = z.object({ user: sessionUserSchema, csrfToken: z.string() });

export const sessionResponseSchema = z.union([signedInSchema, z.object({ user: z.null() })]);
