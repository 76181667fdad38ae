-- Up Migration

-- Proof before trust (decision 0044): a capture of a known address by a visitor who has not
-- proven it is kept here, beside the lead, until a confirmation link mailed to the address is
-- followed. Its flow stays unbound to the lead, its graded result and the emails it would have
-- sent wait here; confirming gives them to the lead.
CREATE TABLE lead_attempts (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  lead_id              uuid NOT NULL REFERENCES leads (lead_id) ON DELETE CASCADE,
  flow_id              uuid NOT NULL UNIQUE REFERENCES flows (id) ON DELETE CASCADE,
  name                 text NOT NULL CHECK (length(name) <= 200),
  email                text NOT NULL CHECK (length(email) <= 320),
  -- the grading job's store, held: { request, graded, result }
  graded               jsonb CHECK (graded IS NULL OR jsonb_typeof(graded) = 'object'),
  -- the lead's jobs the flow asked for (results email, homework), written as jobs on confirmation
  held_jobs            jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(held_jobs) = 'array'),
  confirmation_sent_at timestamptz,
  confirmed_at         timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lead_attempts_lead_id_idx ON lead_attempts (lead_id, created_at DESC);

ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_kind_check;
ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
  CHECK (kind IN ('contact_confirmation', 'contact_notification', 'homework', 'free_resources', 'sign_in_notice', 'results',
                  'deposit_receipt', 'refund_confirmation', 'assessment_reminder', 'booking_reminder', 'address_confirmation'));

-- Down Migration

DELETE FROM email_outbox WHERE kind = 'address_confirmation';
ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_kind_check;
ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
  CHECK (kind IN ('contact_confirmation', 'contact_notification', 'homework', 'free_resources', 'sign_in_notice', 'results',
                  'deposit_receipt', 'refund_confirmation', 'assessment_reminder', 'booking_reminder'));
DROP TABLE lead_attempts;
