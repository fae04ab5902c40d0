package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/fakellm"
)

// pingFailingStore is a store that does not answer a ping.
type pingFailingStore struct{ kompact.Store }

func (pingFailingStore) Ping(context.Context) error { return errors.New("connection refused") }

// GET /v1/health says whether the store answers: 200 when it does, 503
// when it does not (issue 10 §4).
func TestHealthChecksTheStore(t *testing.T) {
	ok := newAPIEnv(t, apiOptions{})
	if h := ok.must(200, "GET", "/v1/health", nil); h["status"] != "ok" || h["store"] != "ok" || h["version"] != "test-1" {
		t.Errorf("health %v", h)
	}
	down := newAPIEnv(t, apiOptions{store: func(s kompact.Store) kompact.Store { return pingFailingStore{s} }})
	r := down.do("GET", "/v1/health", nil)
	if h := r.json(t); r.status != 503 || h["status"] != "unavailable" || h["store"] != "not answering" || strings.Contains(string(r.body), "refused") {
		t.Errorf("health of a store that does not answer: %d %s", r.status, r.body)
	}
	if logs := down.logs.String(); !strings.Contains(logs, "connection refused") {
		t.Errorf("the store's error is not logged:\n%s", logs)
	}
}

// GET /metrics serves Prometheus metrics behind the API's token: requests
// by route and status, action outcomes by status and code, LLM call
// latency and retries, appended messages, store errors.
func TestMetrics(t *testing.T) {
	e := newAPIEnv(t, apiOptions{token: "tok-0123456789abcdef", store: func(s kompact.Store) kompact.Store { return commitFailingStore{s} }})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 3))
	e.must(201, "POST", "/v1/sessions/s/messages", map[string]any{"messages": []any{
		map[string]any{"role": "user", "content": "one"}, map[string]any{"role": "assistant", "content": "two"}}})
	e.must(200, "GET", "/v1/sessions/s", nil)
	e.do("GET", "/v1/sessions/nope", nil)
	e.llm.Enqueue(fakellm.Fail(503, "busy"), fakellm.Answer(fakellm.Text("summary"))) // one retry, then the commit fails
	wantError(t, e.do("POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"accept_warnings": true}), 500, "internal")
	e.llm.Enqueue(fakellm.Answer(fakellm.Text("summary")))
	e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"preview": true})

	if r := e.do("GET", "/metrics", nil, "Authorization", ""); r.status != 401 {
		t.Fatalf("/metrics without the token: %d", r.status)
	}
	r := e.do("GET", "/metrics", nil)
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") {
		t.Fatalf("/metrics: %d %s", r.status, r.header.Get("Content-Type"))
	}
	body := string(r.body)
	for _, want := range []string{
		`kompact_http_requests_total{route="GET /v1/sessions/{id}",status="200"} 1`,
		`kompact_http_requests_total{route="GET /v1/sessions/{id}",status="404"} 1`,
		`kompact_http_requests_total{route="POST /v1/sessions/{id}/messages",status="201"} 1`,
		`kompact_action_outcomes_total{code="internal",status="error"} 1`,
		`kompact_action_outcomes_total{code="",status="preview"} 1`,
		`kompact_llm_call_seconds_count{result="ok"} 2`,
		`kompact_llm_retries_total 1`,
		`kompact_appended_messages_total 2`,
		`kompact_store_errors_total{op="commit_compaction"} 1`,
	} {
		if !strings.Contains(body, want+"\n") {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if t.Failed() {
		t.Logf("/metrics:\n%s", body)
	}
}

// With JSON logs, every line a request logs carries its request id, which
// the response's X-Request-Id header shows too.
func TestRequestIDOnEveryLogLine(t *testing.T) {
	e := newAPIEnv(t, apiOptions{jsonLogs: true, store: func(s kompact.Store) kompact.Store { return failingStore{s} }})
	r := e.do("GET", "/v1/sessions/x", nil)
	id := r.header.Get("X-Request-Id")
	if r.status != 500 || len(id) != 16 {
		t.Fatalf("status %d, request id %q", r.status, id)
	}
	var lines []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(e.logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("a log line is not JSON: %q", line)
		}
		lines = append(lines, m)
	}
	if len(lines) != 2 || lines[0]["msg"] != "internal error" || lines[1]["msg"] != "request" {
		t.Fatalf("log lines %v", lines)
	}
	for _, m := range lines {
		if m["request_id"] != id {
			t.Errorf("line %v lacks request_id %s", m, id)
		}
	}
	if other := e.do("GET", "/v1/sessions/x", nil).header.Get("X-Request-Id"); other == id || other == "" {
		t.Errorf("a second request has the id %q", other)
	}
}
