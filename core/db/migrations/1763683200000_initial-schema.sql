-- Up Migration
-- The whole product's data model. Column names follow the spec (section 3) where it gives them.
-- Conventions: uuid keys from gen_random_uuid(), timestamptz everywhere, snake_case, an
-- updated_at trigger on mutable rows, CHECKs that mirror the zod schemas at the edge so a bug
-- in one layer cannot write a value the other would reject.

CREATE FUNCTION set_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END;
$$;

-- Admin sign-in --------------------------------------------------------------------------------

CREATE TABLE users (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email                text NOT NULL CHECK (email = lower(btrim(email)) AND email LIKE '%_@_%' AND length(email) <= 320),
  password_hash        text NOT NULL,
  role                 text NOT NULL DEFAULT 'admin' CHECK (role IN ('admin')),
  -- set for a generated bootstrap password, cleared when the admin chooses their own
  must_change_password boolean NOT NULL DEFAULT false,
  last_sign_in_at      timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (email);
CREATE TRIGGER users_updated_at BEFORE UPDATE ON users FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- The cookie carries a random token; only its SHA-256 is stored, so a database leak gives no sessions.
CREATE TABLE sessions (
  token_hash   text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  ip           inet,
  user_agent   text CHECK (length(user_agent) <= 512),
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  CHECK (expires_at > created_at)
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

-- Leads ----------------------------------------------------------------------------------------

CREATE TABLE leads (
  lead_id     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email       text NOT NULL CHECK (email = btrim(email) AND email LIKE '%_@_%' AND length(email) <= 320),
  name        text NOT NULL DEFAULT 'Community Member' CHECK (length(btrim(name)) BETWEEN 1 AND 200),
  source      text NOT NULL DEFAULT 'website' CHECK (source ~ '^[a-z0-9_-]{1,40}$'),
  archetype   text CHECK (length(archetype) <= 100),
  -- latest grading outcome, kept here so the admin lead table sorts and filters without a join
  tier        text CHECK (tier IN ('book_call', 'homework', 'nurture')),
  total_score numeric(5, 2) CHECK (total_score BETWEEN 0 AND 100),
  tags        text[] NOT NULL DEFAULT '{}' CHECK (array_position(tags, NULL) IS NULL),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
-- One lead per address, case-insensitively; testing mode deliberately creates duplicates tagged 'test'.
CREATE UNIQUE INDEX leads_email_key ON leads (lower(email)) WHERE NOT ('test' = ANY (tags));
CREATE INDEX leads_email_lower_idx ON leads (lower(email));
CREATE INDEX leads_created_at_idx ON leads (created_at DESC);
CREATE INDEX leads_tags_idx ON leads USING gin (tags);
CREATE INDEX leads_tier_idx ON leads (tier) WHERE tier IS NOT NULL;
CREATE INDEX leads_source_idx ON leads (source);
CREATE TRIGGER leads_updated_at BEFORE UPDATE ON leads FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE lead_tokens (
  token      text PRIMARY KEY CHECK (length(token) BETWEEN 16 AND 200),
  lead_id    uuid REFERENCES leads (lead_id) ON DELETE CASCADE,
  email      text CHECK (length(email) <= 320),
  name       text CHECK (length(name) <= 200),
  source     text NOT NULL DEFAULT 'token' CHECK (source ~ '^[a-z0-9_-]{1,40}$'),
  reusable   boolean NOT NULL DEFAULT false,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lead_tokens_lead_id_idx ON lead_tokens (lead_id);

CREATE TABLE interactions (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  lead_id    uuid NOT NULL REFERENCES leads (lead_id) ON DELETE CASCADE,
  type       text NOT NULL CHECK (type ~ '^[a-z_]{1,40}$'),
  content    text CHECK (length(content) <= 10000),
  metadata   jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX interactions_lead_id_idx ON interactions (lead_id, created_at);

CREATE TABLE lead_notes (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  lead_id    uuid NOT NULL REFERENCES leads (lead_id) ON DELETE CASCADE,
  author_id  uuid REFERENCES users (id) ON DELETE SET NULL,
  body       text NOT NULL CHECK (length(btrim(body)) BETWEEN 1 AND 5000),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lead_notes_lead_id_idx ON lead_notes (lead_id, created_at);

-- Flows: the server-side copy of every XState machine a visitor runs ----------------------------

CREATE TABLE flows (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  machine    text NOT NULL CHECK (machine ~ '^[A-Za-z]{1,40}$'),
  mode       text NOT NULL DEFAULT 'assessment' CHECK (mode IN ('assessment', 'mirror')),
  lead_id    uuid REFERENCES leads (lead_id) ON DELETE CASCADE,
  -- dotted state path (e.g. 'diagnostic.question'), kept beside the snapshot for counting and filtering
  state      text NOT NULL CHECK (length(state) BETWEEN 1 AND 200),
  snapshot   jsonb NOT NULL CHECK (jsonb_typeof(snapshot) = 'object'),
  -- bumped by every applied event; writers compare-and-set on it so two events never interleave
  version    integer NOT NULL DEFAULT 0 CHECK (version >= 0),
  testing    boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX flows_lead_id_idx ON flows (lead_id);
CREATE INDEX flows_machine_state_idx ON flows (machine, state);
CREATE TRIGGER flows_updated_at BEFORE UPDATE ON flows FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Append-only: every event applied to a flow, in order; the lead's journey and its replay.
CREATE TABLE flow_events (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  flow_id     uuid NOT NULL REFERENCES flows (id) ON DELETE CASCADE,
  seq         integer NOT NULL CHECK (seq >= 1),
  type        text NOT NULL CHECK (length(type) BETWEEN 1 AND 80),
  payload     jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(payload) = 'object'),
  origin      text NOT NULL CHECK (origin IN ('client', 'server', 'worker')),
  state_after text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (flow_id, seq)
);

CREATE FUNCTION forbid_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END;
$$;
-- Deletes stay possible (cascade from a data-protection erase); edits never are.
CREATE TRIGGER flow_events_append_only BEFORE UPDATE ON flow_events FOR EACH ROW EXECUTE FUNCTION forbid_change();

-- The outbox: a job is born here in the transaction of the event that causes it; a relay copies
-- it into BullMQ with jobId = id, so neither a retry nor a second relay duplicates it.
CREATE TABLE jobs (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  queue        text NOT NULL CHECK (queue IN ('grading', 'homework', 'mirror', 'email', 'webhooks', 'slack')),
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  payload      jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(payload) = 'object'),
  flow_id      uuid REFERENCES flows (id) ON DELETE CASCADE,
  lead_id      uuid REFERENCES leads (lead_id) ON DELETE CASCADE,
  status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'enqueued', 'active', 'completed', 'failed')),
  attempts     integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  max_attempts integer NOT NULL DEFAULT 5 CHECK (max_attempts BETWEEN 1 AND 50),
  last_error   text,
  result       jsonb,
  created_at   timestamptz NOT NULL DEFAULT now(),
  enqueued_at  timestamptz,
  finished_at  timestamptz,
  updated_at   timestamptz NOT NULL DEFAULT now()
);
-- The relay only ever scans unfinished rows.
CREATE INDEX jobs_unfinished_idx ON jobs (created_at) WHERE status IN ('pending', 'enqueued', 'active');
CREATE INDEX jobs_lead_id_idx ON jobs (lead_id) WHERE lead_id IS NOT NULL;
CREATE INDEX jobs_flow_id_idx ON jobs (flow_id) WHERE flow_id IS NOT NULL;
CREATE INDEX jobs_queue_status_idx ON jobs (queue, status);
CREATE TRIGGER jobs_updated_at BEFORE UPDATE ON jobs FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Diagnostic, survey and results ---------------------------------------------------------------

CREATE TABLE diagnostics (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  lead_id      uuid REFERENCES leads (lead_id) ON DELETE CASCADE,
  flow_id      uuid REFERENCES flows (id) ON DELETE CASCADE,
  bank_version text NOT NULL CHECK (length(bank_version) BETWEEN 1 AND 20),
  status       text NOT NULL DEFAULT 'in_progress' CHECK (status IN ('in_progress', 'completed')),
  started_at   timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  CHECK ((status = 'completed') = (completed_at IS NOT NULL))
);
CREATE INDEX diagnostics_lead_id_idx ON diagnostics (lead_id);
CREATE INDEX diagnostics_flow_id_idx ON diagnostics (flow_id);

CREATE TABLE diagnostic_answers (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  diagnostic_id uuid NOT NULL REFERENCES diagnostics (id) ON DELETE CASCADE,
  item_id       text NOT NULL CHECK (item_id ~ '^[A-Za-z0-9_-]{1,60}$'),
  type          text NOT NULL CHECK (type IN ('likert', 'vignette', 'ranking')),
  -- a number (likert), an option id (vignette) or the ordered item ids (ranking)
  value         jsonb NOT NULL CHECK (jsonb_typeof(value) IN ('number', 'string', 'array')),
  confidence    smallint CHECK (confidence BETWEEN 1 AND 5),
  response_ms   integer NOT NULL CHECK (response_ms >= 0),
  timed_out     boolean NOT NULL DEFAULT false,
  -- when the server showed the item; timed items are judged against this, not the browser's clock
  shown_at      timestamptz,
  answered_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (diagnostic_id, item_id)
);

CREATE TABLE diagnostic_results (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  diagnostic_id   uuid NOT NULL UNIQUE REFERENCES diagnostics (id) ON DELETE CASCADE,
  lead_id         uuid REFERENCES leads (lead_id) ON DELETE CASCADE,
  scores          jsonb NOT NULL CHECK (jsonb_typeof(scores) = 'object'),
  archetype       text NOT NULL CHECK (length(archetype) BETWEEN 1 AND 100),
  narrative       text NOT NULL,
  bank_version    text NOT NULL,
  grading_version text NOT NULL,
  completed_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX diagnostic_results_lead_id_idx ON diagnostic_results (lead_id);
CREATE INDEX diagnostic_results_completed_at_idx ON diagnostic_results (completed_at DESC);

CREATE TABLE survey_responses (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  lead_id      uuid NOT NULL REFERENCES leads (lead_id) ON DELETE CASCADE,
  flow_id      uuid REFERENCES flows (id) ON DELETE CASCADE,
  -- the grading job that stored it: a re-run of the same job finds its row instead of adding one
  job_id       uuid UNIQUE REFERENCES jobs (id) ON DELETE SET NULL,
  answers      jsonb NOT NULL CHECK (jsonb_typeof(answers) = 'object'),
  survey_score numeric(5, 2) CHECK (survey_score BETWEEN 0 AND 100),
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX survey_responses_lead_id_idx ON survey_responses (lead_id);
CREATE INDEX survey_responses_created_at_idx ON survey_responses (created_at DESC);

CREATE TABLE assessment_results (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  lead_id          uuid NOT NULL REFERENCES leads (lead_id) ON DELETE CASCADE,
  flow_id          uuid REFERENCES flows (id) ON DELETE CASCADE,
  diagnostic_id    uuid REFERENCES diagnostics (id) ON DELETE CASCADE,
  job_id           uuid UNIQUE REFERENCES jobs (id) ON DELETE SET NULL,
  tier             text NOT NULL CHECK (tier IN ('book_call', 'homework', 'nurture')),
  qualification    text NOT NULL CHECK (length(qualification) BETWEEN 1 AND 40),
  archetype        text NOT NULL CHECK (length(archetype) BETWEEN 1 AND 100),
  total_score      numeric(5, 2) NOT NULL CHECK (total_score BETWEEN 0 AND 100),
  diagnostic_score numeric(5, 2) NOT NULL CHECK (diagnostic_score BETWEEN 0 AND 100),
  survey_score     numeric(5, 2) NOT NULL CHECK (survey_score BETWEEN 0 AND 100),
  mirror_score     numeric(5, 2) NOT NULL CHECK (mirror_score BETWEEN 0 AND 100),
  composite_score  numeric(5, 2) NOT NULL CHECK (composite_score BETWEEN 0 AND 100),
  gaming_detected  boolean NOT NULL DEFAULT false,
  fallback         boolean NOT NULL DEFAULT false,
  -- the full result object shown to the visitor (narrative, scores, insights, reasoning)
  result           jsonb NOT NULL CHECK (jsonb_typeof(result) = 'object'),
  bank_version     text NOT NULL,
  grading_version  text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assessment_results_lead_id_idx ON assessment_results (lead_id, created_at DESC);
CREATE INDEX assessment_results_flow_id_idx ON assessment_results (flow_id);

-- Mirror -----------------------------------------------------------------------------------------

CREATE TABLE mirror_sessions (
  -- generated by the browser at the first send (spec), validated as a uuid at the edge
  id         uuid PRIMARY KEY,
  lead_id    uuid REFERENCES leads (lead_id) ON DELETE CASCADE,
  flow_id    uuid REFERENCES flows (id) ON DELETE CASCADE,
  saved      boolean NOT NULL DEFAULT false,
  turns      smallint NOT NULL DEFAULT 0 CHECK (turns BETWEEN 0 AND 5),
  completed  boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mirror_sessions_lead_id_idx ON mirror_sessions (lead_id);
CREATE INDEX mirror_sessions_created_at_idx ON mirror_sessions (created_at DESC);
CREATE TRIGGER mirror_sessions_updated_at BEFORE UPDATE ON mirror_sessions FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Only written when the visitor ticked 'Save this session (optional)'.
CREATE TABLE mirror_messages (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES mirror_sessions (id) ON DELETE CASCADE,
  role       text NOT NULL CHECK (role IN ('user', 'mirror')),
  content    text NOT NULL CHECK (length(content) BETWEEN 1 AND 4000),
  turn       smallint NOT NULL CHECK (turn BETWEEN 0 AND 5),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mirror_messages_session_id_idx ON mirror_messages (session_id, id);

-- Payments ---------------------------------------------------------------------------------------

CREATE TABLE payment_tracking (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  payment_intent_id   text UNIQUE CHECK (length(payment_intent_id) BETWEEN 1 AND 255),
  checkout_session_id text UNIQUE CHECK (length(checkout_session_id) BETWEEN 1 AND 255),
  lead_id             uuid REFERENCES leads (lead_id) ON DELETE CASCADE,
  flow_id             uuid REFERENCES flows (id) ON DELETE SET NULL,
  purpose             text NOT NULL CHECK (purpose IN ('deposit', 'paid_homework')),
  amount_cents        integer NOT NULL CHECK (amount_cents > 0),
  currency            text NOT NULL DEFAULT 'usd' CHECK (currency ~ '^[a-z]{3}$'),
  status              text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'canceled', 'refunded')),
  test_mode           boolean NOT NULL DEFAULT false,
  refund_id           text,
  refunded_at         timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  CHECK (payment_intent_id IS NOT NULL OR checkout_session_id IS NOT NULL),
  CHECK ((status = 'refunded') = (refunded_at IS NOT NULL))
);
CREATE INDEX payment_tracking_lead_id_idx ON payment_tracking (lead_id);
CREATE TRIGGER payment_tracking_updated_at BEFORE UPDATE ON payment_tracking FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Inbound webhooks (Stripe, Slack) are processed once per provider event id; retries find their row.
CREATE TABLE webhook_receipts (
  provider    text NOT NULL CHECK (provider IN ('stripe', 'slack')),
  event_id    text NOT NULL CHECK (length(event_id) BETWEEN 1 AND 255),
  type        text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);

-- Contact and email --------------------------------------------------------------------------------

CREATE TABLE contact_submissions (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
  email      text NOT NULL CHECK (email LIKE '%_@_%' AND length(email) <= 320),
  company    text CHECK (length(company) <= 200),
  message    text NOT NULL CHECK (length(btrim(message)) BETWEEN 1 AND 10000),
  handled    boolean NOT NULL DEFAULT false,
  handled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (handled = (handled_at IS NOT NULL))
);
CREATE INDEX contact_submissions_created_at_idx ON contact_submissions (created_at DESC);
CREATE INDEX contact_submissions_email_lower_idx ON contact_submissions (lower(email));

-- Every email the product sends; with no SMTP configured the outbox itself is the delivery.
CREATE TABLE email_outbox (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  lead_id             uuid REFERENCES leads (lead_id) ON DELETE CASCADE,
  contact_id          uuid REFERENCES contact_submissions (id) ON DELETE CASCADE,
  job_id              uuid UNIQUE REFERENCES jobs (id) ON DELETE SET NULL,
  kind                text NOT NULL CHECK (kind IN ('contact_confirmation', 'contact_notification', 'homework', 'free_resources')),
  to_address          text NOT NULL CHECK (to_address LIKE '%_@_%' AND length(to_address) <= 320),
  subject             text NOT NULL CHECK (length(subject) BETWEEN 1 AND 300),
  text_body           text NOT NULL,
  html_body           text,
  -- names and sizes only; attachments are regenerated from their source when needed
  attachments         jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(attachments) = 'array'),
  status              text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'recorded', 'failed')),
  provider_message_id text,
  error               text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  sent_at             timestamptz
);
CREATE INDEX email_outbox_lead_id_idx ON email_outbox (lead_id);
CREATE INDEX email_outbox_created_at_idx ON email_outbox (created_at DESC);

-- Integrations -----------------------------------------------------------------------------------

CREATE TABLE integration_settings (
  key        text PRIMARY KEY CHECK (key IN ('payments', 'scheduling', 'automation', 'email_marketing', 'team_chat', 'analytics')),
  enabled    boolean NOT NULL DEFAULT false,
  configured boolean NOT NULL DEFAULT false,
  -- the one configuration value per card (booking URL, webhook URL, API key); never sent back in clear
  value      text CHECK (length(value) <= 2000),
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (NOT configured OR length(btrim(value)) > 0)
);
CREATE TRIGGER integration_settings_updated_at BEFORE UPDATE ON integration_settings FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Team-chat monitor ------------------------------------------------------------------------------

CREATE TABLE chat_bot_messages (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id       text UNIQUE,
  channel        text NOT NULL CHECK (length(channel) BETWEEN 1 AND 100),
  bot_id         text CHECK (length(bot_id) <= 100),
  "user"         text CHECK (length("user") <= 100),
  text           text NOT NULL CHECK (length(text) <= 40000),
  -- Slack's ts: seconds since the epoch with microseconds, exact as Slack sends it
  "timestamp"    numeric(17, 6) NOT NULL CHECK ("timestamp" > 0),
  posted_at      timestamptz GENERATED ALWAYS AS (to_timestamp("timestamp"::double precision)) STORED,
  assessment_key text CHECK (length(assessment_key) <= 200),
  received_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (channel, "timestamp")
);
CREATE INDEX chat_bot_messages_posted_at_idx ON chat_bot_messages (posted_at DESC);
CREATE INDEX chat_bot_messages_assessment_key_idx ON chat_bot_messages (assessment_key) WHERE assessment_key IS NOT NULL;

CREATE TABLE processed_assessments (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  assessment_key text NOT NULL UNIQUE CHECK (length(assessment_key) BETWEEN 1 AND 200),
  candidate_name text NOT NULL CHECK (length(candidate_name) BETWEEN 1 AND 200),
  message_count  integer NOT NULL CHECK (message_count >= 1),
  status         text NOT NULL DEFAULT 'processed' CHECK (status IN ('processed', 'error')),
  error          text,
  processed_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX processed_assessments_processed_at_idx ON processed_assessments (processed_at DESC);

-- Down Migration
DROP TABLE IF EXISTS processed_assessments, chat_bot_messages, integration_settings, email_outbox,
  contact_submissions, webhook_receipts, payment_tracking, mirror_messages, mirror_sessions,
  assessment_results, survey_responses, diagnostic_results, diagnostic_answers, diagnostics, jobs,
  flow_events, flows, lead_notes, interactions, lead_tokens, leads, sessions, users CASCADE;
DROP FUNCTION IF EXISTS forbid_change();
DROP FUNCTION IF EXISTS set_updated_at();
