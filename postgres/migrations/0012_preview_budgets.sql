-- The gateway's precomputes have a preview budget of their own, and an
-- evicted preview is remembered until it would have expired (see
-- sqlite/migrations/0012_preview_budgets.sql).
ALTER TABLE previews ADD COLUMN gateway boolean NOT NULL DEFAULT false;

CREATE TABLE evicted_previews (
    id         text        NOT NULL PRIMARY KEY,
    session_id text        NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL
);

CREATE INDEX evicted_previews_by_expiry ON evicted_previews (expires_at);
