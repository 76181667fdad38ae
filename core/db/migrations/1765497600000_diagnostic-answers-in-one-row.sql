-- Up Migration
-- A diagnostic's answers are kept in one row, as the array of answers its grading stored (each
-- {item_id, type, value, confidence, response_ms, timed_out}, in the order answered), instead of a
-- row per answer: the grading job wrote 22 rows and their two indexes for what is only ever read
-- whole (the lead's page). Decision 0042. shown_at was never written; answered_at was the grading's
-- time, which diagnostics.completed_at keeps.
ALTER TABLE diagnostics
  ADD COLUMN answers jsonb CHECK (answers IS NULL OR jsonb_typeof(answers) = 'array');
UPDATE diagnostics d SET answers = a.answers
FROM (
  SELECT diagnostic_id,
         jsonb_agg(jsonb_build_object('item_id', item_id, 'type', type, 'value', value, 'confidence', confidence,
                                      'response_ms', response_ms, 'timed_out', timed_out) ORDER BY id) AS answers
  FROM diagnostic_answers GROUP BY diagnostic_id
) a
WHERE a.diagnostic_id = d.id;
DROP TABLE diagnostic_answers;

-- Down Migration
CREATE TABLE diagnostic_answers (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  diagnostic_id uuid NOT NULL REFERENCES diagnostics (id) ON DELETE CASCADE,
  item_id       text NOT NULL CHECK (item_id ~ '^[A-Za-z0-9_-]{1,60}$'),
  type          text NOT NULL CHECK (type IN ('likert', 'vignette', 'ranking')),
  value         jsonb NOT NULL CHECK (jsonb_typeof(value) IN ('number', 'string', 'array')),
  confidence    smallint CHECK (confidence BETWEEN 1 AND 5),
  response_ms   integer NOT NULL CHECK (response_ms >= 0),
  timed_out     boolean NOT NULL DEFAULT false,
  shown_at      timestamptz,
  answered_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (diagnostic_id, item_id)
);
INSERT INTO diagnostic_answers (diagnostic_id, item_id, type, value, confidence, response_ms, timed_out, answered_at)
SELECT d.id, a.answer->>'item_id', a.answer->>'type', a.answer->'value', (a.answer->>'confidence')::smallint,
       (a.answer->>'response_ms')::integer, (a.answer->>'timed_out')::boolean, coalesce(d.completed_at, now())
FROM diagnostics d, jsonb_array_elements(d.answers) WITH ORDINALITY AS a(answer, n)
ORDER BY d.id, a.n;
ALTER TABLE diagnostics DROP COLUMN answers;
