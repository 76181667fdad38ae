import { useId, useState, type FormEvent } from 'react';
import { integrationSchema, type Integration } from '#machines/protocol/admin/integrations.js';
import { Button, useToast } from '#web/components/ui/index.js';
import { api } from '#web/lib/api.js';
import { useSession } from '#web/lib/session.js';
import { useAdminFailure } from '../api.js';

const SCHEDULING_WEBHOOK_PATH = '/api/integrations/scheduling/webhook';

/**
 * The scheduling card's second half: the address to give Calendly or Cal.com for booking events,
 * and the signing key chosen there, saved write-only (read back masked), without which the
 * webhook refuses every event.
 */
export function BookingWebhook({ setting, onChange }: { setting: Integration; onChange: (saved: Integration) => void }) {
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();
  const fieldId = useId();
  const [draft, setDraft] = useState('');
  const [saving, setSaving] = useState(false);
  const address = `${window.location.origin}${SCHEDULING_WEBHOOK_PATH}`;

  const save = (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    api('/api/admin/integrations/scheduling', {
      method: 'PUT',
      body: { webhookKey: draft.trim() },
      csrfToken: session.csrfToken,
      schema: integrationSchema,
    }).then(
      (saved) => {
        setSaving(false);
        setDraft('');
        onChange(saved);
        toast({ title: 'Signing Key Saved', description: 'Bookings and cancellations now reach your leads.', variant: 'success' });
      },
      (error: unknown) => {
        setSaving(false);
        fail(error, error instanceof Error && error.message ? error.message : 'Failed to save the signing key. Please try again.');
      },
    );
  };

  return (
    <form method="post" onSubmit={save} className="mt-4 flex flex-col gap-2 border-t border-line pt-4">
      <p className="text-sm font-semibold text-ink">Booking events</p>
      <p className="min-w-0 text-xs break-all text-muted">
        In Calendly (webhook subscription) or Cal.com (Settings, Developer, Webhooks), send booking created, cancelled and rescheduled
        events to <code className="text-ink">{address}</code> with a signing key of your choice, and paste the same key here.
      </p>
      {setting.webhookKey && <p className="text-sm font-medium text-success">Signing key saved ({setting.webhookKey})</p>}
      <label htmlFor={fieldId} className="text-sm font-semibold text-ink">
        Webhook signing key
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={fieldId}
          type="password"
          value={draft}
          autoComplete="off"
          minLength={16}
          onChange={(event) => setDraft(event.target.value)}
          placeholder={setting.webhookKey ? 'Enter a new key to replace it' : 'At least 16 characters'}
          className="min-h-11 w-full min-w-0 rounded-xl border border-line bg-white px-4 text-ink placeholder:text-muted/80 focus:border-ink focus:outline-2 focus:outline-offset-1 focus:outline-brass"
        />
        <Button type="submit" size="sm" disabled={draft.trim().length < 16 || saving} className="min-h-11 shrink-0">
          {saving ? 'Saving...' : 'Save key'}
        </Button>
      </div>
    </form>
  );
}
