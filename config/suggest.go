package config

import (
	"fmt"

	"kompact"
	"kompact/internal/didyoumean"
)

// didYouMean adds a "Did you mean" fix to err when one of names is close to
// name, and returns err.
func didYouMean(err *kompact.Error, name string, names []string) *kompact.Error {
	if s := suggest(name, names); s != "" {
		err.WithFixes(fmt.Sprintf("Did you mean %q?", s))
	}
	return err
}

// suggest returns the candidate closest to s, or "" when none is close (see
// didyoumean.Closest).
func suggest(s string, candidates []string) string {
	return didyoumean.Closest(s, candidates)
}
