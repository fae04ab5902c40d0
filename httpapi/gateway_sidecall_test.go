package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testserver"
)

// The gateway's side calls (issue 39 §2) and opencode's conversation key
// (issue 42 §2): a client's one-shot title request, told by the client's
// identity and the request's shape, is stored but left out of the session
// list unless it is asked for (?side_calls=true); an ordinary client's
// first turn, of the same shape, is listed as ever.

// sideListed is a GET /v1/sessions entry, as these tests read it.
type sideListed struct {
	ID            string `json:"id"`
	Title         string `json:"title"`
	SideCall      bool   `json:"side_call"`
	ContinuedFrom string `json:"continued_from"`
}

// listSessions is GET /v1/sessions (with query), by id.
func listSessions(t *testing.T, base, query string) map[string]sideListed {
	t.Helper()
	var list struct {
		Sessions []sideListed `json:"sessions"`
	}
	apitest.GetJSON(t, base, "/v1/sessions"+query, &list)
	out := map[string]sideListed{}
	for _, s := range list.Sessions {
		out[s.ID] = s
	}
	return out
}

// listedIDs are the ids of a listing, sorted.
func listedIDs(list map[string]sideListed) []string {
	out := []string{}
	for id := range list {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// opencodeHeaders are the headers opencode sends a provider that is not
// its own (its session id in x-session-affinity), for session sid.
func opencodeHeaders(sid string) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Authorization", "Bearer client-key")
	h.Set("User-Agent", "opencode/1.14.2")
	h.Set("X-Session-Affinity", sid)
	h.Set("X-Session-Id", sid)
	return h
}

// chatTools is a "tools" list of one function, as a coding agent offers.
const chatTools = `"tools":[{"type":"function","function":{"name":"read","parameters":{"type":"object"}}}]`

// postChat posts a chat-completions body to agent gw's gateway with
// header h and returns the session the answer names.
func postChat(t *testing.T, base string, h http.Header, body string) string {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, base+"/gateway/gw/v1/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = h.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("X-Kompact-Session") == "" {
		t.Fatalf("%d, session %q, not stored %q: %s", resp.StatusCode, resp.Header.Get("X-Kompact-Session"), resp.Header.Get("X-Kompact-Not-Stored"), b)
	}
	return resp.Header.Get("X-Kompact-Session")
}

// ocBody is a chat-completions body of msgs (JSON objects), with more
// fields (tools) when given.
func ocBody(more string, msgs ...string) string {
	if more != "" {
		more += ","
	}
	return `{"model":"chat-model",` + more + `"messages":[` + strings.Join(msgs, ",") + `]}`
}

// msgJSON is a chat message of role with text.
func msgJSON(role, text string) string {
	b, _ := json.Marshal(map[string]string{"role": role, "content": text})
	return string(b)
}

// TestGatewayOpencodeSideCall (issue 39 §2): opencode's title request (no
// tools, its title agent's system prompt, then user messages only), sent
// before its first turn with the same session header, is stored but not
// listed, and does not take the conversation's id (opencode's session
// id, issue 42 §2); ?side_calls=true lists it, marked side_call, and its
// messages are all there. An ordinary client's first turn of the same
// shape (no tools, one user message, no opencode identity) is listed. A
// side call that a later request continues is a conversation: listed,
// and no longer marked.
func TestGatewayOpencodeSideCall(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	srv := newGatewayServer(t, testserver.SQLite(t), up, 0)
	const sid = "ses_0f3a1c2e9ffeAbCdEfGhIjKlMn"
	oc := opencodeHeaders(sid)
	title := []string{msgJSON("system", "You name conversations."), msgJSON("user", "Name this conversation:"), msgJSON("user", "fix the flaky test")}
	side := postChat(t, srv.URL, oc, ocBody("", title...))
	turn := postChat(t, srv.URL, oc, ocBody(chatTools, msgJSON("system", "You are a coding agent."), msgJSON("user", "fix the flaky test")))
	plain := http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer client-key"}}
	ordinary := postChat(t, srv.URL, plain, ocBody("", msgJSON("user", "what is a flaky test?")))
	if turn != sid || side == sid {
		t.Errorf("opencode's turn went to session %q and its title request to %q: want the turn in %q, opencode's session id, and the side call beside it", turn, side, sid)
	}
	listed := listSessions(t, srv.URL, "")
	if want := []string{ordinary, turn}; !slices.Equal(listedIDs(listed), sortedIDs(want)) {
		t.Errorf("the list holds %v, want the turn and the ordinary client's first turn %v, not the side call %s", listedIDs(listed), sortedIDs(want), side)
	}
	if listed[ordinary].SideCall || listed[turn].SideCall {
		t.Errorf("conversations marked side calls: %+v", listed)
	}
	all := listSessions(t, srv.URL, "?side_calls=true")
	if s, ok := all[side]; !ok || !s.SideCall || len(all) != 3 {
		t.Errorf("?side_calls=true lists %+v: want the three sessions, %s marked side_call", all, side)
	}
	var doc struct {
		Messages []json.RawMessage `json:"messages"`
	}
	apitest.GetJSON(t, srv.URL, "/v1/sessions/"+side, &doc)
	if len(doc.Messages) != len(title) {
		t.Errorf("the side call's session holds %d messages, want its %d", len(doc.Messages), len(title))
	}
	// Continued: the history of the side call, its answer and more.
	next := postChat(t, srv.URL, oc, ocBody("", append(title, msgJSON("assistant", "reply 1"), msgJSON("user", "and now?"))...))
	if next != side {
		t.Fatalf("the continuation went to %q, want the side call's session %q", next, side)
	}
	if s, ok := listSessions(t, srv.URL, "")[side]; !ok || s.SideCall {
		t.Errorf("the continued side call is not listed as a conversation: %+v (listed %v)", s, ok)
	}
}

// sortedIDs is ids, sorted.
func sortedIDs(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}

// TestGatewayOpencodeSessionKey (issue 42 §2): opencode's conversations
// are keyed by its session header (x-session-affinity). Two opencode
// sessions that open alike (the same system prompt and first message)
// are two kompact sessions, each under opencode's id, where the key of
// system prompt and first message made them one; and after opencode
// compacted (a new history, its first user message another), the
// conversation's new session names the one before (continued_from).
func TestGatewayOpencodeSessionKey(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	srv := newGatewayServer(t, testserver.SQLite(t), up, 0)
	const a, b = "ses_aaaaaaaaaaaa01", "ses_bbbbbbbbbbbb02"
	sys, u1 := msgJSON("system", "You are a coding agent."), msgJSON("user", "hi")
	first := ocBody(chatTools, sys, u1)
	if got := postChat(t, srv.URL, opencodeHeaders(a), first); got != a {
		t.Errorf("opencode session %s's first turn went to %q", a, got)
	}
	if got := postChat(t, srv.URL, opencodeHeaders(b), first); got != b {
		t.Errorf("opencode session %s's first turn went to %q, want its own session", b, got)
	}
	// Each goes on with its own answer: two histories, two sessions.
	for _, sid := range []string{a, b} {
		got := postChat(t, srv.URL, opencodeHeaders(sid), ocBody(chatTools, sys, u1, msgJSON("assistant", "hello from "+sid), msgJSON("user", "go on")))
		if got != sid {
			t.Errorf("opencode session %s's second turn went to %q", sid, got)
		}
	}
	// opencode compacted session a on its own side: its history opens
	// with its summary now.
	after := postChat(t, srv.URL, opencodeHeaders(a), ocBody(chatTools, sys, msgJSON("user", "What was done so far?"), msgJSON("assistant", "We said hi."), msgJSON("user", "next")))
	listed := listSessions(t, srv.URL, "")
	if len(listed) != 3 || after == a || !strings.HasPrefix(after, a+"-") || listed[after].ContinuedFrom != a {
		t.Errorf("after opencode's compaction the turn went to %q (%+v); the list %+v: want a session %s-… that continues %s, three in all", after, listed[after], listed, a, a)
	}
}

// TestMessagesClaudeCodeSideCall (issue 39 §2): Claude Code's title
// request (no tools, one user message, its session header, its small
// model), sent before its first turn, is stored but not listed, and does
// not take Claude Code's session id from the conversation, nor does the
// conversation join it (its first message is the same, and a Messages
// request's system prompt is no message); a request of the same shape
// without Claude Code's identity is listed, and so is Claude Code's
// tool-less request to the agent's own model (TestGatewayFaceListed).
func TestMessagesClaudeCodeSideCall(t *testing.T) {
	fake := apitest.LeakFake(t)
	srv := messagesServer(t, apitest.CCAgents(fake.URL, ""), "")
	url := srv.URL + "/gateway/cc/v1/messages"
	const sid = "5f1e2d3c-0000-4000-8000-00000000c0de"
	post := func(h http.Header, body string) string {
		t.Helper()
		resp := apitest.PostMessages(t, context.Background(), url, h, body)
		_, _ = io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || resp.Header.Get("X-Kompact-Session") == "" {
			t.Fatalf("%d, session %q", resp.StatusCode, resp.Header.Get("X-Kompact-Session"))
		}
		return resp.Header.Get("X-Kompact-Session")
	}
	sideBody := `{"model":"small-model","max_tokens":512,"system":[{"type":"text","text":"You name conversations."}],"messages":[{"role":"user","content":"fix the flaky test"}],"stream":true}`
	side := post(apitest.CCHeaders(sid), sideBody)
	turn := post(apitest.CCHeaders(sid), apitest.CCBody(`[{"role":"user","content":"fix the flaky test"}]`))
	plain := http.Header{"Content-Type": {"application/json"}, "X-Api-Key": {"sk-client"}, "Anthropic-Version": {"2023-06-01"}}
	other := post(plain, strings.Replace(sideBody, "fix the flaky test", "what is a flaky test?", 1))
	if turn != sid || side == sid {
		t.Errorf("Claude Code's turn went to %q and its side call to %q: want the turn in %q", turn, side, sid)
	}
	listed := listSessions(t, srv.URL, "")
	if want := sortedIDs([]string{turn, other}); !slices.Equal(listedIDs(listed), want) {
		t.Errorf("the list holds %v, want %v (not the side call %s)", listedIDs(listed), want, side)
	}
	if s, ok := listSessions(t, srv.URL, "?side_calls=true")[side]; !ok || !s.SideCall {
		t.Errorf("?side_calls=true does not list the side call %s marked: %+v", side, s)
	}
}

// TestSessionListSideCallsQuery: a side_calls value that is not a boolean
// is refused, naming the value.
func TestSessionListSideCallsQuery(t *testing.T) {
	srv := newGatewayServer(t, testserver.SQLite(t), apitest.NewFakeUpstream(t), 0)
	resp, err := http.Get(srv.URL + "/v1/sessions?side_calls=maybe")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), `\"maybe\"`) {
		t.Errorf("side_calls=maybe: %d %s, want 400 naming the value", resp.StatusCode, b)
	}
}
