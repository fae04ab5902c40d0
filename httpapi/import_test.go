package httpapi_test

import (
	"testing"
)

// kimiContext is a kimi-cli context.jsonl: a system prompt, a checkpoint,
// two messages, a usage record and one line that cannot be read.
const kimiContext = `{"role":"_system_prompt","content":"You are Kimi."}
{"role":"_checkpoint","id":0}
{"role":"user","content":"fix the test"}
{"role":"assistant","content":"done"}
not json
{"role":"_usage","token_count":42}
`

// TestImportKimiContext: POST /v1/sessions/import?format=kimi reads a
// kimi-cli file as kompact sessions import --kimi does, with the id and
// agent the query names (issue 13, item 6).
func TestImportKimiContext(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	r := e.do("POST", "/v1/sessions/import?format=kimi&id=from-kimi", kimiContext)
	if r.status != 201 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	if got := r.header.Get("Kompact-Skipped-Lines"); got != "1" {
		t.Errorf("Kompact-Skipped-Lines %q, want 1", got)
	}
	s := r.json(t)
	msgs := s["messages"].([]any)
	if s["id"] != "from-kimi" || len(msgs) != 3 {
		t.Fatalf("session %v", s)
	}
	roles := ""
	for _, m := range msgs {
		roles += m.(map[string]any)["role"].(string) + " "
	}
	if roles != "system user assistant " {
		t.Errorf("roles %q", roles)
	}

	// A session document: the query's id replaces the document's.
	e.must(201, "POST", "/v1/sessions/import?id=renamed", apiSession("s", 1))
	e.must(200, "GET", "/v1/sessions/renamed", nil)

	// Not a kimi-cli file, an unknown format, an unknown agent.
	wantError(t, e.do("POST", "/v1/sessions/import?format=kimi", "not json\n"), 400, "invalid_request", "no kimi-cli context record", "line 1")
	wantError(t, e.do("POST", "/v1/sessions/import?format=yaml", apiSession("x", 1)), 400, "invalid_request", "unknown import format")
	wantError(t, e.do("POST", "/v1/sessions/import?format=kimi&agent=nobody", kimiContext), 400, "invalid_request")
}
