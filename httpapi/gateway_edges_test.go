package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testserver"
	"kompact/service"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// The gateway's edges (issue 29's low items, issue 28 §4): another agent's
// session, an upstream's absurd token count, an upstream that cannot be
// reached, an empty conversation, an edited history's log line.

// edgeGateway serves the gateway over SQLite with two agents, gw (the
// tests' compacting agent) and other, both upstream at up; the server's
// warnings go to logs.
func edgeGateway(t *testing.T, up *apitest.FakeUpstream, logs *testserver.Buffer) *httptest.Server {
	t.Helper()
	yaml := testserver.GatewayAgents(up.Srv.URL+"/v1", testserver.Gateway{Auto: true}) +
		fmt.Sprintf("  other: {llm: {base_url: %s, model: chat-model, max_context_size: 10000}, gateway: {enabled: true}}\n", up.Srv.URL+"/v1")
	return apitest.GatewayServer(t, yaml, logs)
}

// sessionVersion returns session id's version and message count.
func sessionVersion(t *testing.T, base, id string) (int64, int) {
	t.Helper()
	var doc struct {
		Version  int64             `json:"version"`
		Messages []json.RawMessage `json:"messages"`
	}
	apitest.GetJSON(t, base, "/v1/sessions/"+id, &doc)
	return doc.Version, len(doc.Messages)
}

// TestGatewayOtherAgentsSession (issue 29): X-Kompact-Session naming a
// session another agent's gateway made is treated as a history that is
// not the session's: forwarded as sent, nothing stored, no session named
// in the answer, and a log line says why.
func TestGatewayOtherAgentsSession(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	logs := &testserver.Buffer{}
	srv := edgeGateway(t, up, logs)
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys")}}
	gw := apitest.NewGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "shared-id"))
	for i := 1; i <= 2; i++ {
		cv.Turn(t, gw, i, false)
	}
	version, n := sessionVersion(t, srv.URL, "shared-id")
	other := apitest.NewGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "shared-id"),
		option.WithBaseURL(srv.URL+"/gateway/other/v1"))
	h := cv.Turn(t, other, 3, false)
	chats, _ := up.Chats()
	if h.Get("X-Kompact-Forwarded") != "as-sent" || h.Get("X-Kompact-Session") != "" || !bytes.Equal(chats[len(chats)-1].Body, other.LastSent()) {
		t.Fatalf("another agent's request: forwarded %q, session %q", h.Get("X-Kompact-Forwarded"), h.Get("X-Kompact-Session"))
	}
	if v, m := sessionVersion(t, srv.URL, "shared-id"); v != version || m != n {
		t.Fatalf("another agent's request changed the session: version %d→%d, %d→%d messages", version, v, n, m)
	}
	if !strings.Contains(logs.String(), "another agent's session") {
		t.Fatalf("no log line says why the request was not stored:\n%s", logs.String())
	}
}

// TestGatewayEditedHistoryLogged (issue 28 §4): an edited history under
// X-Kompact-Session, forwarded as sent and not stored, is logged.
func TestGatewayEditedHistoryLogged(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	logs := &testserver.Buffer{}
	srv := edgeGateway(t, up, logs)
	c := apitest.NewGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "edited"))
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys")}}
	for i := 1; i <= 2; i++ {
		cv.Turn(t, c, i, false)
	}
	cv.Msgs[1] = sdk.UserMessage("turn 1, edited")
	if h := cv.Turn(t, c, 3, false); h.Get("X-Kompact-Session") != "" {
		t.Fatalf("an edited history was stored in %q", h.Get("X-Kompact-Session"))
	}
	if !strings.Contains(logs.String(), "not its session's") || !strings.Contains(logs.String(), "session=edited") {
		t.Fatalf("the edited history that was not stored is not logged:\n%s", logs.String())
	}
}

// TestGatewayHugeUsage (issue 29): an upstream's prompt_tokens of 2^63-1 is
// recorded as MaxTokenFigure, so that the trigger's sums hold: the next
// turn compacts, as /context says it should.
func TestGatewayHugeUsage(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	huge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte("HUGE-USAGE")) && !bytes.Contains(body, []byte(`"model":"compact-model"`)) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":"c","object":"chat.completion","created":1,"model":"chat-model","choices":[{"index":0,"message":{"role":"assistant","content":"reply huge"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9223372036854775807,"completion_tokens":5,"total_tokens":9223372036854775807}}`)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		up.Serve(w, r)
	}))
	t.Cleanup(huge.Close)
	up.Srv = huge
	srv := newGatewayServer(t, testserver.SQLite(t), up, 0)
	c := apitest.NewGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "huge"))
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys")}}
	for i := 1; i <= 3; i++ {
		cv.Turn(t, c, i, false)
	}
	cv.Msgs = append(cv.Msgs, sdk.UserMessage("HUGE-USAGE"))
	if _, err := c.Chat.Completions.New(t.Context(), sdk.ChatCompletionNewParams{Model: "chat-model", Messages: cv.Msgs}); err != nil {
		t.Fatal(err)
	}
	cv.Msgs = append(cv.Msgs, sdk.AssistantMessage("reply huge"))
	var ctxStatus service.SessionContext
	apitest.GetJSON(t, srv.URL, "/v1/sessions/huge/context", &ctxStatus)
	if ctxStatus.TokenCount != kompact.MaxTokenFigure || !ctxStatus.ShouldCompact {
		t.Fatalf("after a report of 2^63-1 tokens: token count %d, should_compact %v; want %d, true",
			ctxStatus.TokenCount, ctxStatus.ShouldCompact, kompact.MaxTokenFigure)
	}
	if h := cv.Turn(t, c, 5, false); h.Get("X-Kompact-Forwarded") != "compacted" {
		t.Fatalf("the turn after it: forwarded %q, want compacted", h.Get("X-Kompact-Forwarded"))
	}
}

// TestGatewayUnreachableUpstream (issue 28 §4): the 502 of an upstream
// that cannot be reached names the session the messages were stored in.
func TestGatewayUnreachableUpstream(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	srv := newGatewayServer(t, testserver.SQLite(t), up, 0)
	up.Srv.Close()
	req, _ := http.NewRequest("POST", srv.URL+"/gateway/gw/v1/chat/completions", strings.NewReader(chatBody(2)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Kompact-Session", "unreached")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway || resp.Header.Get("X-Kompact-Session") != "unreached" {
		t.Fatalf("unreachable upstream: %d, session %q: %s", resp.StatusCode, resp.Header.Get("X-Kompact-Session"), b)
	}
	if _, n := sessionVersion(t, srv.URL, "unreached"); n != 2 {
		t.Fatalf("the session holds %d messages, want the request's 2", n)
	}
}

// TestGatewayEmptyMessages (issue 28 §4): "messages": [] is refused with
// 400 in OpenAI's form, and neither stored nor forwarded.
func TestGatewayEmptyMessages(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	srv := newGatewayServer(t, testserver.SQLite(t), up, 0)
	r := sendChat(t, srv.URL, `{"model":"m","messages":[]}`)
	wantRefused(t, "an empty conversation", r, http.StatusBadRequest, "invalid_request", `"messages" is empty`)
	wantUntouched(t, up, srv.URL)
}
