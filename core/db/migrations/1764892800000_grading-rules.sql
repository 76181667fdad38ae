-- Up Migration
-- Versioned grading rules (machines/grading/rules.ts). A rule set, once stored, never changes: a
-- coach's change is a new version. Each time one is put in force is an application; the latest
-- application's set grades every new assessment, and the built-in set is in force while there is none.
CREATE TABLE grading_rule_sets (
  version    text PRIMARY KEY CHECK (version ~ '^grading-[0-9.]{1,20}$'),
  rules      jsonb NOT NULL CHECK (jsonb_typeof(rules) = 'object'),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE grading_applications (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  version    text NOT NULL REFERENCES grading_rule_sets (version),
  applied_by uuid REFERENCES users (id) ON DELETE SET NULL,
  note       text CHECK (length(note) <= 500),
  regraded   integer NOT NULL CHECK (regraded >= 0),
  moved      integer NOT NULL CHECK (moved >= 0),
  undo_of    bigint REFERENCES grading_applications (id),
  applied_at timestamptz NOT NULL DEFAULT now()
);

-- What was graded, kept with the result so a rule set can re-grade it later; and, for a result
-- written by applying a rule set, that application. Re-grades add rows and never change old ones.
ALTER TABLE assessment_results
  ADD COLUMN grade_input jsonb CHECK (grade_input IS NULL OR jsonb_typeof(grade_input) = 'object'),
  ADD COLUMN application_id bigint REFERENCES grading_applications (id);

-- Results graded before this migration: their grading job's payload still holds what was graded,
-- unless an admin deleted the job row; those stay without inputs and a re-grade skips them.
UPDATE assessment_results r
SET grade_input = jsonb_build_object(
  'answers', j.payload -> 'request' -> 'assessment',
  'survey', j.payload -> 'request' -> 'survey',
  'mirrorChat', j.payload -> 'request' -> 'mirrorChat',
  'bankVersion', r.bank_version)
FROM jobs j
WHERE j.id = r.job_id AND jsonb_typeof(j.payload -> 'request' -> 'assessment') = 'object';

-- Down Migration
ALTER TABLE assessment_results DROP COLUMN application_id, DROP COLUMN grade_input;
DROP TABLE grading_applications;
DROP TABLE grading_rule_sets;
