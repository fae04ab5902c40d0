-- Previews: compactions that ran but were not committed, kept until they
-- are applied or expire, so that any instance can apply one and a restart
-- keeps them. body is the previewed outcome (kompact.EncodePreview); size
-- is its length, which the byte budget counts.
CREATE TABLE previews (
    id         text        NOT NULL PRIMARY KEY,
    session_id text        NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    version    bigint      NOT NULL,
    expires_at timestamptz NOT NULL,
    size       bigint      NOT NULL,
    body       bytea       NOT NULL
);

CREATE INDEX previews_by_expiry ON previews (expires_at);
CREATE INDEX previews_by_session ON previews (session_id);
