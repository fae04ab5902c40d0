-- A session's pinned messages (its settings' "pinned",
-- kompact.Session.Pinned): the ids of the messages a compaction keeps
-- verbatim after its summary, as a JSON list. '' means none; sessions
-- stored before this migration have none.
ALTER TABLE sessions ADD COLUMN pinned TEXT NOT NULL DEFAULT '';
