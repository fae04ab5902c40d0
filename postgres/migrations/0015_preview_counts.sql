-- What a preview's summary replaces (see sqlite/migrations/0015_preview_counts.sql).
ALTER TABLE previews ADD COLUMN counts_before integer NOT NULL DEFAULT 0;
ALTER TABLE previews ADD COLUMN counts_replaced integer NOT NULL DEFAULT 0;
ALTER TABLE previews ADD COLUMN counts_after integer NOT NULL DEFAULT 0;
ALTER TABLE previews ADD COLUMN counts_pinned integer NOT NULL DEFAULT 0;
