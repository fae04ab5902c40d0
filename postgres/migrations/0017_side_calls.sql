-- A gateway session made of a client's one-shot side call (see
-- sqlite/migrations/0017_side_calls.sql).
ALTER TABLE gateway_records ADD COLUMN side_call boolean NOT NULL DEFAULT false;
