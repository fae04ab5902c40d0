-- Sessions, their messages in order, and their revisions.
--
-- A message's JSON form (kompact.Message.AppendJSON, which holds its id too)
-- is stored once, in bodies, and never changes. The session's message list
-- and every revision's list refer to bodies by rowid, so recording a
-- revision costs one small row per message, not a copy of the messages.
-- Bodies go when their session goes.
CREATE TABLE sessions (
    id               TEXT    NOT NULL PRIMARY KEY,
    agent            TEXT    NOT NULL DEFAULT '',
    compaction_model TEXT    NOT NULL DEFAULT '',
    version          INTEGER NOT NULL,
    created_at       TEXT    NOT NULL, -- UTC, RFC 3339 with 9 fraction digits: sorts as text
    updated_at       TEXT    NOT NULL,
    first_pos        INTEGER NOT NULL DEFAULT 0,
    n_messages       INTEGER NOT NULL DEFAULT 0,
    next_msg         INTEGER NOT NULL DEFAULT 1, -- the counter behind assigned ids m_1, m_2, ...
    next_rev         INTEGER NOT NULL DEFAULT 1
) STRICT;

CREATE INDEX sessions_by_update ON sessions (updated_at DESC, id);

CREATE TABLE bodies (
    id         INTEGER PRIMARY KEY,
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    body       TEXT    NOT NULL
) STRICT;

CREATE INDEX bodies_by_session ON bodies (session_id);

-- The session's messages occupy the positions [first_pos, first_pos +
-- n_messages). Appends add at the end; a compaction deletes the compacted
-- prefix and puts its replacement just before the rows it keeps, so the
-- kept tail never moves (positions may go below zero).
CREATE TABLE messages (
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    pos        INTEGER NOT NULL,
    id         TEXT    NOT NULL,
    body_id    INTEGER NOT NULL,
    PRIMARY KEY (session_id, pos)
) STRICT, WITHOUT ROWID;

CREATE UNIQUE INDEX messages_by_id ON messages (session_id, id);

CREATE TABLE revisions (
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    rev        INTEGER NOT NULL,
    kind       TEXT    NOT NULL,
    note       TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    version    INTEGER NOT NULL, -- the session's version after the change
    n_messages INTEGER NOT NULL, -- the messages before it
    PRIMARY KEY (session_id, rev)
) STRICT;

-- The message list a session had just before a revision, positions from 0.
CREATE TABLE revision_messages (
    session_id TEXT    NOT NULL,
    rev        INTEGER NOT NULL,
    pos        INTEGER NOT NULL,
    body_id    INTEGER NOT NULL,
    PRIMARY KEY (session_id, rev, pos),
    FOREIGN KEY (session_id, rev) REFERENCES revisions (session_id, rev) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
