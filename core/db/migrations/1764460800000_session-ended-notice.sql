-- Up Migration

-- Every ended session (signed out, its user's password reset, its user removed, pruned) is announced
-- on session_ended with its token hash, so every server process closes that session's admin sockets
-- at once, whichever process (or psql) ended it.
CREATE FUNCTION announce_ended_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_ended', token_hash) FROM ended;
  RETURN NULL;
END
$$;
CREATE TRIGGER sessions_ended AFTER DELETE ON sessions
  REFERENCING OLD TABLE AS ended FOR EACH STATEMENT EXECUTE FUNCTION announce_ended_sessions();

-- Down Migration
DROP TRIGGER IF EXISTS sessions_ended ON sessions;
DROP FUNCTION IF EXISTS announce_ended_sessions();
