import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { Notice } from '../protocol/common.js';
import { credentialsSchema, type Credentials, type SignInEvent } from '../protocol/sign-in.js';

/** The toast shown after a successful sign-in. */
export const signInSuccessNotice: Notice = { title: null, description: 'Welcome back!' };

/** The title of every sign-in failure toast. */
export const SIGN_IN_ERROR_TITLE = 'Authentication Error';

const errorMessages = {
  invalid_credentials: 'Invalid email or password. Please try again.',
  user_already_exists: 'An account with this email already exists. Try logging in instead.',
  weak_password: 'Password should be at least 6 characters long.',
  other: 'An error occurred during authentication.',
} as const;

/**
 * The product's sign-in error text for a failure. Reads a typed `code` first and falls back to the
 * provider's wording, because auth providers differ in which of the two they give.
 */
export function signInErrorMessage(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  if (code === 'invalid_credentials' || /invalid (login credentials|email or password)/i.test(message)) {
    return errorMessages.invalid_credentials;
  }
  if (code === 'user_already_exists' || /already (registered|exists)/i.test(message)) {
    return errorMessages.user_already_exists;
  }
  if (code === 'weak_password' || /at least 6 characters/i.test(message)) return errorMessages.weak_password;
  return errorMessages.other;
}

/** Who is signed in, as far as the sign-in page cares. */
export interface SignedInUser {
  email: string;
}

/** What the sign-in machine holds: the last failure's message. */
export interface SignInContext {
  error: string | null;
}

/**
 * The sign-in page: an existing session redirects at once; otherwise idle -> submitting ->
 * redirect or error. The web provides `getSession` and `signIn`; the defaults
 * find no session and refuse to sign in.
 */
export const signInMachine = setup({
  types: {
    context: {} as SignInContext,
    events: {} as SignInEvent,
  },
  actors: {
    getSession: fromPromise<SignedInUser | null>(() => Promise.resolve(null)),
    signIn: fromPromise<SignedInUser, Credentials>(() => Promise.reject(new Error('signIn is not provided'))),
  },
  guards: {
    hasValidCredentials: ({ event }) => credentialsSchema.safeParse(event).success,
  },
}).createMachine({
  id: 'signIn',
  context: { error: null },
  initial: 'checkingSession',
  states: {
    checkingSession: {
      invoke: {
        src: 'getSession',
        onDone: [
          {
            // A named function, because done events cannot be typed in setup's guards and the
            // generated diagram labels a guard by its name.
            guard: function hasSession({ event }) {
              return event.output !== null;
            },
            target: 'redirect',
          },
          { target: 'idle' },
        ],
        onError: { target: 'idle' },
      },
    },
    idle: {
      on: { SUBMIT: { guard: 'hasValidCredentials', target: 'submitting' } },
    },
    submitting: {
      entry: assign({ error: null }),
      invoke: {
        src: 'signIn',
        // The password goes from the event to the provider and is never copied into context.
        input: ({ event }) => {
          assertEvent(event, 'SUBMIT');
          return credentialsSchema.parse(event);
        },
        onDone: { target: 'redirect' },
        onError: { target: 'error', actions: assign({ error: ({ event }) => signInErrorMessage(event.error) }) },
      },
    },
    error: {
      on: {
        SUBMIT: { guard: 'hasValidCredentials', target: 'submitting' },
        EDIT: { target: 'idle', actions: assign({ error: null }) },
      },
    },
    redirect: { type: 'final' },
  },
});
