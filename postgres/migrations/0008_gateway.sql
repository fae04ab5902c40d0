-- The compaction gateway's sessions (see sqlite/migrations/0008_gateway.sql).
-- ord comes from a sequence: records created by several instances at once
-- still get distinct, growing numbers.
CREATE TABLE gateway_records (
    session_id text      NOT NULL PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    conv_key   text      NOT NULL,
    ord        bigserial NOT NULL,
    seq        bigint    NOT NULL,
    state      bytea     NOT NULL
);

CREATE INDEX gateway_records_by_key ON gateway_records (conv_key, ord);
