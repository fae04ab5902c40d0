-- A session's title (see sqlite/migrations/0005_titles.sql).
ALTER TABLE sessions ADD COLUMN title text NOT NULL DEFAULT '';
