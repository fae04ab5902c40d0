-- A session's title: the first user message by default, or the name a
-- person gave it. '' means none yet: the next append that brings a user
-- message sets the default. Sessions stored before this migration start
-- without one.
ALTER TABLE sessions ADD COLUMN title TEXT NOT NULL DEFAULT '';
