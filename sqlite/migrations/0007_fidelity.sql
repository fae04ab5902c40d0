-- A compaction's fidelity report (kompact.Fidelity, as JSON), recorded with
-- its revision so that the history shows what each summary kept. NULL for
-- other revisions and for compactions recorded before this migration.
ALTER TABLE revisions ADD COLUMN fidelity TEXT;
