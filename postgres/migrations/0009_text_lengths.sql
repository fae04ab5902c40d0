-- The text length of each stored body (see
-- sqlite/migrations/0009_text_lengths.sql); NULL for bodies stored before
-- this migration. A column of bodies: PostgreSQL keeps a large body out of
-- line, so reading the length does not read the body.
ALTER TABLE bodies ADD COLUMN text_len bigint;
