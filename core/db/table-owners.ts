/*
 * Who writes each table (decision 0037): one module per table, which every other module calls, so
 * what a table holds is decided in one place. `scripts/table-owners.ts` (run by `npm run lint`)
 * fails when SQL that writes a table appears anywhere else, or when a table of the schema has no
 * owner here; docs/architecture.md shows this map ("Who writes what"), kept equal to it by
 * scripts/table-owners.test.ts.
 */

export interface TableOwner {
  /** The module, from the repository's root. */
  owner: string;
  /** The tables it alone writes: one table, or a table and its children. */
  tables: readonly string[];
  /** Why these tables are written there: one line. */
  why: string;
}

export const TABLE_OWNERS: readonly TableOwner[] = [
  {
    owner: 'core/flows/flow-store.ts',
    tables: ['flows', 'flow_events'],
    why: 'a flow changes by its machine: the engine stores each event with its snapshot, in one statement',
  },
  {
    owner: 'core/leads/lead-service.ts',
    tables: ['leads'],
    why: 'one lead per address outside testing mode, decided where it is written',
  },
  {
    owner: 'core/leads/lead-facts.ts',
    tables: ['lead_summaries'],
    why: "a lead's counted facts kept as its lead_facts row says, by the one definition, whoever changed them (decision 0055)",
  },
  {
    owner: 'core/leads/lead-attempts.ts',
    tables: ['lead_attempts'],
    why: 'a known address captured without proof waits beside its lead until the address is confirmed (decision 0044)',
  },
  { owner: 'core/leads/tokens.ts', tables: ['lead_tokens'], why: 'a single-use token is claimed by one conditional update' },
  { owner: 'core/leads/interactions.ts', tables: ['interactions'], why: "a lead's activity lines, whoever adds one" },
  { owner: 'server/admin/queries.ts', tables: ['lead_notes'], why: 'only the coach writes notes, from the lead page' },
  {
    owner: 'core/grading/results-store.ts',
    tables: ['diagnostics', 'diagnostic_results', 'survey_responses', 'assessment_results'],
    why: "a grading's results, stored by every grading path that stores one",
  },
  {
    owner: 'core/reports/store.ts',
    tables: ['report_pdfs'],
    why: 'a report is drawn at its first open and kept for the result and name it shows (decision 0040)',
  },
  {
    owner: 'core/grading/rule-sets.ts',
    tables: ['grading_rule_sets', 'grading_applications'],
    why: 'the rules in force are the latest application: versions and history in one place',
  },
  {
    owner: 'core/queues/outbox.ts',
    tables: ['jobs'],
    why: 'a job row is the system of record of its work, from its birth to its removal (decision 0004)',
  },
  {
    owner: 'core/email/outbox.ts',
    tables: ['email_outbox'],
    why: 'every email is a row first, sent at most once (decision 0015)',
  },
  { owner: 'core/email/unsubscribe.ts', tables: ['email_unsubscribes'], why: 'an address opts out of reminders once' },
  {
    owner: 'core/payments/payment-tracking.ts',
    tables: ['payment_tracking'],
    why: "a payment's status moves one way: pending, then succeeded, failed or canceled, then refunded",
  },
  {
    owner: 'core/integrations/webhook-receipts.ts',
    tables: ['webhook_receipts'],
    why: "each provider's event is applied once: its receipt commits with its effects",
  },
  {
    owner: 'core/scheduling/booking-references.ts',
    tables: ['booking_references'],
    why: "a flow's booking reference is issued once, at random, so a booking event is matched by what only its link carried (decision 0046)",
  },
  {
    owner: 'core/scheduling/scheduled-bookings.ts',
    tables: ['scheduled_bookings'],
    why: 'every reported booking, matched or kept for the coach to assign; a cancellation or reschedule finds it by its provider id',
  },
  { owner: 'core/integrations/settings.ts', tables: ['integration_settings'], why: 'values are checked and secrets kept write-only' },
  {
    owner: 'core/integrations/marketing-contacts.ts',
    tables: ['marketing_contacts'],
    why: "each confirmed lead's last sync to the email-marketing list, or why it failed (decision 0048)",
  },
  { owner: 'core/mirror/store.ts', tables: ['mirror_sessions', 'mirror_messages'], why: 'messages are kept only for a saved session' },
  { owner: 'core/site/settings.ts', tables: ['site_settings'], why: 'one row, checked field by field' },
  {
    owner: 'core/site/reminder-settings.ts',
    tables: ['reminder_settings'],
    why: "the reminders' on/off and delay, read when a timer is set (decision 0049)",
  },
  {
    owner: 'core/slack/monitor-store.ts',
    tables: ['chat_bot_messages', 'processed_assessments'],
    why: "the team chat's messages and the assessments grouped from them",
  },
  { owner: 'core/contact/submissions.ts', tables: ['contact_submissions'], why: 'a message from the form, then handled by the coach' },
  { owner: 'core/visitors.ts', tables: ['visitors'], why: 'a visitor is an id and when its results were cleared, nothing more' },
  { owner: 'core/app-secrets.ts', tables: ['app_secrets'], why: 'a key made once, on first use, shared by every process' },
  { owner: 'server/routes/visits.ts', tables: ['site_visits'], why: 'a visit is counted once a day per visitor and page' },
  { owner: 'server/auth/admin-users.ts', tables: ['users'], why: 'admins and their passwords, hashed' },
  { owner: 'server/auth/sessions.ts', tables: ['sessions'], why: "only a token's hash is stored; sessions expire and end here" },
];

/**
 * Writes allowed outside the owners: the benchmark and fault run's seeding (scripts, like the
 * tests' fixtures), and tables the product does not have.
 */
export const WRITE_EXCEPTIONS: readonly { file: string; tables: readonly string[]; why: string }[] = [
  {
    file: 'scripts/bench/seed.ts',
    tables: ['leads', 'visitors', 'flows'],
    why: 'seeds thousands of flows at the survey in a few statements, where the owners write one row at a time',
  },
  {
    file: 'scripts/bench/bare/server.ts',
    tables: ['bare_events', 'bare_jobs'],
    why: "the bare baseline's own tables, made by the benchmark, not the product's",
  },
  { file: 'scripts/bench/bare/worker.ts', tables: ['bare_results'], why: "the bare baseline's own table, made by the benchmark" },
  {
    file: 'scripts/bench/admin-seed.ts',
    tables: [
      ...['visitors', 'leads', 'flows', 'flow_events', 'jobs', 'diagnostics', 'diagnostic_results', 'survey_responses'],
      ...['assessment_results', 'payment_tracking', 'mirror_sessions', 'mirror_messages', 'site_visits'],
      ...['bench_journeys', 'bench_journey_events', 'bl'],
    ],
    why: "seeds 100,000 leads with everything their journeys wrote in set operations (the journeys run through the real machines); and the seed's own temporary tables",
  },
];
