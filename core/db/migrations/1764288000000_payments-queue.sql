-- Up Migration

-- A deposit's checkout is started by a job of its own queue, written in the transaction of the
-- event that chose the deposit: the flow's startPayment effect, not a call from the browser.
ALTER TABLE jobs DROP CONSTRAINT jobs_queue_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_queue_check
  CHECK (queue IN ('grading', 'homework', 'mirror', 'email', 'webhooks', 'slack', 'timers', 'payments'));

-- Down Migration
DELETE FROM jobs WHERE queue = 'payments';
ALTER TABLE jobs DROP CONSTRAINT jobs_queue_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_queue_check
  CHECK (queue IN ('grading', 'homework', 'mirror', 'email', 'webhooks', 'slack', 'timers'));
