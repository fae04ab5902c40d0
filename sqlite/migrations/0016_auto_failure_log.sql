-- The failure log of automatic compaction (kompact.AutoFailure): a JSON
-- array of the session's newest failed or refused automatic compactions,
-- oldest first, at most kompact.MaxAutoFailureLog of them.
ALTER TABLE sessions ADD COLUMN auto_failure_log TEXT NOT NULL DEFAULT '[]';
