import { useId, useState } from 'react';
import { Button, useToast } from '#web/components/ui/index.js';
import { api } from '#web/lib/api.js';
import { useSession } from '#web/lib/session.js';
import { formatDateTime, useAdminFailure } from '../api.js';
import { leadNoteSchema, type LeadNote } from '#machines/protocol/admin/leads.js';
import { EmptyState, Panel } from '../states.js';

/** The coach's notes on a lead, newest first, with a form to add one. */
export function NotesPanel({ leadId, notes, onAdded }: { leadId: string; notes: LeadNote[]; onAdded: (note: LeadNote) => void }) {
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!body.trim()) return;
    setBusy(true);
    try {
      const note = await api(`/api/admin/leads/${leadId}/notes`, {
        method: 'POST',
        body: { body: body.trim() },
        csrfToken: session.csrfToken,
        schema: leadNoteSchema,
      });
      onAdded(note);
      setBody('');
      toast({ title: 'Note added' });
    } catch (error) {
      fail(error, 'Failed to add the note. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel title="Notes" id="lead-notes">
      {/* submit() reports its own failures */}
      <form method="post" onSubmit={(event) => void submit(event)} className="mb-4 flex flex-col gap-2">
        <label htmlFor={id} className="text-sm font-semibold text-ink">
          Add a note
        </label>
        <textarea
          id={id}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          rows={3}
          maxLength={5000}
          className="w-full rounded-xl border border-line p-3 text-ink focus:border-ink focus:outline-2 focus:outline-offset-1 focus:outline-brass"
        />
        <div>
          <Button type="submit" size="sm" loading={busy} disabled={!body.trim()}>
            Add note
          </Button>
        </div>
      </form>
      {notes.length === 0 ? (
        <EmptyState>No notes yet</EmptyState>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Notes">
          {notes.map((note) => (
            <li key={note.id} className="rounded-xl bg-sand/50 p-3">
              <p className="break-words whitespace-pre-wrap text-ink">{note.body}</p>
              <p className="mt-1 text-xs text-muted">
                {note.author_email ?? 'Unknown author'} ·{' '}
                <time dateTime={note.created_at.toISOString()}>{formatDateTime(note.created_at)}</time>
              </p>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
