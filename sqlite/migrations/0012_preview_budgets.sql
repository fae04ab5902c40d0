-- The gateway's precomputed summaries have a preview budget of their own
-- (kompact.Preview.Gateway), so that many gateway conversations cannot
-- evict the previews people are reviewing. A preview dropped to make room
-- is remembered until it would have expired, so that applying it says it
-- was evicted rather than that it never existed.
ALTER TABLE previews ADD COLUMN gateway INTEGER NOT NULL DEFAULT 0;

CREATE TABLE evicted_previews (
    id         TEXT NOT NULL PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    expires_at TEXT NOT NULL -- when it would have expired: forgotten then
) STRICT;

CREATE INDEX evicted_previews_by_expiry ON evicted_previews (expires_at);
