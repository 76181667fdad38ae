import { createActor, fromPromise, waitFor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { canAccept } from '../protocol/can-accept.js';
import { signInEventSchema, type Credentials } from '../protocol/sign-in.js';
import { signInErrorMessage, signInMachine, type SignedInUser } from './sign-in.machine.js';

function start(options: { session?: SignedInUser | null; signIn?: (c: Credentials) => Promise<SignedInUser> }) {
  const attempts: Credentials[] = [];
  const actor = createActor(
    signInMachine.provide({
      actors: {
        getSession: fromPromise<SignedInUser | null>(() => Promise.resolve(options.session ?? null)),
        signIn: fromPromise<SignedInUser, Credentials>(({ input }) => {
          attempts.push(input);
          return (options.signIn ?? ((c) => Promise.resolve({ email: c.email })))(input);
        }),
      },
    }),
  ).start();
  return { actor, attempts };
}

const submit = { type: 'SUBMIT', email: 'admin@example.com', password: 'secret1' } as const;

describe('signIn', () => {
  it('redirects at once when a session already exists', async () => {
    const { actor } = start({ session: { email: 'admin@example.com' } });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('redirect');
  });

  it('goes idle -> submitting -> redirect with valid credentials', async () => {
    const { actor, attempts } = start({});
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send(submit);
    expect(actor.getSnapshot().value).toBe('submitting');
    await waitFor(actor, (s) => s.matches('redirect'));
    expect(attempts).toEqual([{ email: 'admin@example.com', password: 'secret1' }]);
  });

  it('does not accept a short password or a missing email', async () => {
    const { actor } = start({});
    await waitFor(actor, (s) => s.matches('idle'));
    const idle = actor.getSnapshot();
    expect(canAccept(signInMachine, idle, { ...submit, password: '12345' })).toBe(false);
    expect(canAccept(signInMachine, idle, { ...submit, email: ' ' })).toBe(false);
    expect(canAccept(signInMachine, idle, submit)).toBe(true);
  });

  it('shows the mapped error, clears it on edit and can retry', async () => {
    let fail = true;
    const { actor } = start({
      signIn: (c) =>
        fail ? Promise.reject(Object.assign(new Error('Invalid login credentials'), { status: 400 })) : Promise.resolve({ email: c.email }),
    });
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('error'));
    expect(actor.getSnapshot().context.error).toBe('Invalid email or password. Please try again.');
    actor.send({ type: 'EDIT' });
    expect(actor.getSnapshot()).toMatchObject({ value: 'idle', context: { error: null } });
    fail = false;
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('redirect'));
  });

  it('never copies the password into context', async () => {
    const { actor } = start({ signIn: () => new Promise(() => {}) });
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send(submit);
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain('secret1');
  });

  it.each([
    [{ code: 'invalid_credentials' }, 'Invalid email or password. Please try again.'],
    [new Error('User already registered'), 'An account with this email already exists. Try logging in instead.'],
    [new Error('Password should be at least 6 characters'), 'Password should be at least 6 characters long.'],
    [new Error('network down'), 'An error occurred during authentication.'],
    [undefined, 'An error occurred during authentication.'],
  ])('maps %o to the product text', (error, text) => {
    expect(signInErrorMessage(error)).toBe(text);
  });

  it('validates events at the edge', () => {
    expect(signInEventSchema.safeParse(submit).success).toBe(true);
    expect(signInEventSchema.safeParse({ type: 'SUBMIT', email: 'a@b.c' }).success).toBe(false);
  });
});
