package kompact

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// SessionSettings is a change to a session's settings: each field that is
// not nil is set, the others are left as they are. CompactionModel sets
// (or, with "", clears) the per-session model; Title renames the session
// ("" gives it its default title again); TokenCount records a provider's
// token figure (Store.SetTokenCount); Instructions sets (or clears) the
// session's standing compaction instructions (StoredSession.Instructions);
// Pinned replaces the session's pinned message ids (Session.Pinned).
type SessionSettings struct {
	CompactionModel *string
	Title           *string
	TokenCount      *int
	Instructions    *string
	Pinned          *[]string
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
	return s.CompactionModel == nil && s.Title == nil && s.TokenCount == nil && s.Instructions == nil && s.Pinned == nil
}

// Check checks every field s sets, before anything is written: a model
// ValidateCompactionModel accepts, a title CleanTitle accepts, a token
// count of 0 or more, instructions CheckInstructions accepts. Errors are
// EInvalid. It returns s with its title cleaned.
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
	if s.Instructions != nil {
		return s, CheckInstructions(`"instructions"`, *s.Instructions)
	}
	return s, nil
}

// MaxPinned bounds how many messages a session pins (Session.Pinned).
const MaxPinned = 1000

// MaxInstructionsLen bounds standing compaction instructions (an agent's
// compaction.instructions, a session's "instructions"), in code points.
const MaxInstructionsLen = 4000

// CheckInstructions is EInvalid when standing instructions (field names
// them) are longer than MaxInstructionsLen code points.
func CheckInstructions(field, s string) error {
	if n := utf8.RuneCountInString(s); n > MaxInstructionsLen {
		return Errorf(EInvalid, "%s has %d characters; standing instructions are at most %d", field, n, MaxInstructionsLen).
			WithFixes("Keep to the focus every compaction needs (" + strconv.Itoa(MaxInstructionsLen) + " characters at most); give a one-off focus as the run's instructions.")
	}
	return nil
}

// MaxTitleLen bounds a title a person gives, in code points.
const MaxTitleLen = 200

// CleanTitle returns a title a person gave on one line, without leading and
// trailing space; EInvalid when it is longer than MaxTitleLen code points.
func CleanTitle(title string) (string, error) {
	t := OneLine(title)
	if n := utf8.RuneCountInString(t); n > MaxTitleLen {
		return "", Errorf(EInvalid, "the title has %d characters; at most %d are allowed", n, MaxTitleLen).
			WithFixes("Use a shorter title (" + strconv.Itoa(MaxTitleLen) + " characters at most).")
	}
	return t, nil
}

// OneLine collapses runs of white space and control characters into single
// spaces and trims the ends.
func OneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 || r == '\u00a0'
	}), " ")
}
