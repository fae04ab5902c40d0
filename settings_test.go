package kompact_test

import (
	"strings"
	"testing"

	"kompact"
)

// TestSessionSettingsCheck: a settings change is checked field by field
// before anything is written: the title comes back cleaned; a negative
// token count, a title over MaxTitleLen and instructions over
// MaxInstructionsLen code points are invalid_request with a fix; a change
// of nothing is Empty.
func TestSessionSettingsCheck(t *testing.T) {
	if !(kompact.SessionSettings{}).Empty() || (kompact.SessionSettings{Title: new("")}).Empty() {
		t.Error("Empty")
	}
	got, err := kompact.SessionSettings{Title: new("  Fix\tthe\n build "), TokenCount: new(0), Instructions: new("keep the paths")}.Check()
	if err != nil || *got.Title != "Fix the build" {
		t.Fatalf("a valid change: %v, title %q", err, *got.Title)
	}
	for name, s := range map[string]kompact.SessionSettings{
		"token_count":  {TokenCount: new(-1)},
		"title":        {Title: new(strings.Repeat("é", kompact.MaxTitleLen+1))},
		"instructions": {Instructions: new(strings.Repeat("x", kompact.MaxInstructionsLen+1))},
	} {
		_, err := s.Check()
		if kompact.ErrorCodeOf(err) != kompact.EInvalid || len(kompact.ErrorFixes(err)) == 0 {
			t.Errorf("%s out of bounds: %v, want invalid_request with a fix", name, err)
		}
	}
	if _, err := (kompact.SessionSettings{Title: new(strings.Repeat("é", kompact.MaxTitleLen))}).Check(); err != nil {
		t.Errorf("a title of MaxTitleLen code points: %v", err)
	}
	if err := kompact.CheckInstructions(`"instructions"`, strings.Repeat("é", kompact.MaxInstructionsLen)); err != nil {
		t.Errorf("instructions of MaxInstructionsLen code points: %v", err)
	}
}
