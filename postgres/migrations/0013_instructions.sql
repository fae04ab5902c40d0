-- A session's standing compaction instructions (see
-- sqlite/migrations/0013_instructions.sql).
ALTER TABLE sessions ADD COLUMN instructions text NOT NULL DEFAULT '';
