import { useId, useState, type FormEvent } from 'react';
import { integrationSchema, marketingTestSchema, type Integration } from '#machines/protocol/admin/integrations.js';
import { Button, cx, useToast } from '#web/components/ui/index.js';
import { api, ApiError } from '#web/lib/api.js';
import { useSession } from '#web/lib/session.js';
import { formatDateTime, useAdminFailure } from '../api.js';

/**
 * The email-marketing card's second half: the Brevo list confirmed leads join, a test of the saved
 * key, and how the newest lead sync went (a failure in words, e.g. an invalid key, until one succeeds).
 */
export function MarketingList({ setting, onChange }: { setting: Integration; onChange: (saved: Integration) => void }) {
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();
  const fieldId = useId();
  const [draft, setDraft] = useState(setting.listId ?? '');
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<{ ok: boolean; message: string } | null>(null);

  const save = (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    api('/api/admin/integrations/email_marketing', {
      method: 'PUT',
      body: { listId: draft.trim() },
      csrfToken: session.csrfToken,
      schema: integrationSchema,
    }).then(
      (saved) => {
        setSaving(false);
        onChange(saved);
        toast({ title: 'List Saved', description: 'Confirmed leads now join this Brevo list.', variant: 'success' });
      },
      (error: unknown) => {
        setSaving(false);
        // a refused id is named by its field's own words ("A Brevo list id is a whole number...")
        const said = error instanceof ApiError ? (error.fields.listId ?? error.message) : '';
        fail(error, said || 'Failed to save the list. Please try again.');
      },
    );
  };

  const test = () => {
    setTesting(true);
    setTested(null);
    api('/api/admin/integrations/email_marketing/test', { method: 'POST', csrfToken: session.csrfToken, schema: marketingTestSchema }).then(
      (answer) => {
        setTesting(false);
        setTested(answer);
      },
      (error: unknown) => {
        setTesting(false);
        fail(error, error instanceof Error && error.message ? error.message : 'The connection could not be tested. Please try again.');
      },
    );
  };

  const last = setting.lastSync;
  return (
    <div className="mt-4 flex flex-col gap-2 border-t border-line pt-4">
      <form method="post" onSubmit={save} className="flex flex-col gap-2">
        <label htmlFor={fieldId} className="text-sm font-semibold text-ink">
          Brevo list ID
        </label>
        <p className="text-xs text-muted">
          In Brevo, Contacts, Lists: the list's ID. Create the text attributes TIER, ARCHETYPE and SOURCE under Contacts, Settings.
        </p>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            id={fieldId}
            inputMode="numeric"
            value={draft}
            autoComplete="off"
            onChange={(event) => setDraft(event.target.value)}
            placeholder="e.g. 7"
            className="min-h-11 w-full min-w-0 rounded-xl border border-line bg-white px-4 text-ink placeholder:text-muted/80 focus:border-ink focus:outline-2 focus:outline-offset-1 focus:outline-brass"
          />
          <Button type="submit" size="sm" disabled={saving || draft.trim() === (setting.listId ?? '')} className="min-h-11 shrink-0">
            {saving ? 'Saving...' : 'Save list'}
          </Button>
        </div>
      </form>
      <div className="flex flex-col items-start gap-2">
        <Button type="button" size="sm" variant="secondary" onClick={test} disabled={!setting.configured || testing} className="min-h-11">
          {testing ? 'Testing...' : 'Test connection'}
        </Button>
        <p role="status" className={cx('text-sm', tested && (tested.ok ? 'font-medium text-success' : 'font-medium text-danger'))}>
          {tested?.message ?? ''}
        </p>
      </div>
      <p data-testid="marketing-last-sync" className={cx('text-sm', last?.failed ? 'font-medium text-danger' : 'text-muted')}>
        {!last
          ? 'No lead synced yet.'
          : last.failed
            ? `Last sync failed: ${last.message ?? 'unknown error'} (${formatDateTime(last.at)})`
            : `Last synced ${formatDateTime(last.at)}`}
      </p>
    </div>
  );
}
