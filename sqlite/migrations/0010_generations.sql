-- A session's generation (kompact.StoredSession.Generation): a random
-- number above 0, given when the session is created or imported and never
-- changed, so that a session deleted and created again under its id (its
-- versions and message ids start again) is told apart from the one
-- before it. A compaction commit that read the earlier one is then a
-- conflict. Sessions stored before this migration get one here.
ALTER TABLE sessions ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET generation = (random() & 9223372036854775807) | 1;
