import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Card, Field, useToast } from '../../components/ui/index.js';
import { ApiError } from '../../lib/api.js';
import { changePassword } from '../../lib/session.js';

/** The server's rule (server/auth/schemas.ts); checked here first so the form answers at once. */
const MIN_NEW_PASSWORD_LENGTH = 12;

type Errors = { currentPassword?: string; newPassword?: string; confirm?: string };

/**
 * Shown instead of the admin area while the account still has the password generated at first
 * start (printed once in the server's log): every admin route refuses until it is changed.
 */
export function ChangePasswordScreen({ email, signOut }: { email: string; signOut: ReactNode }) {
  const { toast } = useToast();
  const [values, setValues] = useState({ currentPassword: '', newPassword: '', confirm: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const currentPasswordInput = useRef<HTMLInputElement>(null);
  const newPasswordInput = useRef<HTMLInputElement>(null);
  const confirmInput = useRef<HTMLInputElement>(null);

  const edit = (field: keyof Errors, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const showErrors = (found: Errors) => {
    setErrors(found);
    const inputs = { currentPassword: currentPasswordInput, newPassword: newPasswordInput, confirm: confirmInput };
    const first = (['currentPassword', 'newPassword', 'confirm'] as const).find((field) => found[field]);
    if (first) inputs[first].current?.focus();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: Errors = {};
    if (!values.currentPassword) found.currentPassword = 'Please enter your current password.';
    if (values.newPassword.length < MIN_NEW_PASSWORD_LENGTH)
      found.newPassword = `Please choose a password of at least ${MIN_NEW_PASSWORD_LENGTH} characters.`;
    else if (values.newPassword === values.currentPassword) found.newPassword = 'Please choose a password different from the current one.';
    if (!found.newPassword && values.confirm !== values.newPassword) found.confirm = 'The two new passwords do not match.';
    if (Object.keys(found).length) return showErrors(found);
    setBusy(true);
    try {
      await changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword });
      toast({
        title: 'Password Changed',
        description: 'Your new password is in place. Other sessions were signed out.',
        variant: 'success',
      });
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && (error.fields.currentPassword || error.fields.newPassword)) {
        return showErrors({ currentPassword: error.fields.currentPassword, newPassword: error.fields.newPassword });
      }
      toast({
        title: 'Password not changed',
        description: error instanceof Error ? error.message : 'Please try again.',
        variant: 'destructive',
      });
    }
  };

  return (
    // the page's one main landmark: the admin shell (and its main) opens only after the change
    <main aria-labelledby="change-password-title" className="flex min-h-screen items-center justify-center bg-sand px-6 py-20">
      <Card padding="lg" className="w-full max-w-md">
        <h1 id="change-password-title" className="font-serif text-3xl text-ink">
          Choose your own password
        </h1>
        <p className="mt-3 text-muted">
          You signed in as <span className="font-semibold text-ink">{email}</span> with the password generated when the site first started.
          Choose one of your own to open the admin area.
        </p>
        {/* onSubmit() shows its own failures */}
        <form method="post" className="mt-8 flex flex-col gap-5" noValidate onSubmit={(event) => void onSubmit(event)} aria-busy={busy}>
          <Field
            ref={currentPasswordInput}
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            value={values.currentPassword}
            error={errors.currentPassword}
            onChange={(e) => edit('currentPassword', e.target.value)}
          />
          <Field
            ref={newPasswordInput}
            label="New password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            required
            minLength={MIN_NEW_PASSWORD_LENGTH}
            hint={`At least ${MIN_NEW_PASSWORD_LENGTH} characters.`}
            value={values.newPassword}
            error={errors.newPassword}
            onChange={(e) => edit('newPassword', e.target.value)}
          />
          <Field
            ref={confirmInput}
            label="Confirm new password"
            name="confirm"
            type="password"
            autoComplete="new-password"
            required
            value={values.confirm}
            error={errors.confirm}
            onChange={(e) => edit('confirm', e.target.value)}
          />
          <Button type="submit" size="lg" block loading={busy} loadingText="Changing..." className="mt-2">
            Change Password
          </Button>
        </form>
        <div className="mt-6 flex justify-center border-t border-line pt-6">{signOut}</div>
      </Card>
    </main>
  );
}
