-- Up Migration

-- A diagnostic's PDF report, drawn the first time it is opened (the visitor's download or the
-- signed link of the results and homework emails) and served from here afterwards, so neither
-- grading nor an email draws one (decision 0040). It is keyed by what it was drawn from: the
-- diagnostic's latest assessment result (none for a diagnostic alone) and the lead's name then;
-- when either has changed (a re-grade, a new name) the report is drawn again and replaces this
-- one. Deleting the diagnostic, its lead or the result deletes it.
CREATE TABLE report_pdfs (
  diagnostic_id uuid PRIMARY KEY REFERENCES diagnostics (id) ON DELETE CASCADE,
  result_id     uuid REFERENCES assessment_results (id) ON DELETE CASCADE,
  lead_name     text,
  pdf           bytea NOT NULL CHECK (length(pdf) BETWEEN 5 AND 5000000),
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE report_pdfs;
