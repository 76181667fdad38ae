-- Up Migration

-- Each lead's facts the Overview counts and the lead table sorts by, kept as they change
-- (decision 0055): a copy of the lead's lead_facts row (core/leads/lead-facts.ts, the one
-- definition), written only by refreshLeadFacts there, which the owner of every table a fact is
-- read from calls in the transaction that changes it. Two columns per payment fact: with test
-- payments (the scope includes test data) and without (live). Filled, and refilled whenever the
-- definition changes, by installLeadFacts when the server migrates.
CREATE TABLE lead_summaries (
  lead_id             uuid PRIMARY KEY REFERENCES leads (lead_id) ON DELETE CASCADE,
  created_at          timestamptz NOT NULL,
  test                boolean NOT NULL,
  diagnostic_done     boolean NOT NULL,
  survey_done         boolean NOT NULL,
  tier                text,
  leadership_score    float8,
  qualification_score float8,
  deposit_paid        boolean NOT NULL,
  homework_paid       boolean NOT NULL,
  session_booked      boolean NOT NULL,
  revenue_cents       integer NOT NULL,
  deposit_paid_live   boolean NOT NULL,
  homework_paid_live  boolean NOT NULL,
  session_booked_live boolean NOT NULL,
  revenue_live_cents  integer NOT NULL
);

-- A scope's cohort (its days, test leads in or out) with every counted fact: an index-only scan.
CREATE INDEX lead_summaries_created_at_idx ON lead_summaries (created_at)
  INCLUDE (test, diagnostic_done, survey_done, tier, deposit_paid, homework_paid, session_booked, revenue_cents,
           deposit_paid_live, homework_paid_live, session_booked_live, revenue_live_cents);

-- The lead table by a score, highest first: a page walks the index, its scope and tier checked on
-- the index's own tuples (a tier's first page can lie tens of thousands of higher scores down).
CREATE INDEX lead_summaries_leadership_score_idx ON lead_summaries (leadership_score DESC NULLS LAST, lead_id DESC)
  INCLUDE (created_at, test, tier);
CREATE INDEX lead_summaries_qualification_score_idx ON lead_summaries (qualification_score DESC NULLS LAST, lead_id DESC)
  INCLUDE (created_at, test, tier);

-- Down Migration

DROP TABLE lead_summaries;
