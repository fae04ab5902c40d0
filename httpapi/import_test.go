package httpapi_test

import (
	"kompact/internal/testing/apitest"
	"testing"
)

// TestImportKimiContext: POST /v1/sessions/import?format=kimi reads a
// kimi-cli file as kompact sessions import --kimi does, with the id and
// agent the query names (issue 13, item 6).
func TestImportKimiContext(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	r := e.do("POST", "/v1/sessions/import?format=kimi&id=from-kimi", apitest.KimiContext)
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
	wantError(t, e.do("POST", "/v1/sessions/import?format=kimi&agent=nobody", apitest.KimiContext), 400, "invalid_request")
}

// TestImportKimiContextKeepsItsRecords: a kimi-cli session's JSON has its
// file's metadata lines in the optional "kimi" field, at their places
// among the messages (issue 19 §2); a session document's has no such
// field.
func TestImportKimiContextKeepsItsRecords(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import?format=kimi&id=k", apitest.KimiContext)
	s := e.must(200, "GET", "/v1/sessions/k", nil)
	kimi, _ := s["kimi"].(map[string]any)
	recs, _ := kimi["records"].([]any)
	if kimi["system_prompt"] != true || len(recs) != 3 {
		t.Fatalf("kimi %v", s["kimi"])
	}
	want := []struct {
		at   float64
		line string
	}{{1, `{"role":"_system_prompt","content":"You are Kimi."}`}, {1, `{"role":"_checkpoint","id":0}`}, {3, `{"role":"_usage","token_count":42}`}}
	for i, w := range want {
		r := recs[i].(map[string]any)
		if r["at"] != w.at || r["line"] != w.line {
			t.Errorf("record %d: %v, want %v", i, r, w)
		}
	}
	// Its token figures are the ones kimi-cli restores: the last _usage
	// line's, nothing pending after it.
	if c := e.must(200, "GET", "/v1/sessions/k/context", nil); c["token_count"] != 42.0 || c["pending_tokens"] != 0.0 {
		t.Errorf("context %v", c)
	}
	e.must(201, "POST", "/v1/sessions/import", apiSession("plain", 1))
	if s := e.must(200, "GET", "/v1/sessions/plain", nil); s["kimi"] != nil {
		t.Errorf("a session document's session has kimi %v", s["kimi"])
	}
}

// TestImportKimiContextWithoutFormat: a kimi-cli file posted as a session
// document is refused with an answer that says what it is and how to
// import it, rather than a JSON syntax error (issue 19 §1); nothing is
// stored.
func TestImportKimiContextWithoutFormat(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	for _, q := range []string{"", "?format=session", "?id=x"} {
		wantError(t, e.do("POST", "/v1/sessions/import"+q, apitest.KimiContext), 400, "invalid_request",
			"kimi-cli context.jsonl", "not a session document", "?format=kimi", "kompact sessions import --kimi")
	}
	// One message line alone is valid JSON, but no session document.
	wantError(t, e.do("POST", "/v1/sessions/import", `{"role":"user","content":"hi"}`+"\n"), 400, "invalid_request", "kimi-cli context.jsonl")
	// A broken session document keeps its own error.
	wantError(t, e.do("POST", "/v1/sessions/import", `{"messages": [`), 400, "invalid_request", "session")
	if list := e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any); len(list) != 0 {
		t.Errorf("stored %v", list)
	}
}
