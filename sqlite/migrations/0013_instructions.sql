-- A session's standing compaction instructions (its settings'
-- "instructions", kompact.StoredSession.Instructions): joined after the
-- agent's and before a run's into every compaction's custom instruction.
-- '' means none; sessions stored before this migration have none.
ALTER TABLE sessions ADD COLUMN instructions TEXT NOT NULL DEFAULT '';
