-- The text length of each stored body (kompact.Message.TextLen: the code
-- points of its text parts, what kimi-cli's token estimate counts), kept
-- when the body is stored, so that a restore or an undo gives the restored
-- list's estimate by adding up lengths instead of reading the bodies.
--
-- A table of its own, not a column of bodies: SQLite reads a row's columns
-- in order, so a column after a body that overflows its page would be
-- reached only through the body's overflow pages. Bodies stored before
-- this migration have no row here: a list holding one is estimated from
-- its bodies when read, as before.
CREATE TABLE body_lengths (
    body_id  INTEGER NOT NULL PRIMARY KEY REFERENCES bodies (id) ON DELETE CASCADE,
    text_len INTEGER NOT NULL
) STRICT;
