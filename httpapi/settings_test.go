package httpapi_test

import (
	"strings"
	"testing"
)

// A settings change that is refused in part writes nothing: the whole
// body is checked before one write (issue 28 §1: a token_count was
// recorded from a request answered 400 for its compaction_model).
func TestSettingsRefusedWritesNothing(t *testing.T) {
	e := newAutoEnv(t)
	e.must(201, "POST", "/v1/sessions", map[string]any{"id": "s", "agent": "auto", "compaction_model": "before",
		"messages": []any{map[string]any{"role": "user", "content": "hello"}}})
	before := e.must(200, "GET", "/v1/sessions/s", nil)
	title := func() any { // the session's title, as the list gives it
		t.Helper()
		list := e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any)
		return list[0].(map[string]any)["title"]
	}
	oldTitle := title()
	long := strings.Repeat("m", 300)
	for _, body := range []map[string]any{
		{"token_count": 777, "compaction_model": long},
		{"token_count": 777, "title": "renamed", "compaction_model": long},
		{"compaction_model": "after", "title": strings.Repeat("t", 1000)},
		{"compaction_model": "after", "token_count": -1},
	} {
		wantError(t, e.do("PATCH", "/v1/sessions/s/settings", body), 400, "invalid_request")
		c := e.must(200, "GET", "/v1/sessions/s/context", nil)
		after := e.must(200, "GET", "/v1/sessions/s", nil)
		if num(t, c, "token_count") != 0 || after["version"] != before["version"] ||
			after["compaction_model"] != "before" || title() != oldTitle {
			t.Fatalf("a refused %v wrote: token_count %v, version %v -> %v, model %v, title %v -> %v", body,
				c["token_count"], before["version"], after["version"], after["compaction_model"], oldTitle, title())
		}
	}

	// All three at once, in one write.
	got := e.must(200, "PATCH", "/v1/sessions/s/settings", map[string]any{"token_count": 777, "compaction_model": "after", "title": "renamed"})
	c := e.must(200, "GET", "/v1/sessions/s/context", nil)
	if num(t, c, "token_count") != 777 || got["compaction_model"] != "after" || title() != "renamed" || num(t, got, "version") != num(t, before, "version")+1 {
		t.Fatalf("all three: %v, context %v", got, c)
	}
}
