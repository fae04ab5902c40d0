-- rewritten_version is the session's version after its latest rewrite (a
-- compaction or a restore, which change messages it already had). A
-- compaction that read the session at a version not below it knows that
-- only appends happened since: it need not compare the messages it
-- replaces. Existing sessions count as rewritten now.
ALTER TABLE sessions ADD COLUMN rewritten_version INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET rewritten_version = version;

-- Pruning old revisions deletes the bodies nothing else refers to: these
-- indexes find the other references of a body.
CREATE INDEX messages_by_body ON messages (body_id);
CREATE INDEX revision_messages_by_body ON revision_messages (body_id);
