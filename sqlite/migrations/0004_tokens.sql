-- Token accounting and the automatic-compaction breaker, per session
-- (kimi-cli's Context figures; see kompact.TokenAccount).
--
-- token_count is the last recorded figure: a provider's usage total, or a
-- compaction's estimated_token_count. pending_tokens estimates the messages
-- appended since; -1 means "estimate the whole list when read", which is
-- what a session without a recorded figure has (a new, restored or
-- pre-existing session: kimi-cli's restore of a context without a usage
-- line). auto_failures counts automatic compactions that failed in a row.
ALTER TABLE sessions ADD COLUMN token_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN pending_tokens INTEGER NOT NULL DEFAULT -1;
ALTER TABLE sessions ADD COLUMN auto_failures INTEGER NOT NULL DEFAULT 0;
