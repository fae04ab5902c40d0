package kompact

import "context"

// SessionSettings is a change to a session's settings: each field that is
// not nil is set, the others are left as they are. CompactionModel sets
// (or, with "", clears) the per-session model; Title renames the session
// ("" gives it its default title again); TokenCount records a provider's
// token figure (Store.SetTokenCount).
type SessionSettings struct {
	CompactionModel *string
	Title           *string
	TokenCount      *int
	// At, when set, makes the change conditional: it is made only while
	// the session is the one At names (the same generation and version),
	// else it fails with EConflict and writes nothing. The gateway records
	// an upstream's token count so, in the same write that checks.
	At *SessionAt
}

// SessionAt names one state of a stored session: its generation
// (StoredSession.Generation) and its version.
type SessionAt struct {
	Generation int64
	Version    int64
}

// Empty reports whether s changes nothing.
func (s SessionSettings) Empty() bool {
	return s.CompactionModel == nil && s.Title == nil && s.TokenCount == nil
}

// Check checks every field s sets, before anything is written: a model
// ValidateCompactionModel accepts, a title CleanTitle accepts, a token
// count of 0 or more. Errors are EInvalid. It returns s with its title
// cleaned.
func (s SessionSettings) Check() (SessionSettings, error) {
	if s.CompactionModel != nil {
		if err := ValidateCompactionModel(*s.CompactionModel); err != nil {
			return s, err
		}
	}
	if s.Title != nil {
		t, err := CleanTitle(*s.Title)
		if err != nil {
			return s, err
		}
		s.Title = &t
	}
	if s.TokenCount != nil && *s.TokenCount < 0 {
		return s, Errorf(EInvalid, `"token_count" is %d; it must be 0 or more`, *s.TokenCount).
			WithFixes("Send the provider's usage total for the session (prompt + completion tokens of its last turn).")
	}
	return s, nil
}

// UpdateSettings checks the whole change (SessionSettings.Check), then
// writes it in one write (Store.UpdateSettings): a change refused in part
// writes nothing. It returns the session's description after the change.
func (s *Sessions) UpdateSettings(ctx context.Context, id string, set SessionSettings) (*SessionInfo, error) {
	set, err := set.Check()
	if err != nil {
		return nil, err
	}
	return s.store.UpdateSettings(ctx, id, set)
}
