package httpapi_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/testserver"
	"kompact/openai"
)

// TestAnswerCapWritesNothing: a compaction or a continue whose LLM
// answer passes the agent's llm.max_answer_bytes fails with 502
// llm_error saying so, after one request, and writes nothing: no
// compaction, no reply (issue 21, item 2).
func TestAnswerCapWritesNothing(t *testing.T) {
	llm := fakellm.New(t)
	llm.SetDefault(fakellm.Answer(fakellm.Text(strings.Repeat("s", 64<<10))))
	agents, err := config.Parse([]byte(`agents:
  capped:
    llm:
      base_url: `+llm.URL()+`
      model: m
      max_answer_bytes: 4096
    compaction:
      enabled: true
      type: kimi
`), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	store := testserver.SQLite(t)
	sess, err := kompact.DecodeSession([]byte(`{"id":"s","agent":"capped","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"c"},{"role":"assistant","content":"d"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.CreateSession(context.Background(), sess); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(httpapi.New(httpapi.Config{Store: store, Agents: agents, LLM: &openai.Client{MaxRetries: 3}}).Handler())
	t.Cleanup(ts.Close)
	post := func(path, body string) (int, string) {
		r, err := ts.Client().Post(ts.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		return r.StatusCode, string(b)
	}
	for _, tc := range []struct{ path, body string }{
		{"/v1/sessions/s/actions/compact_conversation", `{}`},
		{"/v1/sessions/s/continue", `{"content":"go on"}`},
	} {
		before := len(llm.Requests())
		status, body := post(tc.path, tc.body)
		if status != http.StatusBadGateway || !strings.Contains(body, `"llm_error"`) || !strings.Contains(body, "llm.max_answer_bytes") {
			t.Errorf("%s: %d %s", tc.path, status, body)
		}
		if n := len(llm.Requests()) - before; n != 1 {
			t.Errorf("%s: %d LLM requests, want 1", tc.path, n)
		}
	}
	got, err := store.GetSession(context.Background(), "s")
	if err != nil {
		t.Fatal(err)
	}
	revs, err := store.ListRevisions(context.Background(), "s")
	if err != nil {
		t.Fatal(err)
	}
	// The continue's user message stays, as after any failed reply.
	if len(revs) != 0 || len(got.Messages) != 5 || got.Messages[4].Role != kompact.RoleUser {
		t.Errorf("after the capped answers: %d revisions, %d messages", len(revs), len(got.Messages))
	}
}
