package httpapi_test

import (
	"kompact/internal/testing/apitest"
	"testing"
)

// TestActionDryRun: "dry_run": true answers what the action would
// compact, chosen as the action chooses it, without an LLM call and
// without changing the session.
func TestActionDryRun(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("dry", 3)) // sys u1 a1 u2 a2 u3 a3
	before := e.must(200, "GET", "/v1/sessions/dry", nil)

	// The preserved tail (max 2 user/assistant messages) stays, and so
	// does the leading system message.
	got := e.must(200, "POST", "/v1/sessions/dry/actions/compact_conversation", map[string]any{"dry_run": true})
	want := map[string]any{"status": "dry_run", "noop": false, "first": 2.0, "last": 5.0, "messages": 7.0,
		"replaced_messages": 4.0, "preserved_messages": 2.0, "estimated_tokens": 9.0, "model": "compact-model"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("compact_conversation dry run: %s = %v, want %v (%v)", k, got[k], v, got)
		}
	}
	// Up to a message: exactly the messages up to it, no tail.
	got = e.must(200, "POST", "/v1/sessions/dry/actions/compact_up_to_here", map[string]any{"message_id": "a1", "dry_run": true})
	if got["first"] != 2.0 || got["last"] != 3.0 || got["preserved_messages"] != 4.0 || got["estimated_tokens"] != 4.0 {
		t.Errorf("compact_up_to_here dry run: %v", got)
	}
	// A no-op says why.
	got = e.must(200, "POST", "/v1/sessions/dry/actions/compact_conversation", map[string]any{"start": "u3", "dry_run": true})
	if got["noop"] != true || got["reason"] == "" || got["first"] != nil {
		t.Errorf("no-op dry run: %v", got)
	}
	// A bad range is the action's error.
	wantError(t, e.do("POST", "/v1/sessions/dry/actions/compact_conversation", map[string]any{"start": "a2", "end": "u1", "dry_run": true}), 400, "invalid_request")

	if n := len(e.llm.Requests()); n != 0 {
		t.Errorf("a dry run called the LLM %d times", n)
	}
	after := e.must(200, "GET", "/v1/sessions/dry", nil)
	if apitest.JSONText(t, after["messages"]) != apitest.JSONText(t, before["messages"]) || after["version"] != before["version"] {
		t.Errorf("a dry run changed the session")
	}
}
