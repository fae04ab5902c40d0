package service

import (
	"context"

	"kompact"
)

// Restore puts back the messages revision rev of session id holds
// (Store.RestoreRevision) and returns the revision the restore recorded,
// which can be undone in turn.
func (s *Sessions) Restore(ctx context.Context, id string, rev int64) (*kompact.RevisionInfo, error) {
	_, info, err := s.store.RestoreRevision(ctx, id, rev)
	return info, err
}

// Undo undoes compaction revision rev of session id, keeping what happened
// since (Store.UndoCompaction), and returns the revision it recorded.
func (s *Sessions) Undo(ctx context.Context, id string, rev int64) (*kompact.RevisionInfo, error) {
	_, info, err := s.store.UndoCompaction(ctx, id, rev)
	return info, err
}

// PreviewRestore says what restoring revision rev of session id would drop
// and bring back (Store.PreviewRestore).
func (s *Sessions) PreviewRestore(ctx context.Context, id string, rev int64) (*kompact.RestorePreview, error) {
	return s.store.PreviewRestore(ctx, id, rev)
}
