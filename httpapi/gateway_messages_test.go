package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakeanthropic"
	"kompact/openai"
)

// The Messages face's tests (issue 32 §1): an in-process fake Messages
// server, a gateway in front of it, and a client that sends what Claude
// Code 2.1.332 sends (../shared/claude-code/README.md).

// messagesServer starts a gateway server of yaml with the server's token
// (none when ""), the agent key sk-agent.
func messagesServer(t *testing.T, yaml, token string) *httptest.Server {
	t.Helper()
	return apitest.MessagesServerWith(t, yaml, token, &openai.Client{MaxRetries: -1})
}

// TestMessagesStreamPassThrough (issue 32 §1): a streamed answer with
// pings, a thinking block with its signature_delta, text and a tool_use
// with input_json_delta reaches the client byte for byte and event by
// event (the fake sends the next event only once the client has read
// the one before, so a gateway that buffered would hang); the upstream
// gets the client's body byte for byte (thinking and redacted thinking
// with their signatures included), its query and headers as they came,
// the agent's key instead of the client's, and no X-Kompact-*.
func TestMessagesStreamPassThrough(t *testing.T) {
	gate := make(chan struct{})
	events := fakeanthropic.Start(apitest.CCModel, fakeanthropic.Usage{Input: 3, CacheRead: 1000, CacheCreation: 200})
	events = append(events, fakeanthropic.ThinkingBlock(0, "Let me read it.", "EqQBCkYIBxgCKkD+sig==")...)
	events = append(events, fakeanthropic.TextBlock(1, "I'll read the file — héllo.")...)
	events = append(events, fakeanthropic.ToolUseBlock(2, "toolu_01", "Read", `{"file_path":"/tmp/hello.txt"}`)...)
	events = append(events, fakeanthropic.Stop("tool_use", fakeanthropic.Usage{Output: 42})...)
	fake := fakeanthropic.New(t, func(fakeanthropic.Request) fakeanthropic.Answer {
		return fakeanthropic.Answer{Events: events, Gate: gate, Header: map[string]string{"Request-Id": "req_01", "Anthropic-Ratelimit-Requests-Remaining": "99"}}
	})
	srv := messagesServer(t, apitest.CCAgents(fake.URL, ""), "")
	body := apitest.CCBody(`[{"role":"user","content":"look"},` +
		`{"role":"assistant","content":[{"type":"thinking","thinking":"Let me look.","signature":"EqQBCkYIBxgC+sig=="},{"type":"redacted_thinking","data":"EmwKAhgBEgy3va3pzix/LafPsn4a"},{"type":"text","text":"Looking."}]},` +
		`{"role":"user","content":[{"type":"text","text":"READ_FILE:/tmp/hello.txt please","cache_control":{"type":"ephemeral"}}]}]`)
	h := apitest.CCHeaders("4f1c2d3e-0000-4000-8000-000000000001")
	h.Set("X-Kompact-Token", "not-for-upstream")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp := apitest.PostMessages(t, ctx, srv.URL+"/gateway/cc/v1/messages?beta=true", h, body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream; charset=utf-8" {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("answer %d %q: %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	if resp.Header.Get("Request-Id") != "req_01" || resp.Header.Get("Anthropic-Ratelimit-Requests-Remaining") != "99" {
		t.Errorf("relayed headers: %v", resp.Header)
	}
	if got := resp.Header.Get("X-Kompact-Session"); got != "4f1c2d3e-0000-4000-8000-000000000001" {
		t.Errorf("X-Kompact-Session %q, want Claude Code's session id", got)
	}
	rd := bufio.NewReader(resp.Body)
	var got strings.Builder
	for i := range events {
		ev := readEvent(t, rd)
		if ev != events[i] {
			t.Fatalf("event %d: got %q, want %q", i, ev, events[i])
		}
		got.WriteString(ev)
		if i+1 < len(events) {
			gate <- struct{}{}
		}
	}
	if rest, _ := io.ReadAll(rd); len(rest) != 0 {
		t.Errorf("bytes after the last event: %q", rest)
	}
	up := fake.Requests()
	if len(up) != 1 {
		t.Fatalf("%d upstream requests, want 1", len(up))
	}
	checkForwarded(t, up[0], "/v1/messages", "beta=true", body, h, "sk-agent")
}

// readEvent reads one server-sent event, its blank line included.
func readEvent(t *testing.T, rd *bufio.Reader) string {
	t.Helper()
	var b strings.Builder
	for {
		line, err := rd.ReadString('\n')
		b.WriteString(line)
		if err != nil {
			t.Fatalf("the stream ended after %q: %v", b.String(), err)
		}
		if line == "\n" {
			return b.String()
		}
	}
}

// checkForwarded checks what the upstream got: path, query, the body byte
// for byte, the client's headers as they were, the key, no X-Kompact-*.
func checkForwarded(t *testing.T, got fakeanthropic.Request, path, query, body string, sent http.Header, key string) {
	t.Helper()
	if got.Path != path || got.RawQuery != query {
		t.Errorf("upstream got %s?%s, want %s?%s", got.Path, got.RawQuery, path, query)
	}
	if string(got.Body) != body {
		t.Errorf("upstream body differs from the client's:\n got %s\nwant %s", got.Body, body)
	}
	for k, v := range sent {
		if k == "X-Api-Key" || strings.HasPrefix(k, "X-Kompact-") {
			continue
		}
		if g := got.Header.Values(k); strings.Join(g, "\n") != strings.Join(v, "\n") {
			t.Errorf("upstream header %s = %q, want %q", k, g, v)
		}
	}
	if g := got.Header.Get("X-Api-Key"); g != key {
		t.Errorf("upstream x-api-key %q, want %q", g, key)
	}
	for k := range got.Header {
		if strings.HasPrefix(strings.ToLower(k), "x-kompact-") {
			t.Errorf("kompact's header %s went upstream", k)
		}
	}
}

// TestMessagesJSONAndErrors (issue 32 §1): a JSON answer comes back byte
// for byte; the upstream's 429 and 529 overloaded_error with their
// retry-after, request-id and body verbatim; count_tokens is forwarded as
// it came and its answer relayed.
func TestMessagesJSONAndErrors(t *testing.T) {
	answers := map[string]fakeanthropic.Answer{
		"json":  {Body: fakeanthropic.TextMessage(apitest.CCModel, "hi there", fakeanthropic.Usage{Input: 10, Output: 3})},
		"429":   answerHeader(fakeanthropic.Error(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"), "Retry-After", "17"),
		"529":   fakeanthropic.Error(529, "overloaded_error", "Overloaded"),
		"count": {Body: `{"input_tokens":2095}`},
	}
	fake := fakeanthropic.New(t, func(r fakeanthropic.Request) fakeanthropic.Answer {
		if strings.HasSuffix(r.Path, "/count_tokens") {
			return answers["count"]
		}
		var b struct {
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		_ = json.Unmarshal(r.Body, &b)
		return answers[b.Messages[0].Content]
	})
	srv := messagesServer(t, apitest.CCAgents(fake.URL, ""), "")
	for _, c := range []struct {
		name   string
		status int
	}{{"json", 200}, {"429", 429}, {"529", 529}} {
		body := `{"model":"` + apitest.CCModel + `","max_tokens":1024,"messages":[{"role":"user","content":"` + c.name + `"}]}`
		resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", apitest.CCHeaders("sid-"+c.name), body)
		got, _ := io.ReadAll(resp.Body)
		want := answers[c.name]
		if resp.StatusCode != c.status || string(got) != want.Body {
			t.Errorf("%s: %d %s, want %d %s", c.name, resp.StatusCode, got, c.status, want.Body)
		}
		for k, v := range want.Header {
			if resp.Header.Get(k) != v {
				t.Errorf("%s: header %s = %q, want %q", c.name, k, resp.Header.Get(k), v)
			}
		}
	}
	count := `{"model":"` + apitest.CCModel + `","messages":[{"role":"user","content":"count me"}]}`
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages/count_tokens?beta=true", apitest.CCHeaders("sid-count"), count)
	if got, _ := io.ReadAll(resp.Body); resp.StatusCode != 200 || string(got) != `{"input_tokens":2095}` {
		t.Errorf("count_tokens: %d %s", resp.StatusCode, got)
	}
	up := fake.Requests()
	checkForwarded(t, up[len(up)-1], "/v1/messages/count_tokens", "beta=true", count, apitest.CCHeaders("sid-count"), "sk-agent")
}

// TestMessagesStreamBreaksOff (issue 32 §1): an upstream stream that
// breaks off after some events reaches the client as a failure (the
// connection aborted), never as an answer that looks whole.
func TestMessagesStreamBreaksOff(t *testing.T) {
	evs := fakeanthropic.TextStream(apitest.CCModel, "a long answer that never ends", fakeanthropic.Usage{Input: 5})
	fake := fakeanthropic.New(t, func(fakeanthropic.Request) fakeanthropic.Answer {
		return fakeanthropic.Answer{Events: evs[:5], Abort: true}
	})
	srv := messagesServer(t, apitest.CCAgents(fake.URL, ""), "")
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", apitest.CCHeaders("cut-1"), apitest.CCBody(`[{"role":"user","content":"hi"}]`))
	got, err := io.ReadAll(resp.Body)
	if err == nil {
		t.Errorf("the client read a clean end after a cut stream: %q", got)
	}
	if !strings.HasPrefix(string(got), strings.Join(evs[:4], "")) {
		t.Errorf("the events before the cut were not relayed: %q", got)
	}
}

func answerHeader(a fakeanthropic.Answer, k, v string) fakeanthropic.Answer {
	a.Header[k] = v
	return a
}

// TestMessagesSession (issue 32 §1): Claude Code's conversation is one
// session whose id is its X-Claude-Code-Session-Id, although its resent
// history is not byte-stable (cache_control moves to the newest block; a
// message comes back as a string after a one-text-block list): every turn
// appends, none is taken for an edited history; the token count is the
// upstream's input, cache read and cache creation tokens.
func TestMessagesSession(t *testing.T) {
	usage := fakeanthropic.Usage{Input: 7, CacheRead: 1500, CacheCreation: 300, Output: 20}
	fake := fakeanthropic.New(t, func(fakeanthropic.Request) fakeanthropic.Answer {
		return fakeanthropic.Answer{Events: fakeanthropic.TextStream(apitest.CCModel, "ok", usage)}
	})
	srv := messagesServer(t, apitest.CCAgents(fake.URL, ""), "")
	const sid = "9a8b7c6d-0000-4000-8000-00000000abcd"
	cc := `{"type":"ephemeral"}`
	u1block := `{"role":"user","content":[{"type":"text","text":"fix the test","cache_control":` + cc + `}]}`
	u1string := `{"role":"user","content":"fix the test"}`
	a1 := `{"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"c2ln"},{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/src/a_test.go"}}]}`
	u2 := func(cache bool) string {
		c := ""
		if cache {
			c = `,"cache_control":` + cc
		}
		return `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"package a"` + c + `}]}`
	}
	a2 := `{"role":"assistant","content":[{"type":"text","text":"Fixed."}]}`
	u3 := `{"role":"user","content":[{"type":"text","text":"thanks","cache_control":` + cc + `}]}`
	turns := []string{
		"[" + u1block + "]",
		"[" + u1string + "," + a1 + "," + u2(true) + "]",
		"[" + u1block + "," + a1 + "," + u2(false) + "," + a2 + "," + u3 + "]",
	}
	for i, msgs := range turns {
		resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages?beta=true", apitest.CCHeaders(sid), apitest.CCBody(msgs))
		_, _ = io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || resp.Header.Get("X-Kompact-Session") != sid || resp.Header.Get("X-Kompact-Not-Stored") != "" {
			t.Fatalf("turn %d: %d session %q not stored %q", i+1, resp.StatusCode, resp.Header.Get("X-Kompact-Session"), resp.Header.Get("X-Kompact-Not-Stored"))
		}
	}
	var doc struct {
		Messages []struct {
			Role      string `json:"role"`
			ToolCalls []struct {
				Function struct {
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	apitest.GetJSON(t, srv.URL, "/v1/sessions/"+sid, &doc)
	roles := []string{}
	for _, m := range doc.Messages {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "user,assistant,user,assistant,user" {
		t.Errorf("the session holds %v, want the five messages once each", roles)
	}
	if len(doc.Messages) > 1 && (len(doc.Messages[1].ToolCalls) != 1 || doc.Messages[1].ToolCalls[0].Function.Arguments != `{"file_path":"/src/a_test.go"}`) {
		t.Errorf("the tool call was not kept: %+v", doc.Messages[1])
	}
	var ctx struct {
		TokenCount int `json:"token_count"`
	}
	apitest.GetJSON(t, srv.URL, "/v1/sessions/"+sid+"/context", &ctx)
	if ctx.TokenCount != 7+1500+300 {
		t.Errorf("token count %d, want %d (input, cache read and cache creation)", ctx.TokenCount, 7+1500+300)
	}
	var list struct {
		Sessions []struct {
			ID string `json:"id"`
		} `json:"sessions"`
	}
	apitest.GetJSON(t, srv.URL, "/v1/sessions", &list)
	if len(list.Sessions) != 1 {
		t.Errorf("%d sessions, want 1: %+v", len(list.Sessions), list.Sessions)
	}
}

// TestMessagesAuth (issue 32 §1): on a server with a token, the token as
// the client's API key (x-api-key, ANTHROPIC_API_KEY) is accepted and
// never goes upstream (the agent's key does); without it, 401 in
// Anthropic's error form. With gateway.forward_authorization, the
// client's own x-api-key goes upstream, the server's token in
// X-Kompact-Token; the token as x-api-key is refused.
func TestMessagesAuth(t *testing.T) {
	fake := fakeanthropic.New(t, func(fakeanthropic.Request) fakeanthropic.Answer {
		return fakeanthropic.Answer{Body: fakeanthropic.TextMessage(apitest.CCModel, "ok", fakeanthropic.Usage{Input: 1, Output: 1})}
	})
	const token = "server-token-123"
	body := `{"model":"` + apitest.CCModel + `","max_tokens":8,"messages":[{"role":"user","content":"hi"}]}`
	srv := messagesServer(t, apitest.CCAgents(fake.URL, ""), token)
	h := apitest.CCHeaders("auth-1")
	h.Set("X-Api-Key", token)
	if resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", h, body); resp.StatusCode != 200 {
		t.Fatalf("the token as x-api-key: %d", resp.StatusCode)
	}
	if got := fake.Requests()[0].Header.Get("X-Api-Key"); got != "sk-agent" {
		t.Errorf("upstream x-api-key %q, want the agent's", got)
	}
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", apitest.CCHeaders("auth-2"), body)
	wantMessagesError(t, resp, 401, "authentication_error")

	fwd := messagesServer(t, apitest.CCAgents(fake.URL, ", forward_authorization: true"), token)
	h = apitest.CCHeaders("auth-3")
	h.Set("X-Kompact-Token", token)
	h.Set("X-Api-Key", "sk-own")
	if resp := apitest.PostMessages(t, context.Background(), fwd.URL+"/gateway/cc/v1/messages", h, body); resp.StatusCode != 200 {
		t.Fatalf("forwarding: %d", resp.StatusCode)
	}
	up := fake.Requests()
	checkForwarded(t, up[len(up)-1], "/v1/messages", "", body, h, "sk-own")
	h.Set("X-Api-Key", token)
	resp = apitest.PostMessages(t, context.Background(), fwd.URL+"/gateway/cc/v1/messages", h, body)
	wantMessagesError(t, resp, 401, "authentication_error")
	if n := len(fake.Requests()); n != len(up) {
		t.Errorf("a refused request went upstream")
	}
}

// TestMessagesWrongFace: an OpenAI agent's gateway answers no Messages
// route, and an anthropic agent's no chat route: 404, each in its face's
// error form; nothing goes upstream.
func TestMessagesWrongFace(t *testing.T) {
	fake := fakeanthropic.New(t, func(fakeanthropic.Request) fakeanthropic.Answer { return fakeanthropic.Answer{Body: "{}"} })
	srv := messagesServer(t, apitest.CCAgents(fake.URL, ""), "")
	body := `{"model":"m","max_tokens":8,"messages":[{"role":"user","content":"hi"}]}`
	wantMessagesError(t, apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/chat/v1/messages", apitest.CCHeaders("w"), body), 404, "not_found_error")
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/chat/completions", apitest.CCHeaders("w"), body)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 404 || !bytes.Contains(b, []byte(`"type":"kompact_error"`)) || !bytes.Contains(b, []byte("llm.api: anthropic")) {
		t.Errorf("chat route of an anthropic agent: %d %s", resp.StatusCode, b)
	}
	wantMessagesError(t, apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", apitest.CCHeaders("w"), `{"model":"m"}`), 400, "invalid_request_error")
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("%d requests went upstream", n)
	}
}

// wantMessagesError checks an answer is the gateway's own error in
// Anthropic's form with status and type.
func wantMessagesError(t *testing.T, resp *http.Response, status int, typ string) {
	t.Helper()
	var e struct {
		Type  string `json:"type"`
		Error struct {
			Type    string   `json:"type"`
			Message string   `json:"message"`
			Fixes   []string `json:"fixes"`
		} `json:"error"`
	}
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &e); err != nil || resp.StatusCode != status || e.Type != "error" || e.Error.Type != typ || e.Error.Message == "" {
		t.Errorf("got %d %s, want %d and an error of type %s", resp.StatusCode, b, status, typ)
	}
}
