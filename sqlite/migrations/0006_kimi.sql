-- kimi-cli sessions (kompact.KimiContext): a session imported from a
-- kimi-cli context.jsonl keeps the file's metadata lines (_system_prompt,
-- _checkpoint, _usage) at their places among its messages, as JSON; NULL
-- for every other session. A revision keeps the context the session had
-- just before it, NULL when it had none.
ALTER TABLE sessions ADD COLUMN kimi TEXT;
ALTER TABLE revisions ADD COLUMN kimi TEXT;
