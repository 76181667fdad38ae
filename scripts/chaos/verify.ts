import type pg from 'pg';

/** What the database says after the run: each count is a list of what is wrong, empty when all is well. */
export interface Findings {
  /** Flows graded more than once, or a side effect (email, payment, survey response) stored twice. */
  duplicated: string[];
  /** Flows never graded, contact messages without both emails, webhook events never delivered. */
  lost: string[];
  /** Jobs or emails left unfinished, flows left waiting on the server. */
  stuck: string[];
}

const TRANSIENT_STATES = ['processing.grading', 'payment', 'homework_processing.sending', 'capture.saving'];

/**
 * Checks everything from PostgreSQL: each submitted flow graded exactly once (one result, one
 * survey response), each paid flow one succeeded payment, each homework one email, each contact
 * message its two emails, every job finished (completed, or failed and then retried to completion
 * by the coach), every email delivered or recorded, every lead event's webhook received.
 */
export async function verify(
  pool: pg.Pool,
  flowIds: string[],
  contactIds: string[],
  receivedEventIds: ReadonlySet<string>,
): Promise<Findings> {
  const findings: Findings = { duplicated: [], lost: [], stuck: [] };
  const perFlow = await pool.query<{ id: string; state: string; results: number; surveys: number; payments: number; homework: number }>(
    `SELECT f.id, f.state,
            (SELECT count(*) FROM assessment_results r WHERE r.flow_id = f.id)::int AS results,
            (SELECT count(*) FROM survey_responses s WHERE s.flow_id = f.id)::int AS surveys,
            (SELECT count(*) FROM payment_tracking p WHERE p.flow_id = f.id AND p.status = 'succeeded')::int AS payments,
            (SELECT count(*) FROM email_outbox e JOIN jobs j ON j.id = e.job_id WHERE j.flow_id = f.id AND e.kind IN ('homework', 'free_resources'))::int AS homework
     FROM flows f WHERE f.id = ANY($1::uuid[])`,
    [flowIds],
  );
  for (const flow of perFlow.rows) {
    if (flow.results === 0) findings.lost.push(`flow ${flow.id} was never graded (at ${flow.state})`);
    if (flow.results > 1 || flow.surveys > 1)
      findings.duplicated.push(`flow ${flow.id} graded ${flow.results} times (${flow.surveys} survey responses)`);
    if (flow.payments > 1) findings.duplicated.push(`flow ${flow.id} has ${flow.payments} succeeded payments`);
    if (flow.homework > 1) findings.duplicated.push(`flow ${flow.id} was sent homework ${flow.homework} times`);
    if (TRANSIENT_STATES.includes(flow.state)) findings.stuck.push(`flow ${flow.id} still waits at ${flow.state}`);
  }

  const contacts = await pool.query<{ id: string; emails: number }>(
    'SELECT c.id, (SELECT count(*) FROM email_outbox e WHERE e.contact_id = c.id)::int AS emails FROM contact_submissions c WHERE c.id = ANY($1::uuid[])',
    [contactIds],
  );
  for (const contact of contacts.rows) {
    if (contact.emails < 2) findings.lost.push(`contact ${contact.id} has ${contact.emails} of its 2 emails`);
    if (contact.emails > 2) findings.duplicated.push(`contact ${contact.id} has ${contact.emails} emails`);
  }

  // a timer not yet due (a follow-up reminder a day away) waits by design: only one past its time is stuck
  const unfinished = await pool.query<{ id: string; queue: string; status: string }>(
    "SELECT id, queue, status FROM jobs WHERE status <> 'completed' AND NOT (queue = 'timers' AND run_after > now())",
  );
  for (const job of unfinished.rows) findings.stuck.push(`${job.queue} job ${job.id} is ${job.status}`);
  const undelivered = await pool.query<{ id: string; kind: string; status: string }>(
    "SELECT id, kind, status FROM email_outbox WHERE status NOT IN ('sent', 'recorded')",
  );
  for (const email of undelivered.rows) findings.stuck.push(`${email.kind} email ${email.id} is ${email.status}`);

  const webhooks = await pool.query<{ id: string }>("SELECT id FROM jobs WHERE queue = 'webhooks'");
  for (const job of webhooks.rows)
    if (!receivedEventIds.has(job.id)) findings.lost.push(`webhook event ${job.id} never reached its receiver`);
  return findings;
}
