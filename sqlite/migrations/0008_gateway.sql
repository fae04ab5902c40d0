-- The compaction gateway's sessions (kompact.GatewayStore): a session the
-- gateway created has one record, found by its conversation key. state is
-- the gateway's own JSON, which the store does not read; seq counts the
-- record's changes (SwapGatewayRecord compares and bumps it). ord orders
-- the records of a key by creation, the newest with the largest (the
-- writer is single, so one past the key's largest is unique). The record
-- goes with its session.
CREATE TABLE gateway_records (
    session_id TEXT    NOT NULL PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    conv_key   TEXT    NOT NULL,
    ord        INTEGER NOT NULL,
    seq        INTEGER NOT NULL,
    state      BLOB    NOT NULL
) STRICT;

CREATE INDEX gateway_records_by_key ON gateway_records (conv_key, ord);
