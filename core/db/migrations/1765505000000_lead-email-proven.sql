-- Up Migration

-- When the lead's address was last proven: a link mailed to it was followed (a token, resume,
-- report or confirmation link). Null while nobody has shown they read that inbox; an address
-- typed into a form identifies a lead but proves nothing (docs/security.md).
ALTER TABLE leads ADD COLUMN email_proven_at timestamptz;

-- Down Migration

ALTER TABLE leads DROP COLUMN email_proven_at;
