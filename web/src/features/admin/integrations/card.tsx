import { Field as HeadlessField, Label, Switch } from '@headlessui/react';
import { useId, useState, type FormEvent } from 'react';
import { integrationSchema, type Integration } from '#machines/protocol/admin/integrations.js';
import { Button, cx, useToast } from '#web/components/ui/index.js';
import { api } from '#web/lib/api.js';
import { useSession } from '#web/lib/session.js';
import { useAdminFailure } from '../api.js';
import { BookingWebhook } from './booking-webhook.js';
import type { CardInfo } from './cards.js';
import { MarketingList } from './marketing-list.js';

const CONFIGURATION_SAVED = 'Configuration Saved';
const SAVE_FAILURE = 'Failed to save the integration. Please try again.';

/**
 * One integration: its switch, its value's form and, for automation, the signing secret; for
 * scheduling, the booking webhook; for email marketing, the list, a connection test and the last sync.
 */
export function IntegrationCard({
  info,
  setting,
  onChange,
}: {
  info: CardInfo;
  setting: Integration;
  onChange: (saved: Integration) => void;
}) {
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();
  const fieldId = useId();
  const [draft, setDraft] = useState(setting.secret ? '' : (setting.value ?? ''));
  const [saving, setSaving] = useState(false);
  const builtIn = info.key === 'analytics';
  const headingId = `integration-${info.key}`;

  const put = (body: { enabled?: boolean; value?: string }) =>
    api(`/api/admin/integrations/${info.key}`, { method: 'PUT', body, csrfToken: session.csrfToken, schema: integrationSchema });

  const toggle = (enabled: boolean) => {
    onChange({ ...setting, enabled });
    put({ enabled }).then(onChange, (error: unknown) => {
      onChange(setting);
      fail(error, SAVE_FAILURE);
    });
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.trim()) return;
    setSaving(true);
    put({ value: draft.trim() }).then(
      (saved) => {
        setSaving(false);
        onChange(saved);
        if (saved.secret) setDraft('');
        toast({ title: CONFIGURATION_SAVED, description: `${info.name} is set up.`, variant: 'success' });
      },
      (error: unknown) => {
        setSaving(false);
        fail(error, error instanceof Error && error.message ? error.message : SAVE_FAILURE);
      },
    );
  };

  return (
    <li className="flex">
      <article
        aria-labelledby={headingId}
        data-integration={info.key}
        className="flex w-full flex-col rounded-3xl border border-line bg-white p-6 shadow-soft"
      >
        <div className="flex items-start justify-between gap-4">
          <div className="min-w-0">
            <p className="text-xs font-semibold tracking-[0.14em] text-brass-deep uppercase">{info.category}</p>
            <h2 id={headingId} className="mt-1 font-serif text-2xl tracking-tight text-ink">
              {info.name}
            </h2>
          </div>
          {builtIn ? (
            <span className="shrink-0 rounded-full bg-success/10 px-3 py-1 text-sm font-semibold text-success">Built-in & Active</span>
          ) : (
            <HeadlessField className="flex shrink-0 items-center gap-2">
              <Label className="text-sm font-medium text-ink">
                {setting.enabled ? 'On' : 'Off'}
                <span className="sr-only"> ({info.name})</span>
              </Label>
              <Switch
                checked={setting.enabled}
                onChange={toggle}
                className={cx(
                  'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass',
                  setting.enabled ? 'bg-success' : 'bg-ink/25',
                )}
              >
                <span
                  className={cx(
                    'inline-block size-4 rounded-full bg-white shadow transition-transform',
                    setting.enabled ? 'translate-x-6' : 'translate-x-1',
                  )}
                />
              </Switch>
            </HeadlessField>
          )}
        </div>
        <p className="mt-3 text-muted">{info.description}</p>
        <ul className="mt-4 flex flex-col gap-1.5 text-sm text-ink">
          {info.features.map((feature) => (
            <li key={feature} className="flex gap-2">
              <span aria-hidden="true" className="text-success">
                ✓
              </span>
              {feature}
            </li>
          ))}
        </ul>
        {!builtIn && info.field && setting.configured && (
          <p className="mt-4 text-sm font-medium text-success">Configured{setting.secret && setting.value ? ` (${setting.value})` : ''}</p>
        )}
        {setting.enabled && info.field && (
          <form method="post" onSubmit={save} className="mt-4 flex flex-col gap-2">
            <label htmlFor={fieldId} className="text-sm font-semibold text-ink">
              {info.field.label}
            </label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <input
                id={fieldId}
                type={info.field.type}
                value={draft}
                autoComplete="off"
                onChange={(event) => setDraft(event.target.value)}
                placeholder={setting.secret && setting.value ? 'Enter a new value to replace it' : info.field.placeholder}
                className="min-h-11 w-full min-w-0 rounded-xl border border-line bg-white px-4 text-ink placeholder:text-muted/80 focus:border-ink focus:outline-2 focus:outline-offset-1 focus:outline-brass"
              />
              <Button type="submit" size="sm" disabled={!draft.trim() || saving} className="min-h-11 shrink-0">
                {saving ? 'Saving...' : 'Save'}
              </Button>
            </div>
            {setting.secret && <p className="text-xs text-muted">Stored on the server and never shown again in full.</p>}
          </form>
        )}
        {info.key === 'automation' && setting.signingSecret && <SigningSecret secret={setting.signingSecret} onChange={onChange} />}
        {info.key === 'scheduling' && setting.enabled && <BookingWebhook setting={setting} onChange={onChange} />}
        {info.key === 'email_marketing' && setting.enabled && <MarketingList setting={setting} onChange={onChange} />}
        <a
          href={info.setupUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-auto self-start pt-5 text-sm font-semibold text-ink-700 underline decoration-ink/25 underline-offset-4 hover:decoration-ink"
        >
          {builtIn ? 'Learn more' : `Set up ${info.name}`}
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      </article>
    </li>
  );
}

const SECRET_ROTATED = 'Signing Secret Rotated';

/** The automation signing secret and a Rotate button: a new secret is also made whenever the URL changes. */
function SigningSecret({ secret, onChange }: { secret: string; onChange: (saved: Integration) => void }) {
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();
  const [rotating, setRotating] = useState(false);

  const rotate = () => {
    setRotating(true);
    api('/api/admin/integrations/automation/rotate-secret', {
      method: 'POST',
      csrfToken: session.csrfToken,
      schema: integrationSchema,
    }).then(
      (saved) => {
        setRotating(false);
        onChange(saved);
        toast({ title: SECRET_ROTATED, description: 'Update your receiver: the old secret no longer verifies.', variant: 'success' });
      },
      (error: unknown) => {
        setRotating(false);
        fail(error, SAVE_FAILURE);
      },
    );
  };

  return (
    <div className="mt-3 flex flex-col items-start gap-2">
      <p className="min-w-0 text-xs break-all text-muted">
        Signing secret (verify <code>x-hf-signature: sha256=…</code>): <code className="text-ink">{secret}</code>
      </p>
      <Button type="button" size="sm" variant="secondary" onClick={rotate} disabled={rotating} className="min-h-11 shrink-0">
        {rotating ? 'Rotating...' : 'Rotate secret'}
      </Button>
    </div>
  );
}
