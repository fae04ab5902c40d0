package service

import (
	"context"

	"kompact"
)

// UpdateSettings checks the whole change (SessionSettings.Check), then
// writes it in one write (Store.UpdateSettings): a change refused in part
// writes nothing. It returns the session's description after the change.
func (s *Sessions) UpdateSettings(ctx context.Context, id string, set kompact.SessionSettings) (*kompact.SessionInfo, error) {
	set, err := set.Check()
	if err != nil {
		return nil, err
	}
	return s.store.UpdateSettings(ctx, id, set)
}
