package httpapi_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/httpapi"
	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/testserver"
	"kompact/openai"
	"kompact/sqlite"
)

// autoAgents: "auto" compacts by itself, "manual" has an unknown context
// size (testserver.AutoAgents).
const autoAgents = testserver.AutoAgents

func newAutoEnv(t *testing.T) *apiEnv {
	return newAPIEnv(t, apiOptions{agents: autoAgents})
}

// autoSession is a session of agent whose four messages hold 4800 tokens by
// kimi-cli's estimate (4 × 4800 characters / 4): below the 5000-token
// trigger, which a 1000-character message then crosses.
func autoSession(id, agent string) map[string]any {
	msgs := []map[string]any{}
	for i, role := range []string{"user", "assistant", "user", "assistant"} {
		msgs = append(msgs, map[string]any{"id": fmt.Sprintf("m%d", i+1), "role": role, "content": strings.Repeat(string(rune('a'+i)), 4800)})
	}
	return map[string]any{"id": id, "agent": agent, "messages": msgs}
}

// scriptLLM answers compaction requests (compact-model) with compaction and
// chat requests with a reply reporting 300 + 7 tokens.
func scriptLLM(e *apiEnv, compaction fakellm.Reply) {
	e.llm.SetFunc(func(req fakellm.Request) fakellm.Reply {
		if req.Model() == "compact-model" {
			return compaction
		}
		return fakellm.Answer(fakellm.Text("the reply")).WithUsage(fakellm.Usage{PromptTokens: 300, CompletionTokens: 7})
	})
}

// workSummary has every section the kimi type's prompt requires (issue 39
// §5: the quality gate of automatic compaction refuses a summary without).
const workSummary = "<current_focus>the work</current_focus>\n<environment>fake</environment>\n<completed_tasks>-</completed_tasks>\n" +
	"<active_issues>-</active_issues>\n<code_state>-</code_state>\n<important_context>-</important_context>"

func summaryAnswer(output int64) fakellm.Reply {
	return fakellm.Answer(fakellm.Text(workSummary)).WithUsage(fakellm.Usage{PromptTokens: 5000, CompletionTokens: output})
}

func num(t *testing.T, m map[string]any, key string) int {
	t.Helper()
	f, ok := m[key].(float64)
	if !ok {
		t.Fatalf("%s is %v (%T) in %v", key, m[key], m[key], m)
	}
	return int(f)
}

func models(reqs []fakellm.Request) []string {
	var out []string
	for _, r := range reqs {
		out = append(out, r.Model())
	}
	return out
}

// TestKCPD01ContinueCompactsAutomatically: a continue turn that takes the session
// over the trigger compacts it first (one compaction, an auto_compaction
// revision with the compaction's estimated_token_count), then sends the turn
// on the compacted session; the count after is the turn's usage total, and
// the next turn, below the trigger, does not compact.
func TestKCPD01ContinueCompactsAutomatically(t *testing.T) {
	e := newAutoEnv(t)
	e.must(201, "POST", "/v1/sessions", autoSession("s", "auto"))
	scriptLLM(e, summaryAnswer(20))

	out := e.must(200, "POST", "/v1/sessions/s/continue", map[string]any{"content": strings.Repeat("q", 1000)})
	auto, _ := out["auto_compaction"].(map[string]any)
	if auto == nil || auto["status"] != "compacted" || num(t, auto, "revision") != 1 {
		t.Fatalf("auto_compaction %v", out["auto_compaction"])
	}
	// Before: 4800 pending (the user message is not compacted). After: the
	// summary's 20 output tokens and the two preserved messages' 2400.
	if num(t, auto, "tokens_before") != 4800 || num(t, auto, "tokens_after") != 2420 || auto["reason"] != kompact.ReasonTriggerRatio {
		t.Errorf("auto_compaction figures %v", auto)
	}
	if got := models(e.llm.Requests()); strings.Join(got, ",") != "compact-model,chat-model" {
		t.Fatalf("requests %v, want one compaction, then the turn", got)
	}
	// The compaction request carries kimi-cli's completion budget, capped
	// by the room the 10000-token context leaves: the preserved tail alone
	// is 2400 tokens, plus the 1024 margin.
	if mt, _ := e.llm.Requests()[0].JSON["max_tokens"].(float64); mt < 1 || mt > 10000-2400-1024 {
		t.Errorf("the compaction request's max_tokens is %v", e.llm.Requests()[0].JSON["max_tokens"])
	}
	if e.llm.Requests()[1].JSON["max_tokens"] != nil {
		t.Errorf("the turn carries max_tokens %v", e.llm.Requests()[1].JSON["max_tokens"])
	}
	turn := e.llm.Requests()[1].Messages()
	if len(turn) != 5 || !strings.Contains(fmt.Sprint(turn[1]["content"]), kompact.SummaryPrefix) || turn[4]["content"] != strings.Repeat("q", 1000) {
		t.Errorf("the turn was not sent on the compacted session: %d messages %v", len(turn), turn)
	}
	revs := e.must(200, "GET", "/v1/sessions/s/revisions", nil)["revisions"].([]any)
	if len(revs) != 1 || revs[0].(map[string]any)["kind"] != kompact.RevisionAutoCompaction {
		t.Fatalf("revisions %v", revs)
	}
	c := out["context"].(map[string]any)
	if num(t, c, "token_count") != 307 || num(t, c, "pending_tokens") != 0 || c["should_compact"] != false {
		t.Errorf("context after the turn %v, want the usage total 307", c)
	}
	got := e.must(200, "GET", "/v1/sessions/s/context", nil)
	if num(t, got, "token_count") != 307 || num(t, got, "max_context_size") != 10000 || got["reason"] != kompact.ReasonBelowThreshold {
		t.Errorf("context route %v", got)
	}

	// Below the trigger: the next turn goes straight to the model.
	out = e.must(200, "POST", "/v1/sessions/s/continue", map[string]any{"content": "and now?"})
	if out["auto_compaction"] != nil || len(e.llm.Requests()) != 3 || e.llm.Requests()[2].Model() != "chat-model" {
		t.Fatalf("second turn: auto_compaction %v, requests %v", out["auto_compaction"], models(e.llm.Requests()))
	}
}

// TestKCPD01AutoCompactionBreaker: when the automatic compaction fails, the turn
// is not sent and the session is unchanged; after three failures in a row
// automatic compaction pauses (the turn goes on uncompacted) until a manual
// compaction succeeds.
func TestKCPD01AutoCompactionBreaker(t *testing.T) {
	e := newAutoEnv(t)
	e.must(201, "POST", "/v1/sessions", autoSession("s", "auto"))
	scriptLLM(e, fakellm.Fail(400, "the compaction model is broken"))
	before := e.must(200, "GET", "/v1/sessions/s", nil)

	for i := 1; i <= kompact.AutoCompactionFailureLimit; i++ {
		r := e.do("POST", "/v1/sessions/s/continue", map[string]any{"content": strings.Repeat("q", 1000)})
		wantError(t, r, 502, "llm_error", "automatic compaction before this turn failed", "not sent", "compaction model is broken")
		for _, req := range e.llm.Requests() {
			if req.Model() != "compact-model" {
				t.Fatalf("failure %d: the turn was sent: %v", i, models(e.llm.Requests()))
			}
		}
		after := e.must(200, "GET", "/v1/sessions/s", nil)
		if after["version"] != before["version"] || len(after["messages"].([]any)) != 4 {
			t.Fatalf("failure %d changed the session: version %v, %d messages", i, after["version"], len(after["messages"].([]any)))
		}
		c := e.must(200, "GET", "/v1/sessions/s/context", nil)
		if num(t, c, "auto_failures") != i || c["auto_paused"] != (i == kompact.AutoCompactionFailureLimit) {
			t.Fatalf("after failure %d: %v", i, c)
		}
	}

	// Paused: no compaction is tried, the turn is sent as it is.
	n := len(e.llm.Requests())
	out := e.must(200, "POST", "/v1/sessions/s/continue", map[string]any{"content": strings.Repeat("q", 1000)})
	if out["auto_compaction"] != nil || strings.Join(models(e.llm.Requests()[n:]), ",") != "chat-model" {
		t.Fatalf("paused: auto_compaction %v, requests %v", out["auto_compaction"], models(e.llm.Requests()[n:]))
	}

	// A manual compaction that succeeds closes the breaker.
	scriptLLM(e, summaryAnswer(20))
	e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{})
	c := e.must(200, "GET", "/v1/sessions/s/context", nil)
	if num(t, c, "auto_failures") != 0 || c["auto_paused"] != false {
		t.Fatalf("after a manual success: %v", c)
	}
	revs := e.must(200, "GET", "/v1/sessions/s/revisions", nil)["revisions"].([]any)
	if len(revs) != 1 || revs[0].(map[string]any)["kind"] != kompact.RevisionCompaction {
		t.Fatalf("revisions %v", revs)
	}
}

// TestKCPD01AutoCompactionNotReduced: an automatic compaction whose result would
// not lower the token count is not committed; it is reported (not_reduced,
// 409 in the status table), counts as a failure, and the turn goes on with
// the session as it was.
func TestKCPD01AutoCompactionNotReduced(t *testing.T) {
	if got := httpapi.StatusOf(kompact.ENotReduced); got != http.StatusConflict {
		t.Fatalf("StatusOf(not_reduced) = %d, want 409", got)
	}
	e := newAutoEnv(t)
	e.must(201, "POST", "/v1/sessions", autoSession("s", "auto"))
	scriptLLM(e, summaryAnswer(9000)) // 9000 + 2400 > 4800
	out := e.must(200, "POST", "/v1/sessions/s/continue", map[string]any{"content": strings.Repeat("q", 1000)})
	auto := out["auto_compaction"].(map[string]any)
	errBody, _ := auto["error"].(map[string]any)
	if auto["status"] != "not_reduced" || errBody == nil || errBody["code"] != string(kompact.ENotReduced) ||
		num(t, auto, "tokens_before") != 4800 || num(t, auto, "tokens_after") != 11400 || num(t, auto, "auto_failures") != 1 {
		t.Fatalf("auto_compaction %v", auto)
	}
	if got := models(e.llm.Requests()); strings.Join(got, ",") != "compact-model,chat-model" {
		t.Fatalf("requests %v", got)
	}
	if revs := e.must(200, "GET", "/v1/sessions/s/revisions", nil)["revisions"].([]any); len(revs) != 0 {
		t.Fatalf("a result that did not reduce was committed: %v", revs)
	}
	s := e.must(200, "GET", "/v1/sessions/s", nil)
	if msgs := s["messages"].([]any); len(msgs) != 6 || texts(msgs[0]) != strings.Repeat("a", 4800) {
		t.Fatalf("the session changed beyond the turn: %d messages", len(msgs))
	}
}

// TestKCPD01ContextRoute: the figures of the context route, of appends (each
// append adds its own estimate, rounded down once), of a reported token
// count (PATCH settings), and of an agent whose context size is unknown.
func TestKCPD01ContextRoute(t *testing.T) {
	e := newAutoEnv(t)
	e.must(201, "POST", "/v1/sessions", map[string]any{"id": "s", "agent": "auto", "messages": []any{
		map[string]any{"role": "user", "content": strings.Repeat("x", 4000)},
	}})
	c := e.must(200, "GET", "/v1/sessions/s/context", nil)
	if num(t, c, "token_count") != 0 || num(t, c, "pending_tokens") != 1000 || num(t, c, "max_context_size") != 10000 ||
		c["usage_ratio"] != 0.1 || c["should_compact"] != false || c["reason"] != kompact.ReasonBelowThreshold || c["auto_compaction"] != true {
		t.Fatalf("context %v", c)
	}

	// Two 3-character messages in one append count 1; alone, 0 each.
	three := map[string]any{"role": "user", "content": "abc"}
	out := e.must(201, "POST", "/v1/sessions/s/messages", map[string]any{"messages": []any{three, three}})
	if ac := out["context"].(map[string]any); num(t, ac, "pending_tokens") != 1001 {
		t.Fatalf("append context %v", ac)
	}
	out = e.must(201, "POST", "/v1/sessions/s/messages", map[string]any{"message": three})
	if ac := out["context"].(map[string]any); num(t, ac, "pending_tokens") != 1001 || out["auto_compaction"] != nil {
		t.Fatalf("append context %v, auto_compaction %v", ac, out["auto_compaction"])
	}

	// A provider's figure: both conditions hold at 9500 of 10000.
	e.must(200, "PATCH", "/v1/sessions/s/settings", map[string]any{"token_count": 9500})
	c = e.must(200, "GET", "/v1/sessions/s/context", nil)
	if num(t, c, "token_count") != 9500 || num(t, c, "pending_tokens") != 0 || c["should_compact"] != true || c["reason"] != kompact.ReasonBoth {
		t.Fatalf("after PATCH token_count: %v", c)
	}
	wantError(t, e.do("PATCH", "/v1/sessions/s/settings", map[string]any{"token_count": -1}), 400, "invalid_request")
	wantError(t, e.do("PATCH", "/v1/sessions/s/settings", map[string]any{}), 400, "invalid_request", "token_count")

	// Unknown context size: never due.
	e.must(201, "POST", "/v1/sessions", map[string]any{"id": "o", "agent": "manual", "messages": []any{three}})
	c = e.must(200, "GET", "/v1/sessions/o/context", nil)
	if num(t, c, "max_context_size") != 0 || c["usage_ratio"] != 0.0 || c["should_compact"] != false || c["reason"] != kompact.ReasonUnknownContextSize || c["auto_compaction"] != false {
		t.Fatalf("unknown size: %v", c)
	}
	wantError(t, e.do("GET", "/v1/sessions/nope/context", nil), 404, "not_found")
}

// TestKCPD01AppendAutoCompacts: with ?auto_compact=true, an append that makes
// compaction due starts it in the background; the result appears as an
// auto_compaction revision. Without the parameter nothing starts.
func TestKCPD01AppendAutoCompacts(t *testing.T) {
	e := newAutoEnv(t)
	e.must(201, "POST", "/v1/sessions", autoSession("s", "auto"))
	scriptLLM(e, summaryAnswer(20))
	big := map[string]any{"role": "user", "content": strings.Repeat("q", 1000)}
	out := e.must(201, "POST", "/v1/sessions/s/messages", map[string]any{"message": big})
	if c := out["context"].(map[string]any); c["should_compact"] != true || out["auto_compaction"] != nil || len(e.llm.Requests()) != 0 {
		t.Fatalf("without auto_compact: context %v, auto_compaction %v", c, out["auto_compaction"])
	}
	out = e.must(201, "POST", "/v1/sessions/s/messages?auto_compact=true", map[string]any{"message": big})
	if a := out["auto_compaction"].(map[string]any); a["status"] != "started" {
		t.Fatalf("auto_compaction %v", a)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		revs := e.must(200, "GET", "/v1/sessions/s/revisions", nil)["revisions"].([]any)
		if len(revs) == 1 {
			if revs[0].(map[string]any)["kind"] != kompact.RevisionAutoCompaction {
				t.Fatalf("revision %v", revs[0])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no automatic compaction appeared; revisions %v, requests %v", revs, models(e.llm.Requests()))
		}
		time.Sleep(20 * time.Millisecond)
	}
	c := e.must(200, "GET", "/v1/sessions/s/context", nil)
	if c["should_compact"] != false || num(t, c, "token_count") == 0 {
		t.Fatalf("after the background compaction: %v", c)
	}
	// Not due any more: an append with auto_compact says so.
	out = e.must(201, "POST", "/v1/sessions/s/messages?auto_compact=true", map[string]any{"message": map[string]any{"role": "user", "content": "hi"}})
	if a := out["auto_compaction"].(map[string]any); a["status"] != "not_due" || a["reason"] != kompact.ReasonBelowThreshold {
		t.Fatalf("auto_compaction %v", a)
	}
}

// TestKCPD01ContextSizeFromProvider: without llm.max_context_size the
// context route reports the context_length the provider's model list gives
// (asked once), as kompact serve wires it.
func TestKCPD01ContextSizeFromProvider(t *testing.T) {
	llm := fakellm.New(t)
	n := int64(131072)
	llm.SetModels(fakellm.Model{ID: "manual-model", ContextLength: &n})
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	srv := httpapi.New(httpapi.Config{Store: store, Agents: apiConfigOf(t, autoAgents, llm.URL()),
		ContextSize: (&openai.Models{}).AgentContextSize})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	e := &apiEnv{t: t, llm: llm, store: store, srv: srv, base: ts.URL, http: httpapi.CheckedClient(t, ts.Client()), logs: &testserver.Buffer{}}
	e.must(201, "POST", "/v1/sessions", map[string]any{"id": "o", "agent": "manual", "messages": []any{map[string]any{"role": "user", "content": "hello"}}})
	for range 2 {
		c := e.must(200, "GET", "/v1/sessions/o/context", nil)
		if num(t, c, "max_context_size") != 131072 || c["reason"] != kompact.ReasonBelowThreshold {
			t.Fatalf("context %v", c)
		}
	}
	if reqs := llm.Requests(); len(reqs) != 1 || reqs[0].Path != "/v1/models" {
		t.Fatalf("requests %v, want one model-list lookup", reqs)
	}
}
