package httpapi_test

import (
	"runtime"
	"strings"
	"testing"

	"kompact/httpapi"
)

// A create or an append that brings more messages than
// --max-request-messages stops decoding them at the limit (issue 29: two
// million empty messages were all decoded before the 413, +96 MB). The
// allocations the request makes, counted around it, are bounded by the
// limit (about 2,400 for a limit of 1,000), not by the two million
// messages the body holds (2,000,000 and more before).
func TestRequestMessageLimitStopsDecoding(t *testing.T) {
	const limit, sent = 1000, 2_000_000
	e := newAPIEnv(t, apiOptions{limits: httpapi.Limits{MaxRequestMessages: limit}})
	e.must(201, "POST", "/v1/sessions", `{"id":"s","messages":[{"role":"user","content":"x"}]}`)
	body := []byte(`{"messages":[` + strings.TrimSuffix(strings.Repeat(`{},`, sent), ",") + `]}`)
	// Once unmeasured: the test's OpenAPI checker builds its validator
	// for bodies of this size on the first one.
	e.do("POST", "/v1/sessions/s/messages", body)
	for _, path := range []string{"/v1/sessions", "/v1/sessions/s/messages"} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r := e.do("POST", path, body)
		runtime.ReadMemStats(&after)
		wantError(t, r, 413, "too_large", "the request brings 1001 messages or more", "at most 1000")
		if n := after.Mallocs - before.Mallocs; n > 20*limit {
			t.Errorf("POST %s: %d allocations for a body of %d messages over a limit of %d: the decode did not stop at the limit", path, n, sent, limit)
		}
	}
}
