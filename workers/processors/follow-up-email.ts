import { UnrecoverableError } from 'bullmq';
import type pg from 'pg';
import { z } from 'zod';
import type { Config } from '#core/config/index.js';
import { coachAddress } from '#core/email/coach.js';
import type { EmailContent } from '#core/email/compose.js';
import type { FollowUpEmailKind } from '#core/email/follow-up-templates.js';
import { savedReminderSetting } from '#core/site/reminder-settings.js';
import { isUnsubscribed, unsubscribeLinks, unsubscribeToken } from '#core/email/unsubscribe.js';
import { sendComposedEmail } from './composed-email.js';
import type { Processor } from './processor.js';

/** The payload the assessment flow's reminder delays write: the flow and its lead. */
const payloadSchema = z.object({ flowId: z.uuid(), request: z.object({ leadId: z.uuid() }) });

/** The flow a reminder is about and the lead it goes to. */
interface ReminderTarget {
  flowId: string;
  leadId: string;
  state: string;
  snapshot: unknown;
  lead: { email: string; name: string };
  /** A link mailed to the lead's address was followed (leads.email_proven_at): its owner reads it. */
  proven: boolean;
}

interface TargetRow {
  state: string;
  snapshot: unknown;
  testing: boolean;
  email: string;
  name: string;
  test_lead: boolean;
  proven: boolean;
}

/** A reminder: its kind, why it may no longer be due, and its content. */
interface Reminder {
  kind: FollowUpEmailKind;
  /**
   * Whether only a proven address gets it (decision 0045): a reminder nobody asked for goes only to
   * an inbox whose owner has followed a link mailed to it, never to an address that was only typed.
   */
  onlyToProvenAddress: boolean;
  /** Why the flow no longer needs it (finished, booked, refunded), or null when it is still due. */
  notDue: (db: pg.ClientBase, target: ReminderTarget) => Promise<string | null>;
  content: (db: pg.ClientBase, config: Config, target: ReminderTarget, unsubscribeUrl: string) => Promise<EmailContent>;
}

async function reminderTarget(db: pg.ClientBase, flowId: string, leadId: string): Promise<ReminderTarget | { skipped: string }> {
  const found = await db.query<TargetRow>(
    `SELECT f.state, f.snapshot, f.testing, l.email, l.name, l.test AS test_lead,
            (SELECT email_proven_at IS NOT NULL FROM leads WHERE lead_id = $2) AS proven
     FROM flows f JOIN lead_facts(true) l ON l.lead_id = $2 WHERE f.id = $1`,
    [flowId, leadId],
  );
  const row = found.rows[0];
  if (!row) return { skipped: 'the flow or its lead was deleted' };
  if (row.testing || row.test_lead) return { skipped: 'a test flow' };
  if (await isUnsubscribed(db, row.email)) return { skipped: 'the address unsubscribed from reminders' };
  return { flowId, leadId, state: row.state, snapshot: row.snapshot, lead: { email: row.email, name: row.name }, proven: row.proven };
}

/** Why a reminder whose timer was set before the coach turned it off was not written. */
const TURNED_OFF = 'the coach turned this reminder off in the admin (Site settings)';

/** Why a reminder that needs a proven address was not written. */
export const NOT_ASKED_FOR = 'the address was never proven (no link mailed to it was followed), so nobody there asked for a reminder';

/**
 * The job of one follow-up reminder, which the flow's delay wrote: nothing for a test flow, an
 * unsubscribed address, an address that did not ask for it, or a flow that no longer needs it (checked when it runs, a day after it was
 * planned); else the row, keyed by the job like the results email so a second run delivers the
 * first run's row instead of writing another, with the one-click unsubscribe headers (RFC 8058).
 */
export function reminderComposer(reminder: Reminder): Processor {
  return async (job, context) => {
    const parsed = payloadSchema.safeParse(job.data.payload);
    if (!parsed.success) throw new UnrecoverableError(`Unusable ${reminder.kind} payload: ${parsed.error.message}`);
    const { config } = context;
    return sendComposedEmail(context, job.data.jobRowId, async (db) => {
      // turned off after its timer was set: the timer kept its due time, the reminder is not sent (decision 0049)
      if ((await savedReminderSetting(db, reminder.kind))?.enabled === false) return { skipped: TURNED_OFF };
      const target = await reminderTarget(db, parsed.data.flowId, parsed.data.request.leadId);
      if ('skipped' in target) return target;
      const notDue = await reminder.notDue(db, target);
      if (notDue) return { skipped: notDue };
      if (reminder.onlyToProvenAddress && !target.proven) return { skipped: NOT_ASKED_FOR };
      const links = unsubscribeLinks(config.publicUrl, await unsubscribeToken(db, target.leadId));
      return {
        draft: {
          kind: reminder.kind,
          to: target.lead.email,
          replyTo: await coachAddress(db, config),
          leadId: target.leadId,
          headers: links.headers,
          ...(await reminder.content(db, config, target, links.page)),
        },
      };
    });
  };
}
