import { bookingLink } from '#machines/booking-link.js';
import { completedPathOf } from '#machines/protocol/snapshots.js';
import { assessmentReminder, bookingReminder } from '#core/email/follow-up-templates.js';
import { RESUME_LINK_DAYS, resumeLink } from '#core/flows/resume-link.js';
import { bookingUrl } from '#core/integrations/settings.js';
import { DEFAULT_LEAD_NAME } from '#core/leads/lead-service.js';
import { bookingReferenceFor } from '#core/scheduling/booking-references.js';
import { readSiteSettings } from '#core/site/settings.js';
import { reminderComposer } from './follow-up-email.js';

/** The assessment's steps before it is graded (asked to retake included): a flow standing at one of them is unfinished. */
const UNFINISHED_STEPS = new Set(['opening', 'capture', 'intro', 'mirror', 'diagnostic', 'survey', 'email_capture', 'gaming_detected']);

/**
 * 'assessment-reminder': a day after capture, the way back into an unfinished assessment. Only to a
 * proven address: a capture is one typed line, which anybody can type for anybody (decision 0045).
 */
export const sendAssessmentReminder = reminderComposer({
  kind: 'assessment_reminder',
  onlyToProvenAddress: true,
  notDue: (_db, { state }) => Promise.resolve(UNFINISHED_STEPS.has(state.split('.')[0]!) ? null : `the assessment went on to ${state}`),
  content: async (db, config, target, unsubscribeUrl) =>
    assessmentReminder(
      {
        name: target.lead.name,
        unsubscribeUrl,
        resumeUrl: await resumeLink(db, config.publicUrl, target.flowId),
        linkDays: RESUME_LINK_DAYS,
      },
      await readSiteSettings(db),
    ),
});

/**
 * 'booking-reminder': a day after the deposit, the booking page, unless the session is booked or the
 * deposit refunded. The deposit paid in this flow is the asking: the session it pays for is booked
 * there (decision 0045).
 */
export const sendBookingReminder = reminderComposer({
  kind: 'booking_reminder',
  onlyToProvenAddress: false,
  notDue: async (db, { flowId, snapshot }) => {
    const path = completedPathOf(snapshot);
    if (path?.kind === 'deposit_paid' && path.booking === 'booked') return 'the session is booked';
    const refunded = await db.query("SELECT 1 FROM payment_tracking WHERE flow_id = $1 AND purpose = 'deposit' AND status = 'refunded'", [
      flowId,
    ]);
    return refunded.rowCount ? 'the deposit was refunded' : null;
  },
  content: async (db, _config, { flowId, lead }, unsubscribeUrl) => {
    const visitor = { name: lead.name === DEFAULT_LEAD_NAME ? null : lead.name, email: lead.email };
    return bookingReminder(
      { name: lead.name, unsubscribeUrl, bookingUrl: bookingLink(visitor, await bookingUrl(db), await bookingReferenceFor(db, flowId)) },
      await readSiteSettings(db),
    );
  },
});
