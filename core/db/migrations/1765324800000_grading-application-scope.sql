-- Up Migration
-- The leads an application re-graded, as the scope the coach tried and applied
-- (regradeScopeSchema in machines/protocol/admin/grading.ts); an undo keeps the undone one's.
-- Applications before this re-graded every lead, test leads included, and say so.
ALTER TABLE grading_applications
  ADD COLUMN scope jsonb NOT NULL DEFAULT '{"includeTestLeads": true}' CHECK (jsonb_typeof(scope) = 'object');
ALTER TABLE grading_applications ALTER COLUMN scope DROP DEFAULT;

-- An undo stored its label as its note, which undo_of already says; the note is the coach's only.
UPDATE grading_applications SET note = NULL WHERE undo_of IS NOT NULL AND note = 'Undo of application ' || undo_of;

-- Down Migration
UPDATE grading_applications SET note = 'Undo of application ' || undo_of WHERE undo_of IS NOT NULL AND note IS NULL;
ALTER TABLE grading_applications DROP COLUMN scope;
