-- A session's generation (see sqlite/migrations/0010_generations.sql).
-- Sessions stored before this migration get a random one here.
ALTER TABLE sessions ADD COLUMN generation bigint NOT NULL DEFAULT 0;
UPDATE sessions SET generation = 1 + floor(random() * 9.2e18)::bigint;
