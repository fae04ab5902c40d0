-- What a preview's summary replaces (kompact.Preview.Counts: the messages
-- before, replaced, after and pinned), kept beside its body so that listing
-- a session's previews reads no body. Previews kept before this migration
-- have zeros, and their listing reads their bodies.
ALTER TABLE previews ADD COLUMN counts_before INTEGER NOT NULL DEFAULT 0;
ALTER TABLE previews ADD COLUMN counts_replaced INTEGER NOT NULL DEFAULT 0;
ALTER TABLE previews ADD COLUMN counts_after INTEGER NOT NULL DEFAULT 0;
ALTER TABLE previews ADD COLUMN counts_pinned INTEGER NOT NULL DEFAULT 0;
