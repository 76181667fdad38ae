import { useState, type FormEvent } from 'react';
import {
  REMINDER_KINDS,
  reminderSettingsViewSchema,
  type ReminderKind,
  type ReminderSettings,
  type ReminderSettingsView,
} from '#machines/protocol/admin/emails.js';
import { Button, Field, useToast } from '#web/components/ui/index.js';
import { ApiError, api } from '#web/lib/api.js';
import { useSession } from '#web/lib/session.js';
import { useAdminFailure, useAdminResource } from '../api.js';
import { ErrorState, FormSkeleton } from '../states.js';

const REMINDERS_PATH = '/api/admin/reminder-settings';

const REMINDERS: Record<ReminderKind, { label: string; after: string }> = {
  booking_reminder: { label: 'Reminder to book', after: 'Hours after the deposit, if no session is booked' },
  assessment_reminder: { label: 'Invitation to finish', after: 'Hours after the lead gave their details, if unfinished' },
};

type Draft = Record<ReminderKind, { enabled: boolean; delayHours: string }>;

const draftOf = (settings: ReminderSettings): Draft =>
  Object.fromEntries(REMINDER_KINDS.map((kind) => [kind, { ...settings[kind], delayHours: String(settings[kind].delayHours) }])) as Draft;

function ReminderForm({ view, onSaved }: { view: ReminderSettingsView; onSaved: (saved: ReminderSettingsView) => void }) {
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();
  const [draft, setDraft] = useState(() => draftOf(view.settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const save = (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const body = Object.fromEntries(
      REMINDER_KINDS.map((kind) => [kind, { enabled: draft[kind].enabled, delayHours: Number(draft[kind].delayHours) }]),
    );
    api(REMINDERS_PATH, { method: 'PUT', body, csrfToken: session.csrfToken, schema: reminderSettingsViewSchema }).then(
      (saved) => {
        setSaving(false);
        setErrors({});
        onSaved(saved);
        toast({ title: 'Reminders saved', description: 'Reminders set from now on use them.', variant: 'success' });
      },
      (error: unknown) => {
        setSaving(false);
        if (error instanceof ApiError && error.status === 400 && Object.keys(error.fields).length > 0) {
          setErrors(error.fields);
          return;
        }
        fail(error);
      },
    );
  };

  return (
    <form method="post" onSubmit={save} noValidate aria-label="Reminders" className="flex flex-col gap-5">
      {REMINDER_KINDS.map((kind) => (
        <fieldset key={kind} className="grid gap-3 md:grid-cols-2 md:items-end">
          <legend className="mb-2 font-semibold text-ink">{REMINDERS[kind].label}</legend>
          <label className="flex items-center gap-3 text-sm text-ink">
            <input
              type="checkbox"
              name={`${kind}.enabled`}
              checked={draft[kind].enabled}
              onChange={(event) => setDraft((current) => ({ ...current, [kind]: { ...current[kind], enabled: event.target.checked } }))}
              className="size-4 accent-ink"
            />
            Send the {REMINDERS[kind].label.toLowerCase()}
          </label>
          <Field
            label={REMINDERS[kind].after}
            type="number"
            min="0.1"
            max="720"
            step="any"
            inputMode="decimal"
            name={`${kind}.delayHours`}
            value={draft[kind].delayHours}
            error={errors[`${kind}.delayHours`]}
            onChange={(event) => {
              const typed = event.target.value;
              setDraft((current) => ({ ...current, [kind]: { ...current[kind], delayHours: typed } }));
              // an edit answers the server's complaint about this field
              setErrors(({ [`${kind}.delayHours`]: _answered, ...rest }) => rest);
            }}
          />
        </fieldset>
      ))}
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" loading={saving} loadingText="Saving...">
          Save reminders
        </Button>
        {view.updatedAt && <p className="text-sm text-muted">Last saved {view.updatedAt.toLocaleString('en-US')}</p>}
      </div>
    </form>
  );
}

/**
 * The follow-up reminders' on/off and delay (decision 0049). A change applies to every reminder
 * whose timer is set after it, without a restart; a timer already set keeps its due time, and one
 * turned off meanwhile sends nothing when it comes due.
 */
export function ReminderSettingsCard() {
  const { data, failed, reload, update } = useAdminResource(REMINDERS_PATH, reminderSettingsViewSchema);
  const id = 'section-reminders';
  return (
    <section aria-labelledby={id} className="mt-6 rounded-3xl border border-line bg-white p-6 shadow-soft">
      <h2 id={id} className="font-serif text-2xl tracking-tight text-ink">
        Reminders
      </h2>
      <p className="mt-1 mb-5 text-muted">
        When the follow-up emails go, or whether they go at all. A change applies to reminders set from now on; a reminder already planned
        keeps its time, and is not sent if you turn it off.
      </p>
      {failed && !data ? (
        <ErrorState onRetry={reload} />
      ) : !data ? (
        <FormSkeleton />
      ) : (
        <ReminderForm view={data} onSaved={(saved) => update(() => saved)} />
      )}
    </section>
  );
}
