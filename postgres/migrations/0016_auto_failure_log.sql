-- The failure log of automatic compaction (see sqlite/migrations/0016_auto_failure_log.sql).
ALTER TABLE sessions ADD COLUMN auto_failure_log text NOT NULL DEFAULT '[]';
