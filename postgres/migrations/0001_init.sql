-- Sessions, their messages in order, and their revisions (the same model
-- as the SQLite store; see sqlite/migrations).
--
-- A message's JSON form is stored once, in bodies. A message row lives from
-- revision `born` (the revisions the session had when the row was added)
-- until revision `dead` (the one that removed it; NULL while it is in the
-- session). Revision r's message list is the rows with born < r and (dead
-- IS NULL or dead >= r), in position order.
CREATE TABLE sessions (
    id                text        NOT NULL PRIMARY KEY,
    agent             text        NOT NULL DEFAULT '',
    compaction_model  text        NOT NULL DEFAULT '',
    version           bigint      NOT NULL,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
    first_pos         bigint      NOT NULL DEFAULT 0,
    n_messages        bigint      NOT NULL DEFAULT 0,
    next_msg          bigint      NOT NULL DEFAULT 1,
    next_rev          bigint      NOT NULL DEFAULT 1,
    rewritten_version bigint      NOT NULL DEFAULT 1
);

CREATE INDEX sessions_by_update ON sessions (updated_at DESC, id);

CREATE TABLE bodies (
    id         bigserial PRIMARY KEY,
    session_id text      NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    body       bytea     NOT NULL
);

CREATE INDEX bodies_by_session ON bodies (session_id);

CREATE TABLE messages (
    session_id text   NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    pos        bigint NOT NULL,
    born       bigint NOT NULL,
    dead       bigint,
    id         text   NOT NULL,
    body_id    bigint NOT NULL,
    PRIMARY KEY (session_id, pos, born)
);

CREATE INDEX messages_live ON messages (session_id, pos) INCLUDE (id, body_id) WHERE dead IS NULL;
CREATE UNIQUE INDEX messages_live_by_id ON messages (session_id, id) WHERE dead IS NULL;
CREATE INDEX messages_by_dead ON messages (session_id, dead) WHERE dead IS NOT NULL;
CREATE INDEX messages_by_body ON messages (body_id);

CREATE TABLE revisions (
    session_id text        NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    rev        bigint      NOT NULL,
    kind       text        NOT NULL,
    note       text        NOT NULL,
    created_at timestamptz NOT NULL,
    version    bigint      NOT NULL,
    n_messages bigint      NOT NULL,
    PRIMARY KEY (session_id, rev)
);
