import { Field as HeadlessField, Label, Switch } from '@headlessui/react';
import { useId, useState, type FormEvent } from 'react';
import { Button, cx, useToast } from '../../components/ui/index.js';
import { api } from '../../lib/api.js';
import { useSession } from '../../lib/session.js';
import { useAdminFailure, useAdminResource } from './api.js';
import { ErrorState, RefreshButton, ScreenHeader, Skeleton } from './states.js';

export type IntegrationKey = 'payments' | 'scheduling' | 'automation' | 'email_marketing' | 'team_chat' | 'analytics';

/** One card as GET /api/admin/integrations answers it (core/integrations/settings.ts). */
export interface IntegrationSetting {
  key: IntegrationKey;
  enabled: boolean;
  configured: boolean;
  /** In clear for the booking URL; masked for secrets; null when unset. */
  value: string | null;
  secret: boolean;
  signingSecret: string | null;
  updatedAt: string | null;
}

type Category = 'Payments' | 'Scheduling' | 'Automation' | 'Marketing' | 'Communication' | 'Analytics';
const CATEGORIES: Array<'All' | Category> = ['All', 'Payments', 'Scheduling', 'Automation', 'Marketing', 'Communication', 'Analytics'];

interface CardInfo {
  key: IntegrationKey;
  name: string;
  category: Category;
  description: string;
  features: string[];
  setupUrl: string;
  field?: { label: string; placeholder: string; type: 'url' | 'password' };
}

const CARDS: CardInfo[] = [
  {
    key: 'payments',
    name: 'Stripe',
    category: 'Payments',
    description: 'Take the refundable $250 deposit and paid homework securely.',
    features: ['Hosted, PCI-compliant checkout', 'Refundable deposits', 'Signed payment webhooks'],
    setupUrl: 'https://dashboard.stripe.com/apikeys',
  },
  {
    key: 'scheduling',
    name: 'Calendly',
    category: 'Scheduling',
    description: 'The booking page qualified leads are sent to when they choose a call.',
    features: ['Linked from the book-a-call step', 'Time-zone aware booking', 'Reminders from your calendar'],
    setupUrl: 'https://calendly.com/event_types/user/me',
    field: { label: 'Booking URL', placeholder: 'https://calendly.com/your-name/intro-call', type: 'url' },
  },
  {
    key: 'automation',
    name: 'Zapier',
    category: 'Automation',
    description: 'Every lead event (captured, graded, paid) is POSTed to your webhook, signed with HMAC-SHA256.',
    features: ['lead.captured, lead.graded, lead.paid', 'x-hf-signature header on every POST', 'Retried with backoff on failure'],
    setupUrl: 'https://zapier.com/apps/webhook/integrations',
    field: { label: 'Webhook URL', placeholder: 'https://hooks.zapier.com/hooks/catch/…', type: 'password' },
  },
  {
    key: 'email_marketing',
    name: 'Mailchimp',
    category: 'Marketing',
    description: 'Keep your audience list in step with captured leads.',
    features: ['Audience sync (coming later)', 'Tags by qualification tier', 'Nurture sequences'],
    setupUrl: 'https://mailchimp.com/help/about-api-keys/',
    field: { label: 'API key', placeholder: 'Paste your API key', type: 'password' },
  },
  {
    key: 'team_chat',
    name: 'Slack',
    category: 'Communication',
    description: 'A message in your channel whenever a lead qualifies for a call.',
    features: ['Alerts for book_call leads', 'Link to the lead in the admin', 'Incoming-webhook setup'],
    setupUrl: 'https://api.slack.com/messaging/webhooks',
    field: { label: 'Webhook URL', placeholder: 'https://hooks.slack.com/services/…', type: 'password' },
  },
  {
    key: 'analytics',
    name: 'Built-in analytics',
    category: 'Analytics',
    description: 'Funnel counts and lead activity, collected by this site itself.',
    features: ['Lead and assessment counts', 'No third-party scripts', 'Always on'],
    setupUrl: 'https://developer.mozilla.org/en-US/docs/Web/Privacy',
  },
];

const CONFIGURATION_SAVED = 'Configuration Saved';
const SAVE_FAILURE = 'Failed to save the integration. Please try again.';

function IntegrationCard({
  info,
  setting,
  onChange,
}: {
  info: CardInfo;
  setting: IntegrationSetting;
  onChange: (saved: IntegrationSetting) => void;
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
    api<IntegrationSetting>(`/api/admin/integrations/${info.key}`, { method: 'PUT', body, csrfToken: session.csrfToken });

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
          <form onSubmit={save} className="mt-4 flex flex-col gap-2">
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
function SigningSecret({ secret, onChange }: { secret: string; onChange: (saved: IntegrationSetting) => void }) {
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();
  const [rotating, setRotating] = useState(false);

  const rotate = () => {
    setRotating(true);
    api<IntegrationSetting>('/api/admin/integrations/automation/rotate-secret', { method: 'POST', csrfToken: session.csrfToken }).then(
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

function SupportCard() {
  return (
    <section aria-labelledby="integrations-support" className="mt-8 rounded-3xl border border-line bg-sand p-6">
      <h2 id="integrations-support" className="font-serif text-2xl tracking-tight text-ink">
        Need help connecting?
      </h2>
      <div className="mt-4 grid gap-6 md:grid-cols-2">
        <div>
          <h3 className="font-semibold text-ink">Setup tips</h3>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-ink">
            <li>Turn a card on, paste its URL or key, then Save.</li>
            <li>Webhook URLs and API keys are stored on the server and shown masked afterwards.</li>
            <li>Verify automation POSTs with the signing secret: x-hf-signature is sha256= and the HMAC-SHA256 of the raw body.</li>
            <li>Use x-hf-event-id to ignore a delivery you have already handled.</li>
          </ul>
        </div>
        <div>
          <h3 className="font-semibold text-ink">Use cases</h3>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-ink">
            <li>Send qualified leads straight to your booking page.</li>
            <li>Add new leads to your CRM through an automation.</li>
            <li>Get a chat alert when someone qualifies for a call.</li>
            <li>Keep your email list in step with the funnel.</li>
          </ul>
        </div>
      </div>
    </section>
  );
}

/** /admin/integrations: the product's cards, stored on the server. */
export function IntegrationsScreen() {
  const { data, loading, failed, reload, update } = useAdminResource<{ integrations: IntegrationSetting[] }>('/api/admin/integrations');
  const [category, setCategory] = useState<'All' | Category>('All');
  const byKey = new Map((data?.integrations ?? []).map((setting) => [setting.key, setting]));
  const shown = CARDS.filter((card) => category === 'All' || card.category === category);
  const replace = (saved: IntegrationSetting) =>
    update((current) => ({ integrations: current.integrations.map((setting) => (setting.key === saved.key ? saved : setting)) }));

  return (
    <>
      <title>Integrations | Admin | Leadership Coaching</title>
      <ScreenHeader
        title="Integrations"
        description="Connect payments, scheduling, automation, marketing and chat. Settings are kept on the server."
        actions={<RefreshButton loading={loading} onClick={reload} />}
      />
      <div role="group" aria-label="Filter by category" className="mb-6 flex flex-wrap gap-2">
        {CATEGORIES.map((name) => (
          <button
            key={name}
            type="button"
            aria-pressed={category === name}
            onClick={() => setCategory(name)}
            className={cx(
              'min-h-10 rounded-full border px-4 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass',
              category === name ? 'border-ink bg-ink text-white' : 'border-line bg-white text-ink hover:border-ink/40',
            )}
          >
            {name}
          </button>
        ))}
      </div>
      {failed && !data ? (
        <ErrorState onRetry={reload} />
      ) : !data ? (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-busy="true">
          {[0, 1, 2].map((n) => (
            <div key={n} className="flex flex-col gap-3 rounded-3xl border border-line bg-white p-6">
              <Skeleton className="h-6 w-40" />
              <Skeleton className="h-4 w-full" />
              <Skeleton className="h-4 w-2/3" />
            </div>
          ))}
        </div>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label="Integrations">
          {shown.map((info) => (
            <IntegrationCard key={info.key} info={info} setting={byKey.get(info.key)!} onChange={replace} />
          ))}
        </ul>
      )}
      <SupportCard />
    </>
  );
}
