import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { MIN_PASSWORD_LENGTH, type Credentials } from '#machines/protocol/sign-in.js';
import { SIGN_IN_ERROR_TITLE, signInErrorMessage, signInMachine, type SignedInUser } from '#machines/sign-in/sign-in.machine.js';
import { BrandMark } from '../app/brand.js';
import { SIGNED_IN_STATE } from '../features/admin/signed-in-notice.js';
import { ButtonLink, Button, Card, Field, useToast } from '../components/ui/index.js';
import { adminReturnPath } from '../lib/admin-return-path.js';
import { loadSession, signIn } from '../lib/session.js';

/** The email rule of an input of type email (what the browser itself would accept). */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

type Errors = { email?: string; password?: string };

/** `/auth`: sign-in only, run by the shared sign-in machine. */
export function AuthPage() {
  const navigate = useNavigate();
  // the admin page that sent the visitor here (/admin by default); a first sign-in's admin page is the password change
  const [search] = useSearchParams();
  const returnTo = adminReturnPath(search.get('next'));
  const { toast } = useToast();
  const submitted = useRef(false);
  const machine = useMemo(
    () =>
      signInMachine.provide({
        actors: {
          getSession: fromPromise<SignedInUser | null>(async () => {
            const { user } = await loadSession();
            return user ? { email: user.email } : null;
          }),
          signIn: fromPromise<SignedInUser, Credentials>(async ({ input }) => ({ email: (await signIn(input)).email })),
        },
      }),
    [],
  );
  const [state, send] = useMachine(machine);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  const done = state.matches('redirect');
  useEffect(() => {
    if (!done) return;
    // nothing waits for the navigation: the router shows any failure itself
    // signed in now or already: on to the admin page asked for, which says 'Welcome back!' after a sign-in here
    void navigate(returnTo, { replace: true, state: submitted.current ? SIGNED_IN_STATE : null });
  }, [done, navigate, returnTo]);

  const failure = state.matches('error') ? state.context.error : null;
  useEffect(() => {
    if (failure) toast({ title: SIGN_IN_ERROR_TITLE, description: failure, variant: 'destructive' });
  }, [failure, toast]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = email.trim();
    const found: Errors = {};
    if (!trimmed) found.email = 'Please enter your email address.';
    else if (!EMAIL_SHAPE.test(trimmed)) found.email = 'Please enter a valid email address';
    if (!password) found.password = 'Please enter your password.';
    else if (password.length < MIN_PASSWORD_LENGTH) found.password = signInErrorMessage({ code: 'weak_password' });
    setErrors(found);
    if (found.email) return emailInput.current?.focus();
    if (found.password) {
      // the spec's toast for a short password, besides the message under the field
      if (password) toast({ title: SIGN_IN_ERROR_TITLE, description: found.password, variant: 'destructive' });
      return passwordInput.current?.focus();
    }
    submitted.current = true;
    send({ type: 'SUBMIT', email: trimmed, password });
  };

  const edit = (field: keyof Errors, value: string) => {
    (field === 'email' ? setEmail : setPassword)(value);
    setErrors((current) => ({ ...current, [field]: undefined }));
    if (state.matches('error')) send({ type: 'EDIT' });
  };

  const checking = state.matches('checkingSession');
  const submitting = state.matches('submitting');

  return (
    <>
      <title>Sign in | Leadership Coaching</title>
      <section aria-labelledby="auth-title" className="flex min-h-screen items-center justify-center bg-sand px-6 pt-28 pb-20">
        <Card padding="lg" className="w-full max-w-md">
          <div className="flex flex-col items-center text-center">
            <span className="flex items-center gap-3">
              <BrandMark />
            </span>
            <h1 id="auth-title" className="mt-8 font-serif text-3xl text-ink sm:text-4xl">
              Welcome Back
            </h1>
            <p className="mt-2 text-muted">Sign in to access your dashboard</p>
          </div>
          {/* noValidate: the page shows its own messages and the spec's toast instead of the browser's bubbles */}
          <form method="post" className="mt-8 flex flex-col gap-5" noValidate onSubmit={onSubmit} aria-busy={submitting}>
            <Field
              ref={emailInput}
              label="Email"
              name="email"
              type="email"
              autoComplete="username"
              required
              value={email}
              error={errors.email}
              disabled={checking}
              onChange={(e) => edit('email', e.target.value)}
            />
            <Field
              ref={passwordInput}
              label="Password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              minLength={MIN_PASSWORD_LENGTH}
              value={password}
              error={errors.password}
              disabled={checking}
              onChange={(e) => edit('password', e.target.value)}
            />
            <Button type="submit" size="lg" block loading={submitting} loadingText="Signing in..." disabled={checking} className="mt-2">
              Sign In
            </Button>
          </form>
          <div className="mt-6 border-t border-line pt-6 text-center">
            <ButtonLink to="/" variant="ghost">
              Back to Home
            </ButtonLink>
          </div>
        </Card>
      </section>
    </>
  );
}
