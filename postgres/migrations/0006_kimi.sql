-- kimi-cli sessions (see sqlite/migrations/0006_kimi.sql).
ALTER TABLE sessions ADD COLUMN kimi bytea;
ALTER TABLE revisions ADD COLUMN kimi bytea;
