-- Up Migration

-- One fact, one author (decision 0036): a lead's tier, archetype and score are its latest
-- outcome's, read through lead_facts (core/leads/lead-facts.ts), never a copy on the lead that a
-- second writer keeps in step. The lead service is the only writer of leads.
ALTER TABLE leads DROP COLUMN tier, DROP COLUMN total_score, DROP COLUMN archetype;

-- A rushed attempt (gaming detected: the visitor is asked to retake) is an attempt, never an
-- outcome: it carries no tier.
ALTER TABLE assessment_results ALTER COLUMN tier DROP NOT NULL, ALTER COLUMN qualification DROP NOT NULL;
UPDATE assessment_results SET tier = NULL, qualification = NULL WHERE gaming_detected;
ALTER TABLE assessment_results ADD CONSTRAINT assessment_results_outcome_check
  CHECK ((tier IS NULL) = gaming_detected AND (qualification IS NULL) = gaming_detected);
CREATE INDEX assessment_results_diagnostic_id_idx ON assessment_results (diagnostic_id) WHERE diagnostic_id IS NOT NULL;

-- Down Migration

DROP INDEX assessment_results_diagnostic_id_idx;
ALTER TABLE assessment_results DROP CONSTRAINT assessment_results_outcome_check;
UPDATE assessment_results SET tier = coalesce(result->>'tier', 'nurture'), qualification = coalesce(result->>'qualification', 'nurture')
  WHERE gaming_detected;
ALTER TABLE assessment_results ALTER COLUMN tier SET NOT NULL, ALTER COLUMN qualification SET NOT NULL;
ALTER TABLE leads ADD COLUMN tier text CHECK (tier IN ('book_call', 'homework', 'nurture')),
  ADD COLUMN total_score numeric(5, 2) CHECK (total_score BETWEEN 0 AND 100),
  ADD COLUMN archetype text CHECK (length(archetype) <= 100);
