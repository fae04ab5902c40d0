package httpapi_test

import (
	"regexp"
)

// timestamps matches the RFC 3339 times the server writes.
var timestamps = regexp.MustCompile(`"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"`)

// normalise replaces the times in got, which the store takes from the
// clock, with a fixed one.
func normalise(got []byte) []byte {
	return timestamps.ReplaceAll(got, []byte(`"2000-01-01T00:00:00Z"`))
}
