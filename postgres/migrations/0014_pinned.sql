-- A session's pinned messages (see sqlite/migrations/0014_pinned.sql).
ALTER TABLE sessions ADD COLUMN pinned text NOT NULL DEFAULT '';
