-- Previews: compactions that ran but were not committed, kept until they
-- are applied or expire, so that any instance can apply one and a restart
-- keeps them. body is the previewed outcome (kompact.EncodePreview); size
-- is its length, which the byte budget counts.
CREATE TABLE previews (
    id         TEXT    NOT NULL PRIMARY KEY,
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    expires_at TEXT    NOT NULL, -- UTC, the sessions table's time format
    size       INTEGER NOT NULL,
    body       BLOB    NOT NULL
) STRICT;

CREATE INDEX previews_by_expiry ON previews (expires_at);
CREATE INDEX previews_by_session ON previews (session_id);
