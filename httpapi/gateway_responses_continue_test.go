package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakeresponses"
)

// cxThread is Codex's thread th-1 through a gateway with one agent, "cx"
// (apitest.CodexGateway: it precomputes at 5,000 tokens of a 20,000-token
// window), over fake: Codex's requests answered "ok", the second answer
// reporting a full window (9,000 input tokens; the first has nothing to
// compact yet: a precompute of it would race the second's), every other
// 300, and kompact's own compaction answered with a summary holding
// KOMPACT-CX-SUMMARY. Its requests carry h (codexHeaders); hist starts as
// base (a developer message and Codex's <environment_context>) and the
// user's first message.
type cxThread struct {
	t    *testing.T
	srv  *httptest.Server
	fake *fakeresponses.Server
	h    http.Header
	base []string
	hist []string
}

// newCxThread is a cxThread whose <environment_context> message is env
// (cxEnvironment), nothing sent yet.
func newCxThread(t *testing.T, env string) *cxThread {
	t.Helper()
	c := &fakeresponses.Codex{Text: "ok", Usage: func(n int, _ fakeresponses.Kind) fakeresponses.Usage {
		if n == 1 {
			return fakeresponses.Usage{Input: 9000, Output: 10}
		}
		return fakeresponses.Usage{Input: 300, Output: 10}
	}}
	summary := "<current_focus>the test</current_focus>\n<environment>fake</environment>\n<completed_tasks>KOMPACT-CX-SUMMARY</completed_tasks>\n" +
		"<active_issues>none</active_issues>\n<code_state>none</code_state>\n<important_context>the greeting</important_context>"
	fake := apitest.CodexUpstream(t, c, summary)
	base := []string{cxMessage("developer", "You are a test agent."), env}
	return &cxThread{t: t, srv: apitest.CodexGateway(t, fake.URL), fake: fake, h: codexHeaders(),
		base: base, hist: append(append([]string{}, base...), cxMessage("user", "Hello there."))}
}

// post sends items as a request of the thread and returns the response
// and its body; the test fails, naming the request what, unless it is
// answered 200 and, where session is not empty, in that session
// (X-Kompact-Session).
func (x *cxThread) post(what string, items []string, session string) (*http.Response, string) {
	x.t.Helper()
	resp, out, err := postResponses(x.t, x.srv.URL, "", cxBody(items...), x.h)
	if err != nil || resp.StatusCode != 200 || session != "" && resp.Header.Get("X-Kompact-Session") != session {
		x.t.Fatalf("%s: %v %v %s", what, err, resp, out)
	}
	return resp, out
}

// firstTurns sends the thread's first two turns (post, session as there),
// the second filling the window: hist, then hist with Codex's answer "ok"
// and the user's "Second question." added.
func (x *cxThread) firstTurns(session string) {
	x.t.Helper()
	x.post("turn 1", x.hist, session)
	x.hist = append(x.hist, cxMessage("assistant", "ok"), cxMessage("user", "Second question."))
	x.post("turn 2", x.hist, session)
}

// compact waits for the thread's precomputed summary and sends Codex's
// automatic remote compaction (hist, its answer "ok" added to it, and a
// compaction_trigger; phase, where not empty, in the turn metadata's
// compaction), which the gateway must answer itself; it returns the
// compaction item of the answer.
func (x *cxThread) compact(phase string) string {
	x.t.Helper()
	waitCxPreview(x.t, x.srv.URL, "th-1")
	x.hist = append(x.hist, cxMessage("assistant", "ok"))
	compaction := `{"trigger":"auto","implementation":"responses_compaction_v2"`
	if phase != "" {
		compaction += `,"phase":"` + phase + `"`
	}
	ch := x.h.Clone()
	ch.Set("X-Codex-Turn-Metadata", `{"thread_id":"th-1","request_kind":"compaction","compaction":`+compaction+`}}`)
	resp, out, err := postResponses(x.t, x.srv.URL, "", cxBody(append(append([]string{}, x.hist...), `{"type":"compaction_trigger"}`)...), ch)
	if err != nil || resp.StatusCode != 200 || resp.Header.Get("X-Kompact-Forwarded") != "answered" {
		x.t.Fatalf("the compaction was not answered: %v %v %s", err, resp, out)
	}
	return answeredItem(x.t, out)
}

// cxBody is a Responses body of items (JSON objects), streamed, with
// Codex's tools.
func cxBody(items ...string) string {
	return `{"model":"fake-model","stream":true,"input":[` + strings.Join(items, ",") + `],"tools":[{"type":"function","name":"exec_command"}],"store":false}`
}

// cxMessage is a message item of role with text.
func cxMessage(role, text string) string {
	typ := "input_text"
	if role == "assistant" {
		typ = "output_text"
	}
	b, _ := json.Marshal(text)
	return `{"type":"message","role":"` + role + `","content":[{"type":"` + typ + `","text":` + string(b) + `}]}`
}

// answeredItem is the one output item of an answered compaction stream.
func answeredItem(t *testing.T, stream string) string {
	t.Helper()
	items := fakeresponses.StreamItems(stream)
	if len(items) == 0 {
		t.Fatalf("no output item in the answer: %s", stream)
	}
	return items[0]
}

// TestResponsesContinuesCompactedSession (issue 42 §2): the
// turn after a remote compaction the gateway answered carries Codex's
// rebuilt history (base instructions, the user's messages, its context,
// the compaction item kompact returned, the next message); it continues
// the compacted session, the thread's own, rather than making a new one
// (THREAD-2, on the main of a6e2acd). The session's gateway_face is
// responses, the face it came through.
func TestResponsesContinuesCompactedSession(t *testing.T) {
	x := newCxThread(t, cxMessage("user", "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"))
	x.firstTurns("th-1")
	item := x.compact("")
	next := []string{x.base[0], cxMessage("user", "Hello there."), cxMessage("user", "Second question."), x.base[1], item, cxMessage("user", "Next question.")}
	resp, _ := x.post("the turn after", next, "")
	if got := resp.Header.Get("X-Kompact-Session"); got != "th-1" {
		t.Errorf("the turn after the answered compaction went to session %q, want the compacted th-1", got)
	}
	var list struct {
		Sessions []struct {
			ID   string `json:"id"`
			Face string `json:"gateway_face"`
		} `json:"sessions"`
	}
	apitest.GetJSON(t, x.srv.URL, "/v1/sessions", &list)
	if len(list.Sessions) != 1 || list.Sessions[0].Face != "responses" {
		t.Errorf("sessions %+v, want th-1 only, its gateway_face responses (issue 42 §2: not chat_completions)", list.Sessions)
	}
}

// waitCxPreview waits for session id's precomputed summary.
func waitCxPreview(t *testing.T, base, id string) {
	t.Helper()
	var list struct {
		Sessions []map[string]any `json:"sessions"`
	}
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		apitest.GetJSON(t, base, "/v1/sessions", &list)
		for _, s := range list.Sessions {
			if n, _ := s["gateway_previews"].(float64); s["id"] == id && n > 0 && s["running"] != true {
				return
			}
		}
	}
	t.Fatalf("no precomputed summary for %s; the sessions: %v", id, list.Sessions)
}

// TestResponsesCodexSideCall (issue 42 §2, issue 39 §2): Codex's title
// request (the TUI's: no tools, a "text" key, its thread's headers), sent
// before the thread's first turn, is stored but not listed and does not
// take the thread's id; the turn does. A tool-less request of Codex
// without "text", and one with "text" from another client, are
// conversations.
func TestResponsesCodexSideCall(t *testing.T) {
	c := &fakeresponses.Codex{Text: "ok"}
	srv := responsesServer(t, fakeresponses.New(t, c.Answer), "")
	h := codexHeaders()
	h.Set("Originator", "codex-tui")
	title := `{"model":"fake-model","stream":true,"input":[` + cxMessage("user", "Name this task: fix the flaky test") + `],"text":{"format":{"type":"json_schema","name":"title","schema":{"type":"object"}}},"store":false}`
	post := func(body string, h http.Header) string {
		t.Helper()
		resp, out, err := postResponses(t, srv.URL, "", body, h)
		if err != nil || resp.StatusCode != 200 || resp.Header.Get("X-Kompact-Session") == "" {
			t.Fatalf("%v %v %s", err, resp, out)
		}
		return resp.Header.Get("X-Kompact-Session")
	}
	side := post(title, h)
	turn := post(cxBody(cxMessage("developer", "You are a test agent."), cxMessage("user", "fix the flaky test")), h)
	if side == "th-1" || turn != "th-1" {
		t.Errorf("the title request went to %q and the turn to %q: want the turn in th-1 and the side call beside it", side, turn)
	}
	listed := listSessions(t, srv.URL, "")
	if _, ok := listed[side]; ok {
		t.Errorf("the title request's session %s is listed: %v", side, listedIDs(listed))
	}
	if all := listSessions(t, srv.URL, "?side_calls=true"); !all[side].SideCall {
		t.Errorf("?side_calls=true: %+v, want %s marked side_call", all, side)
	}
	// No tools and no "text" (Codex, another thread): a conversation.
	h2 := h.Clone()
	h2.Set("Thread-Id", "th-2")
	plain := post(`{"model":"fake-model","stream":true,"input":[`+cxMessage("user", "hello")+`]}`, h2)
	// "text" from another client (a thread of its own): a conversation.
	other := http.Header{"Content-Type": {"application/json"}, "Thread-Id": {"th-3"}, "User-Agent": {"curl/8"}}
	curl := post(title, other)
	listed = listSessions(t, srv.URL, "")
	if _, ok := listed[plain]; !ok {
		t.Errorf("Codex's tool-less request without \"text\" (%s) is not listed: %v", plain, listedIDs(listed))
	}
	if _, ok := listed[curl]; !ok {
		t.Errorf("another client's request with \"text\" (%s) is not listed: %v", curl, listedIDs(listed))
	}
}
