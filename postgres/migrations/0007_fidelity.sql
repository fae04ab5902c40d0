-- A compaction's fidelity report (see sqlite/migrations/0007_fidelity.sql).
ALTER TABLE revisions ADD COLUMN fidelity text;
