-- Up Migration

-- A flow's booking reference (decision 0046): random, issued once per flow and carried by its
-- booking link (Calendly's utm_content, Cal.com's metadata[ref]); a booking event is matched to a
-- flow by it. Unlike the flow id, it is never shown anywhere but that flow's own screen and emails.
CREATE TABLE booking_references (
  flow_id    uuid PRIMARY KEY REFERENCES flows (id) ON DELETE CASCADE,
  reference  text NOT NULL UNIQUE CHECK (reference ~ '^[0-9a-f]{32}$'),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Every booking the scheduling provider reported, keyed by the provider's own id of it (Calendly's
-- invitee URI, Cal.com's booking uid): matched to a flow (flow_id), or unmatched (flow_id NULL)
-- until the coach assigns it to a lead from the lead page. A later cancellation or reschedule
-- finds the booking here.
CREATE TABLE scheduled_bookings (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  provider    text NOT NULL CHECK (provider IN ('calendly', 'calcom')),
  booking_key text NOT NULL CHECK (length(booking_key) BETWEEN 1 AND 500),
  flow_id     uuid REFERENCES flows (id) ON DELETE CASCADE,
  matched_by  text CHECK (matched_by IN ('reference', 'email', 'reschedule', 'coach')),
  status      text NOT NULL CHECK (status IN ('booked', 'canceled', 'rescheduled')),
  name        text CHECK (length(name) <= 500),
  email       text CHECK (length(email) <= 320),
  starts_at   timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CHECK ((flow_id IS NULL) = (matched_by IS NULL)),
  UNIQUE (provider, booking_key)
);
-- the lead page's list: the unmatched bookings still booked, newest first
CREATE INDEX scheduled_bookings_unmatched ON scheduled_bookings (created_at DESC) WHERE flow_id IS NULL AND status = 'booked';

-- Down Migration
DROP TABLE scheduled_bookings;
DROP TABLE booking_references;
