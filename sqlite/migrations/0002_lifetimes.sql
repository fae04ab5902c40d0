-- Revisions by row lifetimes, so that a compaction writes rows in
-- proportion to what it replaces, not to the session's length.
--
-- A message row now lives from revision `born` (the revisions the session
-- had when the row was added) until revision `dead` (the revision that
-- removed it; NULL while the row is in the session). Revision r's message
-- list is then the rows with born < r and (dead IS NULL or dead >= r), in
-- position order: recording it writes nothing but the revisions row.
-- Revisions recorded before this migration keep their full lists in
-- revision_messages (revisions.full = 1).
--
-- rewritten_version is the session's version after its latest rewrite (a
-- compaction or a restore). A compaction that read the session at a
-- version not below it knows only appends happened since: it need not
-- compare the messages it replaces. Existing sessions count as rewritten.
ALTER TABLE sessions ADD COLUMN rewritten_version INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET rewritten_version = version;

ALTER TABLE revisions ADD COLUMN full INTEGER NOT NULL DEFAULT 0;
UPDATE revisions SET full = 1;

CREATE TABLE message_rows (
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    pos        INTEGER NOT NULL,
    born       INTEGER NOT NULL,
    dead       INTEGER,
    id         TEXT    NOT NULL,
    body_id    INTEGER NOT NULL,
    PRIMARY KEY (session_id, pos, born)
) STRICT, WITHOUT ROWID;

INSERT INTO message_rows (session_id, pos, born, dead, id, body_id)
    SELECT session_id, pos, 0, NULL, id, body_id FROM messages;
DROP TABLE messages;
ALTER TABLE message_rows RENAME TO messages;

-- The session's messages: the live rows, in order, with what reads need.
CREATE INDEX messages_live ON messages (session_id, pos, id, body_id) WHERE dead IS NULL;
CREATE UNIQUE INDEX messages_live_by_id ON messages (session_id, id) WHERE dead IS NULL;
-- Pruning revisions finds the rows they removed, and whether a body is
-- still referenced elsewhere.
CREATE INDEX messages_by_dead ON messages (session_id, dead) WHERE dead IS NOT NULL;
CREATE INDEX messages_by_body ON messages (body_id);
CREATE INDEX revision_messages_by_body ON revision_messages (body_id);
