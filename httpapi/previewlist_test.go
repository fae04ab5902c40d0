package httpapi_test

import (
	"testing"
	"time"

	"kompact"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakellm"
)

// listedSession returns the item of session id in GET /v1/sessions.
func listedSession(e *apiEnv, id string) map[string]any {
	e.t.Helper()
	for _, it := range e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any) {
		if m := it.(map[string]any); m["id"] == id {
			return m
		}
	}
	e.t.Fatalf("session %s is not listed", id)
	return nil
}

// A preview stays reachable (issue 19 §3): the session list counts it, the
// previews route lists it with the messages it replaces (as the dry run
// numbers them) and whether the session moved on since, and reopening it
// answers exactly what the action answered; applying it removes it.
func TestOpenPreviewsListedAndReopened(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 4))
	e.must(201, "POST", "/v1/sessions/import", apiSession("t", 1))
	if got := listedSession(e, "s"); got["open_previews"] != 0.0 || got["running"] != false {
		t.Fatalf("before any preview, the list has %v", got)
	}
	if got := e.must(200, "GET", "/v1/sessions/s/previews", nil); apitest.JSONText(t, got) != `{"previews":[]}` {
		t.Fatalf("no previews: %s", apitest.JSONText(t, got))
	}
	dry := e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"dry_run": true})
	e.llm.Enqueue(fakellm.Answer(fakellm.Text("<current_focus>\ndraft\n</current_focus>")))
	pv := e.do("POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"preview": true})
	if pv.status != 200 {
		t.Fatalf("preview: %d %s", pv.status, pv.body)
	}
	pid := pv.json(t)["preview_id"].(string)

	if got := listedSession(e, "s"); got["open_previews"] != 1.0 {
		t.Errorf("the list has %v, want open_previews 1", got)
	}
	if got := listedSession(e, "t"); got["open_previews"] != 0.0 {
		t.Errorf("another session's item has %v", got)
	}
	list := e.must(200, "GET", "/v1/sessions/s/previews", nil)["previews"].([]any)
	if len(list) != 1 {
		t.Fatalf("previews %v", list)
	}
	p := list[0].(map[string]any)
	if p["preview_id"] != pid || p["version"] != 1.0 || p["stale"] != false ||
		p["first"] != dry["first"] || p["last"] != dry["last"] || p["compacted_messages"] != dry["replaced_messages"] {
		t.Errorf("preview %v; the dry run said %v", p, dry)
	}
	created, err1 := time.Parse(time.RFC3339Nano, p["created_at"].(string))
	expires, err2 := time.Parse(time.RFC3339Nano, p["expires_at"].(string))
	if err1 != nil || err2 != nil || expires.Sub(created) != kompact.PreviewTTL || time.Since(created) > time.Minute {
		t.Errorf("created_at %v, expires_at %v", p["created_at"], p["expires_at"])
	}

	again := e.do("GET", "/v1/sessions/s/previews/"+pid, nil)
	if again.status != 200 || string(again.body) != string(pv.body) {
		t.Errorf("reopened: %d\n%s\nthe action answered\n%s", again.status, again.body, pv.body)
	}
	wantError(t, e.do("GET", "/v1/sessions/t/previews/"+pid, nil), 404, "not_found")
	wantError(t, e.do("GET", "/v1/sessions/s/previews/pv_none", nil), 404, "not_found")
	wantError(t, e.do("GET", "/v1/sessions/nobody/previews", nil), 404, "not_found")

	// An append moves the session on: the preview is stale, and still
	// applies (the appended message follows the summary).
	e.must(201, "POST", "/v1/sessions/s/messages", map[string]any{"message": map[string]any{"id": "late", "role": "user", "content": "late"}})
	if p := e.must(200, "GET", "/v1/sessions/s/previews", nil)["previews"].([]any)[0].(map[string]any); p["stale"] != true {
		t.Errorf("after an append: %v", p)
	}
	e.must(200, "POST", "/v1/sessions/s/previews/"+pid+"/apply", nil)
	if got := e.must(200, "GET", "/v1/sessions/s/previews", nil); apitest.JSONText(t, got) != `{"previews":[]}` {
		t.Errorf("after applying: %s", apitest.JSONText(t, got))
	}
	if got := listedSession(e, "s"); got["open_previews"] != 0.0 {
		t.Errorf("after applying, the list has %v", got)
	}
	wantError(t, e.do("GET", "/v1/sessions/s/previews/"+pid, nil), 404, "not_found")
}

// The session list marks a session this instance runs an action on.
func TestSessionListMarksRunningActions(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 4))
	entered, release := make(chan struct{}), make(chan struct{})
	e.llm.SetFunc(func(fakellm.Request) fakellm.Reply {
		entered <- struct{}{}
		<-release
		return fakellm.Answer(fakellm.Text("<current_focus>\ndone\n</current_focus>"))
	})
	done := make(chan apiResponse)
	go func() { done <- e.do("POST", "/v1/sessions/s/actions/compact_conversation", nil) }()
	<-entered
	if got := listedSession(e, "s"); got["running"] != true {
		t.Errorf("while compacting, the list has %v", got)
	}
	close(release)
	if r := <-done; r.status != 200 {
		t.Fatalf("compaction: %d %s", r.status, r.body)
	}
	if got := listedSession(e, "s"); got["running"] != false {
		t.Errorf("after the compaction, the list has %v", got)
	}
}

// smallWindowAgents: "small" has a 32768-token window and kimi-cli's
// default reserved_context_size (50000).
const smallWindowAgents = `default_agent: small
agents:
  small:
    llm:
      base_url: %s
      model: chat-model
      max_context_size: 32768
    compaction:
      enabled: true
      type: kimi
      auto:
        enabled: true
  big:
    llm:
      base_url: %s
      model: chat-model
      max_context_size: 200000
    compaction:
      enabled: true
      type: kimi
`

// The context route says when reserved_context_size is not below the
// window (compaction is then always due, kimi-cli's trigger unchanged) and
// suggests a value; otherwise it says nothing of it.
func TestContextSaysReservedExceedsWindow(t *testing.T) {
	e := newAPIEnv(t, apiOptions{agents: smallWindowAgents})
	e.must(201, "POST", "/v1/sessions", map[string]any{"id": "s", "messages": []any{map[string]any{"role": "user", "content": "hi"}}})
	e.must(201, "POST", "/v1/sessions", map[string]any{"id": "b", "agent": "big", "messages": []any{map[string]any{"role": "user", "content": "hi"}}})
	c := e.must(200, "GET", "/v1/sessions/s/context", nil)
	if c["reserved_exceeds_window"] != true || num(t, c, "suggested_reserved_context_size") != 4900 ||
		c["should_compact"] != true || c["reason"] != kompact.ReasonReservedContext || num(t, c, "reserved_context_size") != 50000 {
		t.Errorf("a 32768-token window with the default reserve: %v", c)
	}
	c = e.must(200, "GET", "/v1/sessions/b/context", nil)
	if _, ok := c["suggested_reserved_context_size"]; c["reserved_exceeds_window"] != false || ok {
		t.Errorf("a 200000-token window: %v", c)
	}
}
