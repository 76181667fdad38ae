import { useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { SOCIAL_IDS, type SiteSettings, type SocialId } from '#machines/site-settings.js';
import { SOCIAL_PLATFORMS } from '#web/app/site.js';
import { Button, Field, useToast } from '#web/components/ui/index.js';
import { ApiError, api } from '#web/lib/api.js';
import { useSession } from '#web/lib/session.js';
import { publishSiteSettings } from '#web/lib/site-settings.js';
import { useAdminFailure, useAdminResource } from '../api.js';
import { siteSettingsViewSchema, type SiteSettingsView } from '#machines/protocol/admin/site-settings.js';
import { NoBookingPageNotice, SITE_SETTINGS_PATH } from '../booking-notice.js';
import { ReminderSettingsCard } from './reminder-settings.js';
import { ErrorState, FormSkeleton, Panel, RefreshButton, ScreenHeader } from '../states.js';

const SETTINGS_SAVED = 'Settings saved';
const SETTINGS_NOT_SAVED = 'Some fields need a change';

type ContactKey = keyof SiteSettings['contact'];

/** The form's values: every field as typed, '' for one left blank. */
interface Draft {
  communityUrl: string;
  socialLinks: Record<SocialId, string>;
  contact: Record<ContactKey, string>;
}

const CONTACT_FIELDS: Array<{ key: ContactKey; label: string; type: string; autoComplete: string; hint?: string; optional: boolean }> = [
  {
    key: 'name',
    label: 'Name',
    type: 'text',
    autoComplete: 'name',
    hint: 'Yours or your practice’s, as visitors should see it.',
    optional: false,
  },
  {
    key: 'email',
    label: 'Email',
    type: 'email',
    autoComplete: 'email',
    hint: 'On the contact page and at the foot of every email.',
    optional: true,
  },
  { key: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel', optional: true },
  { key: 'location', label: 'Location', type: 'text', autoComplete: 'off', hint: 'For example: London, UK', optional: true },
  {
    key: 'hours',
    label: 'Hours',
    type: 'text',
    autoComplete: 'off',
    hint: 'For example: Monday to Friday, 9:00-17:00 GMT',
    optional: true,
  },
];

function draftOf(settings: SiteSettings): Draft {
  const text = (value: string | null) => value ?? '';
  return {
    communityUrl: settings.communityUrl,
    socialLinks: Object.fromEntries(SOCIAL_IDS.map((id) => [id, text(settings.socialLinks[id])])) as Draft['socialLinks'],
    contact: Object.fromEntries(CONTACT_FIELDS.map(({ key }) => [key, text(settings.contact[key])])) as Draft['contact'],
  };
}

/** What PUT sends: blanks as null ("not set"); the server checks every field and names the bad ones. */
function settingsOf(draft: Draft): SiteSettings {
  const orNull = (value: string) => (value.trim() ? value : null);
  return {
    communityUrl: draft.communityUrl,
    socialLinks: Object.fromEntries(SOCIAL_IDS.map((id) => [id, orNull(draft.socialLinks[id])])) as SiteSettings['socialLinks'],
    contact: {
      name: draft.contact.name,
      email: orNull(draft.contact.email),
      phone: orNull(draft.contact.phone),
      location: orNull(draft.contact.location),
      hours: orNull(draft.contact.hours),
    },
  };
}

/** The input of a field the server named (`communityUrl`, `socialLinks.x`, `contact.email`). */
const inputId = (field: string) => `site-${field.replace('.', '-')}`;

function FormSection({ title, description, children }: { title: string; description: ReactNode; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replaceAll(' ', '-')}`;
  return (
    <section aria-labelledby={id} className="rounded-3xl border border-line bg-white p-6 shadow-soft">
      <h2 id={id} className="font-serif text-2xl tracking-tight text-ink">
        {title}
      </h2>
      <p className="mt-1 text-muted">{description}</p>
      <div className="mt-5 grid gap-5 md:grid-cols-2">{children}</div>
    </section>
  );
}

function SettingsForm({ view, onSaved }: { view: SiteSettingsView; onSaved: (saved: SiteSettingsView) => void }) {
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();
  const [draft, setDraft] = useState(() => draftOf(view.settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  // settings newer than the form's (saved here, or read by Refresh) start the form again from them
  // compared as instants: each read decodes a new Date
  const savedAt = view.updatedAt?.getTime() ?? null;
  const [shown, setShown] = useState(savedAt);
  if (savedAt !== shown) {
    setShown(savedAt);
    setDraft(draftOf(view.settings));
    setErrors({});
  }

  /** A field's props: its value, the server's error for it, and an edit that clears that error. */
  const field = (name: string, value: string, apply: (current: Draft, value: string) => Draft) => ({
    id: inputId(name),
    name,
    value,
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const typed = event.target.value;
      setDraft((current) => apply(current, typed));
      setErrors((current) => {
        const rest = { ...current };
        delete rest[name];
        return rest;
      });
    },
  });

  const save = (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    api(SITE_SETTINGS_PATH, { method: 'PUT', body: settingsOf(draft), csrfToken: session.csrfToken, schema: siteSettingsViewSchema }).then(
      (saved) => {
        setSaving(false);
        publishSiteSettings(saved.settings);
        onSaved(saved);
        toast({ title: SETTINGS_SAVED, description: 'Every page and email uses them from now on.', variant: 'success' });
      },
      (error: unknown) => {
        setSaving(false);
        if (error instanceof ApiError && error.status === 400 && Object.keys(error.fields).length > 0) {
          setErrors(error.fields);
          document.getElementById(inputId(Object.keys(error.fields)[0]!))?.focus();
          toast({ title: SETTINGS_NOT_SAVED, description: 'Nothing was saved. Each field to change says why.', variant: 'destructive' });
          return;
        }
        fail(error, error instanceof Error && error.message ? error.message : undefined);
      },
    );
  };

  return (
    <form method="post" onSubmit={save} noValidate className="flex flex-col gap-6" aria-label="Site settings">
      <FormSection
        title="Community"
        description="The free community page: the nurture step of the assessment and the results email link to it."
      >
        <Field
          label="Community page URL"
          type="url"
          required
          autoComplete="url"
          className="md:col-span-2"
          {...field('communityUrl', draft.communityUrl, (d, value) => ({ ...d, communityUrl: value }))}
        />
      </FormSection>
      <FormSection
        title="Social links"
        description="Your profiles, shown on the home page and in the footer. Leave a platform blank to hide it."
      >
        {SOCIAL_IDS.map((id) => (
          <Field
            key={id}
            label={SOCIAL_PLATFORMS[id].label}
            type="url"
            optional
            autoComplete="url"
            {...field(`socialLinks.${id}`, draft.socialLinks[id], (d, value) => ({ ...d, socialLinks: { ...d.socialLinks, [id]: value } }))}
          />
        ))}
      </FormSection>
      <FormSection
        title="Contact details"
        description="How visitors reach you: on the contact page and at the foot of every email they receive."
      >
        {CONTACT_FIELDS.map(({ key, label, type, autoComplete, hint, optional }) => (
          <Field
            key={key}
            label={label}
            type={type}
            hint={hint}
            optional={optional}
            required={!optional}
            autoComplete={autoComplete}
            {...field(`contact.${key}`, draft.contact[key], (d, value) => ({ ...d, contact: { ...d.contact, [key]: value } }))}
          />
        ))}
      </FormSection>
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" loading={saving} loadingText="Saving...">
          Save settings
        </Button>
        {view.updatedAt && <p className="text-sm text-muted">Last saved {new Date(view.updatedAt).toLocaleString('en-US')}</p>}
      </div>
    </form>
  );
}

/** Where the book-a-call step sends visitors: set in Integrations, its one home, and shown here. */
function BookingPage({ booking }: { booking: SiteSettingsView['booking'] }) {
  return (
    <Panel title="Booking page" id="booking-page" className="mb-6">
      {booking.url ? (
        <p className="leading-relaxed text-ink">
          Visitors who pay the deposit book their session at{' '}
          <a
            href={booking.url}
            target="_blank"
            rel="noopener noreferrer"
            className="font-semibold break-all underline decoration-ink/25 underline-offset-4"
          >
            {booking.url}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
          .{' '}
          <Link to="/admin/integrations" className="font-semibold underline decoration-ink/25 underline-offset-4 hover:decoration-ink">
            Change it in Integrations
          </Link>
          .
        </p>
      ) : (
        <NoBookingPageNotice fallbackUrl={booking.fallbackUrl} />
      )}
    </Panel>
  );
}

/** /admin/settings: the community page, social links and contact details the whole site uses. */
export function SiteSettingsScreen() {
  const { data, loading, failed, reload, update } = useAdminResource(SITE_SETTINGS_PATH, siteSettingsViewSchema);
  return (
    <>
      <title>Site settings | Admin | Leadership Coaching</title>
      <ScreenHeader
        title="Site settings"
        description="Your community page, social links and contact details, used by every page and email as soon as you save."
        actions={<RefreshButton loading={loading} onClick={reload} />}
      />
      {failed && !data ? (
        <ErrorState onRetry={reload} />
      ) : !data ? (
        <FormSkeleton />
      ) : (
        <>
          <BookingPage booking={data.booking} />
          <SettingsForm view={data} onSaved={(saved) => update(() => saved)} />
          <ReminderSettingsCard />
        </>
      )}
    </>
  );
}
