package httpapi_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"kompact"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testserver"
	"kompact/openai"
	"kompact/service"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// The gateway's tests (issue 22) drive conversations through
// /gateway/{agent}/v1 with the official openai-go client, against a fake
// OpenAI-compatible upstream that records what it is sent.

// newGatewayServer serves the gateway over store, its agents' upstream
// the fake.
func newGatewayServer(t *testing.T, store kompact.Store, up *apitest.FakeUpstream, precompute float64) *httptest.Server {
	return newGatewayServerAuto(t, store, up, precompute, true)
}

// newGatewayServerAuto is newGatewayServer with automatic compaction on
// or off.
func newGatewayServerAuto(t *testing.T, store kompact.Store, up *apitest.FakeUpstream, precompute float64, auto bool) *httptest.Server {
	t.Helper()
	return newGatewayServerLimits(t, store, up, testserver.Gateway{Auto: auto, Precompute: precompute}, httpapi.Limits{})
}

// newGatewayServerLimits is newGatewayServer with the agents' gateway
// settings gw and the server's limits.
func newGatewayServerLimits(t *testing.T, store kompact.Store, up *apitest.FakeUpstream, gw testserver.Gateway, limits httpapi.Limits) *httptest.Server {
	t.Helper()
	return newGatewayServerLogger(t, store, up, gw, limits, slog.New(slog.NewTextHandler(testLog{t}, &slog.HandlerOptions{Level: slog.LevelWarn})))
}

// newGatewayServerLogger is newGatewayServerLimits logging to logger.
func newGatewayServerLogger(t *testing.T, store kompact.Store, up *apitest.FakeUpstream, gw testserver.Gateway, limits httpapi.Limits, logger *slog.Logger) *httptest.Server {
	t.Helper()
	cfg, err := config.Parse([]byte(testserver.GatewayAgents(up.Srv.URL+"/v1", gw)), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	getenv := func(string) string { return "" }
	s := httpapi.New(httpapi.Config{
		Store: store, Agents: cfg,
		LLM:      &openai.Client{Getenv: getenv, MaxRetries: -1},
		Upstream: &openai.Upstream{Getenv: getenv},
		Logger:   logger,
		Limits:   limits,
	})
	srv := httptest.NewServer(httpapi.CheckedHandler(t, s.Handler()))
	t.Cleanup(srv.Close)
	return srv
}

// testLog writes a server's warnings to the test's log.
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// forwardedMessages returns the messages of a forwarded body, raw.
func forwardedMessages(t *testing.T, body []byte) []json.RawMessage {
	t.Helper()
	var req struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("forwarded body: %v", err)
	}
	return req.Messages
}

// TestGatewayConversation drives a growing conversation through the
// gateway (issue 22's "done when"; KCP-005 and KCP-008 on what it
// forwards): below the trigger every request goes
// out with the client's bytes; the session holds the client's messages;
// at the trigger the gateway compacts and forwards the summary; later
// turns forward the same prefix, byte for byte; nothing is lost.
func TestGatewayConversation(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			up := apitest.NewFakeUpstream(t)
			srv := newGatewayServer(t, testserver.SQLite(t), up, 0) // no precompute
			c := apitest.NewGatewayClient(srv.URL)
			cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("You are a careful agent.")}}
			var id string
			compactedAt := 0
			var prefix []json.RawMessage
			for i := 1; i <= 14; i++ {
				h := cv.Turn(t, c, i, stream)
				if id == "" {
					id = h.Get("X-Kompact-Session")
				}
				if got := h.Get("X-Kompact-Session"); got != id || id == "" {
					t.Fatalf("turn %d: session %q, want %q", i, got, id)
				}
				chats, _ := up.Chats()
				fwd := chats[len(chats)-1].Body
				sent := c.LastSent()
				if h.Get("X-Kompact-Forwarded") == "as-sent" {
					if compactedAt > 0 {
						t.Fatalf("turn %d: forwarded as sent after the compaction at turn %d", i, compactedAt)
					}
					want := sent
					if stream { // the one change: usage asked for
						end := bytes.LastIndexByte(sent, '}')
						want = append(append(append([]byte{}, sent[:end]...), `,"stream_options":{"include_usage":true}`...), sent[end:]...)
					}
					if !bytes.Equal(fwd, want) {
						t.Fatalf("turn %d: forwarded\n%s\nwant the client's bytes\n%s", i, fwd, want)
					}
					continue
				}
				msgs := forwardedMessages(t, fwd)
				if compactedAt == 0 {
					compactedAt = i
					prefix = msgs[:2]
					// KCP-008: the summary user message in kimi-cli's form;
					// KCP-005: the last 2 user/assistant messages kept verbatim.
					if !bytes.Contains(msgs[1], []byte("summary of the old turns")) || !bytes.Contains(msgs[1], []byte("Previous context has been compacted")) {
						t.Fatalf("turn %d: the second forwarded message is not the summary: %s", i, msgs[1])
					}
					clientMsgs := forwardedMessages(t, sent)
					if len(msgs) != 4 || !bytes.Equal(joinRaw(msgs[2:]), joinRaw(clientMsgs[len(clientMsgs)-2:])) {
						t.Fatalf("turn %d: forwarded %d messages; want the system message, the summary and the client's last 2 as sent", i, len(msgs))
					}
				} else if !bytes.Equal(joinRaw(msgs[:2]), joinRaw(prefix)) {
					t.Fatalf("turn %d: the forwarded prefix changed:\n%s\nwas\n%s", i, joinRaw(msgs[:2]), joinRaw(prefix))
				}
				clientMsgs := forwardedMessages(t, sent)
				if !bytes.Equal(msgs[0], clientMsgs[0]) {
					t.Fatalf("turn %d: the system message was not forwarded as the client sent it", i)
				}
				last := msgs[len(msgs)-1]
				if !bytes.Equal(last, clientMsgs[len(clientMsgs)-1]) {
					t.Fatalf("turn %d: the newest message was not forwarded as sent: %s", i, last)
				}
			}
			if compactedAt == 0 {
				t.Fatal("the conversation never compacted")
			}
			_, compactions := up.Chats()
			if compactions != 1 {
				t.Fatalf("%d compaction calls, want 1", compactions)
			}
			// The session: an ordinary kompact session with an
			// auto_compaction revision; its messages and the revision's
			// before-list hold every message the client sent.
			var revs struct {
				Revisions []kompact.RevisionInfo `json:"revisions"`
			}
			apitest.GetJSON(t, srv.URL, "/v1/sessions/"+id+"/revisions", &revs)
			if len(revs.Revisions) != 1 || revs.Revisions[0].Kind != kompact.RevisionAutoCompaction {
				t.Fatalf("revisions: %+v", revs.Revisions)
			}
			type stored struct {
				ID      string          `json:"id"`
				Content json.RawMessage `json:"content"`
			}
			var sess struct {
				Messages []stored `json:"messages"`
			}
			var before struct {
				Before []stored `json:"before"`
			}
			apitest.GetJSON(t, srv.URL, "/v1/sessions/"+id, &sess)
			apitest.GetJSON(t, srv.URL, fmt.Sprintf("/v1/sessions/%s/revisions/%d", id, revs.Revisions[0].Rev), &before)
			all := string(jsonOf(t, sess.Messages)) + string(jsonOf(t, before.Before))
			for i := 1; i <= 14; i++ {
				if !strings.Contains(all, fmt.Sprintf("turn %d:", i)) {
					t.Errorf("turn %d's user message is lost", i)
				}
			}
			if n := len(sess.Messages); sess.Messages[n-1].ID != fmt.Sprintf("g_%d", len(cv.Msgs)-2) {
				t.Errorf("the session's last message is %q, want the client's last user message", sess.Messages[n-1].ID)
			}
			// Token accounting: the upstream's last prompt_tokens, recorded
			// once the answer is relayed (the client may have it a moment
			// before).
			chats, _ := up.Chats()
			want := len(chats[len(chats)-1].Body) / 4
			var ctxStatus service.SessionContext
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				apitest.GetJSON(t, srv.URL, "/v1/sessions/"+id+"/context", &ctxStatus)
				if ctxStatus.TokenCount == want && ctxStatus.PendingTokens == 0 || time.Now().After(deadline) {
					break
				}
			}
			if ctxStatus.TokenCount != want || ctxStatus.PendingTokens != 0 {
				t.Errorf("token count %d + %d pending, want the upstream's %d + 0", ctxStatus.TokenCount, ctxStatus.PendingTokens, want)
			}
		})
	}
}

func jsonOf(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// joinRaw concatenates raw messages.
func joinRaw(msgs []json.RawMessage) []byte {
	var b []byte
	for _, m := range msgs {
		b = append(b, m...)
	}
	return b
}

// postJSON posts body to path and decodes the answer into v (when not
// nil), failing unless it is 200.
func postJSON(t *testing.T, base, path, body string, v any) {
	t.Helper()
	resp, err := http.Post(base+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("POST %s: %d %s", path, resp.StatusCode, b)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
}

// metric returns the value of the metrics line that begins with name.
func metric(t *testing.T, base, name string) string {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			return v
		}
	}
	return ""
}

// TestGatewayPrecompute: at 0.8 of the trigger the gateway compacts in the
// background and forwards the turn unchanged; the turn that reaches the
// trigger gets the precomputed summary without a compaction call in its
// path. A turn that reaches the trigger while the precompute still runs
// waits for it rather than starting another.
func TestGatewayPrecompute(t *testing.T) {
	for _, wait := range []bool{false, true} {
		t.Run(fmt.Sprintf("wait=%v", wait), func(t *testing.T) {
			up := apitest.NewFakeUpstream(t)
			if wait {
				up.Gate = make(chan struct{})
			}
			srv := newGatewayServer(t, testserver.SQLite(t), up, 0.8)
			c := apitest.NewGatewayClient(srv.URL)
			cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("You are a careful agent.")}}
			startedAt := 0
			for i := 1; i <= 14; i++ {
				if startedAt == 0 && metric(t, srv.URL, `kompact_gateway_precompute_total{result="started"}`) != "" {
					startedAt = i - 1 // the previous turn started the precompute (counted before it went upstream)
				}
				up.Mu.Lock()
				gate := up.Gate
				if startedAt > 0 && gate != nil {
					up.Gate = nil // later compaction calls (none expected) answer at once
					time.AfterFunc(300*time.Millisecond, func() { close(gate) })
				}
				up.Mu.Unlock()
				sentAt := time.Now()
				h := cv.Turn(t, c, i, false)
				if h.Get("X-Kompact-Forwarded") != "compacted" {
					continue
				}
				chats, n := up.Chats()
				t.Logf("turn %d at the trigger: the upstream had the compacted request %v after the client sent it (the precompute started at turn %d)",
					i, chats[len(chats)-1].At.Sub(sentAt).Round(time.Microsecond), startedAt)
				// One compaction call in all, and the turn applied a
				// precomputed summary (a hit): so that call was the
				// precompute's, and the turn made none of its own. (When
				// the call reached the upstream is not checked: on a loaded
				// machine the precompute's call may arrive after the trigger
				// turn began, which then waits for it, as it should.)
				if startedAt == 0 || n != 1 {
					t.Fatalf("turn %d compacted with %d compaction calls, precompute started at turn %d", i, n, startedAt)
				}
				if got := metric(t, srv.URL, `kompact_gateway_precompute_total{result="hit"}`); got != "1" {
					t.Errorf("precompute hits %q, want 1", got)
				}
				id := h.Get("X-Kompact-Session")
				var revs struct {
					Revisions []kompact.RevisionInfo `json:"revisions"`
				}
				apitest.GetJSON(t, srv.URL, "/v1/sessions/"+id+"/revisions", &revs)
				if len(revs.Revisions) != 1 || !strings.Contains(revs.Revisions[0].Note, "precomputed") {
					t.Fatalf("revisions: %+v", revs.Revisions)
				}
				return
			}
			t.Fatal("the conversation never compacted")
		})
	}
}

// TestGatewayManualCompactionAndUndo: a compaction made in the API (not
// by the gateway) changes what the gateway forwards from the next turn;
// undoing it stops the substitution.
func TestGatewayManualCompactionAndUndo(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	srv := newGatewayServerAuto(t, testserver.SQLite(t), up, 0, false)
	c := apitest.NewGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "manual-1"))
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys")}}
	for i := 1; i <= 4; i++ {
		if h := cv.Turn(t, c, i, false); h.Get("X-Kompact-Forwarded") != "as-sent" || h.Get("X-Kompact-Session") != "manual-1" {
			t.Fatalf("turn %d: %v", i, h)
		}
	}
	var out struct {
		Status string `json:"status"`
	}
	postJSON(t, srv.URL, "/v1/sessions/manual-1/actions/compact_conversation", `{}`, &out)
	if out.Status != "compacted" {
		t.Fatalf("compaction: %+v", out)
	}
	if h := cv.Turn(t, c, 5, false); h.Get("X-Kompact-Forwarded") != "compacted" {
		t.Fatalf("after a manual compaction: forwarded %q", h.Get("X-Kompact-Forwarded"))
	}
	var revs struct {
		Revisions []kompact.RevisionInfo `json:"revisions"`
	}
	apitest.GetJSON(t, srv.URL, "/v1/sessions/manual-1/revisions", &revs)
	postJSON(t, srv.URL, fmt.Sprintf("/v1/sessions/manual-1/revisions/%d/undo", revs.Revisions[0].Rev), `{}`, nil)
	h := cv.Turn(t, c, 6, false)
	chats, _ := up.Chats()
	if h.Get("X-Kompact-Forwarded") != "as-sent" || !bytes.Equal(chats[len(chats)-1].Body, c.LastSent()) {
		t.Fatalf("after the undo: forwarded %q", h.Get("X-Kompact-Forwarded"))
	}
}

// TestGatewayDivergedHistory: a client that edits its history gets it
// forwarded as sent; without X-Kompact-Session it becomes a new session,
// with it nothing is stored; the old session is left as it was.
func TestGatewayDivergedHistory(t *testing.T) {
	for _, named := range []bool{false, true} {
		t.Run(fmt.Sprintf("named=%v", named), func(t *testing.T) {
			up := apitest.NewFakeUpstream(t)
			srv := newGatewayServer(t, testserver.SQLite(t), up, 0)
			var opts []option.RequestOption
			if named {
				opts = append(opts, option.WithHeader("X-Kompact-Session", "named-1"))
			}
			c := apitest.NewGatewayClient(srv.URL, opts...)
			cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys")}}
			var id string
			for i := 1; i <= 3; i++ {
				id = cv.Turn(t, c, i, false).Get("X-Kompact-Session")
			}
			type sessionDoc struct {
				Messages []json.RawMessage `json:"messages"`
				Version  int64             `json:"version"`
			}
			var before, after sessionDoc
			apitest.GetJSON(t, srv.URL, "/v1/sessions/"+id, &before)
			cv.Msgs[3] = sdk.UserMessage("turn 2, edited") // the client rewrites its second question
			h := cv.Turn(t, c, 4, false)
			chats, _ := up.Chats()
			if !bytes.Equal(chats[len(chats)-1].Body, c.LastSent()) || h.Get("X-Kompact-Forwarded") != "as-sent" {
				t.Fatal("an edited history was not forwarded as sent")
			}
			got := h.Get("X-Kompact-Session")
			if named && got != "" || !named && (got == "" || got == id) {
				t.Fatalf("edited history went to session %q (the old one is %q)", got, id)
			}
			apitest.GetJSON(t, srv.URL, "/v1/sessions/"+id, &after)
			if after.Version != before.Version || len(after.Messages) != len(before.Messages) {
				t.Fatalf("the old session changed: version %d→%d, %d→%d messages", before.Version, after.Version, len(before.Messages), len(after.Messages))
			}
		})
	}
}

// TestGatewayErrors: the gateway's own errors come in OpenAI's form (the
// SDK reads them); an agent without a gateway is 404; an upstream error
// keeps its status, Retry-After and body; the model list is relayed.
func TestGatewayErrors(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	srv := newGatewayServer(t, testserver.SQLite(t), up, 0)
	post := func(path, body string) (*http.Response, []byte) {
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	resp, b := post("/gateway/nobody/v1/chat/completions", `{"model":"m","messages":[]}`)
	var e struct {
		Error struct {
			Message, Code string
			Fixes         []string
		}
	}
	if resp.StatusCode != 404 || json.Unmarshal(b, &e) != nil || e.Error.Code != "not_found" || !strings.Contains(e.Error.Message, "nobody") || len(e.Error.Fixes) == 0 {
		t.Fatalf("unknown agent: %d %s", resp.StatusCode, b)
	}
	if resp, b := post("/gateway/gw/v1/chat/completions", `{"model":"m"}`); resp.StatusCode != 400 || !strings.Contains(string(b), "messages") {
		t.Fatalf("no messages: %d %s", resp.StatusCode, b)
	}
	if resp, b := post("/gateway/gw/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"FAIL-429"}]}`); resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "7" || string(b) != apitest.Upstream429 {
		t.Fatalf("upstream error: %d %v %s", resp.StatusCode, resp.Header, b)
	}
	nobody := sdk.NewClient(option.WithBaseURL(srv.URL+"/gateway/nobody/v1"), option.WithAPIKey("k"), option.WithMaxRetries(0))
	_, err := nobody.Chat.Completions.New(context.Background(), sdk.ChatCompletionNewParams{Model: "m", Messages: []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("hi")}})
	var apiErr *sdk.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || !strings.Contains(apiErr.Message, "nobody") {
		t.Fatalf("the SDK's error: %v", err)
	}
	models, err := apitest.NewGatewayClient(srv.URL).Models.List(context.Background())
	if err != nil || len(models.Data) != 1 || models.Data[0].ID != "chat-model" {
		t.Fatalf("models: %v %v", models, err)
	}
}

// TestGatewayAuthorization: a server with a token wants it on the gateway
// too (as the client's API key, or in X-Kompact-Token); the upstream gets
// the agent's key, or with forward_authorization the client's own
// Authorization, never the server's token (in any scheme: issue 29) and
// never the agent's key instead of a client key that is not there (401).
func TestGatewayAuthorization(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	var mu sync.Mutex
	var seen []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"reply 1"},"finish_reason":"stop"}]}`)
	}))
	t.Cleanup(up.Close)
	yaml := fmt.Sprintf(`agents:
  own: {llm: {base_url: %[1]s, model: m, api_key_env: AGENT_KEY}, gateway: {enabled: true}}
  fwd: {llm: {base_url: %[1]s, model: m, api_key_env: AGENT_KEY}, gateway: {enabled: true, forward_authorization: true}}
`, up.URL+"/v1")
	cfg, err := config.Parse([]byte(yaml), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	getenv := func(name string) string {
		if name == "AGENT_KEY" {
			return "agent-secret-key"
		}
		return ""
	}
	srv := httptest.NewServer(httpapi.CheckedHandler(t, httpapi.New(httpapi.Config{Store: testserver.SQLite(t), Agents: cfg, Token: token,
		Upstream: &openai.Upstream{Getenv: getenv}}).Handler()))
	t.Cleanup(srv.Close)
	send := func(agent string, headers map[string]string) (int, string) {
		req, _ := http.NewRequest("POST", srv.URL+"/gateway/"+agent+"/v1/chat/completions", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		mu.Lock()
		defer mu.Unlock()
		last := ""
		if len(seen) > 0 {
			last, seen = seen[len(seen)-1], nil
		}
		if strings.Contains(string(b), token) || strings.Contains(string(b), "agent-secret-key") {
			t.Fatalf("an answer echoes a secret: %s", b)
		}
		return resp.StatusCode, last
	}
	cases := []struct {
		name, agent string
		headers     map[string]string
		status      int
		upstream    string
	}{
		{"no token", "own", nil, 401, ""},
		{"a wrong token", "own", map[string]string{"Authorization": "Bearer wrong-token-wrong-token-wrong-token"}, 401, ""},
		{"the token as the API key", "own", map[string]string{"Authorization": "Bearer " + token}, 200, "Bearer agent-secret-key"},
		{"the token in X-Kompact-Token", "own", map[string]string{"X-Kompact-Token": token, "Authorization": "Bearer client-key"}, 200, "Bearer agent-secret-key"},
		{"forwarded: the client's key", "fwd", map[string]string{"X-Kompact-Token": token, "Authorization": "Bearer client-key"}, 200, "Bearer client-key"},
		{"forwarded: never the server's token", "fwd", map[string]string{"Authorization": "Bearer " + token}, 401, ""},
		{"forwarded: no client key", "fwd", map[string]string{"X-Kompact-Token": token}, 401, ""},
		{"forwarded: a blank client key", "fwd", map[string]string{"X-Kompact-Token": token, "Authorization": " "}, 401, ""},
	}
	for name, h := range map[string]string{"after a tab": "Bearer\t" + token, "bare": token, "as a Token": "Token " + token,
		"quoted": `Bearer "` + token + `"`, "in Basic": "Basic " + base64.StdEncoding.EncodeToString([]byte("u:"+token))} {
		cases = append(cases, struct {
			name, agent string
			headers     map[string]string
			status      int
			upstream    string
		}{"forwarded: never the server's token " + name, "fwd", map[string]string{"X-Kompact-Token": token, "Authorization": h}, 401, ""})
	}
	for _, c := range cases {
		status, got := send(c.agent, c.headers)
		if status != c.status || got != c.upstream {
			t.Errorf("%s: status %d, upstream saw %q; want %d, %q", c.name, status, got, c.status, c.upstream)
		}
	}
}

// failCompactions makes up answer every compaction request with 500.
func failCompactions(t *testing.T, up *apitest.FakeUpstream) {
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"model":"compact-model"`)) {
			http.Error(w, `{"error":{"message":"down"}}`, http.StatusInternalServerError)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		up.Serve(w, r)
	}))
	t.Cleanup(failing.Close)
	up.Srv = failing
}

// TestGatewayCompactionFails: a compaction that fails at the trigger
// leaves the session as it was, counts in the breaker, and the turn is
// forwarded as sent.
func TestGatewayCompactionFails(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	failCompactions(t, up)
	srv := newGatewayServer(t, testserver.SQLite(t), up, 0)
	c := apitest.NewGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "failing"))
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys")}}
	for i := 1; i <= 12; i++ {
		if h := cv.Turn(t, c, i, false); h.Get("X-Kompact-Forwarded") != "as-sent" {
			t.Fatalf("turn %d: forwarded %q although every compaction fails", i, h.Get("X-Kompact-Forwarded"))
		}
		chats, _ := up.Chats()
		if !bytes.Equal(chats[len(chats)-1].Body, c.LastSent()) {
			t.Fatalf("turn %d: not forwarded as sent", i)
		}
	}
	var ctxStatus service.SessionContext
	apitest.GetJSON(t, srv.URL, "/v1/sessions/failing/context", &ctxStatus)
	if ctxStatus.AutoFailures == 0 {
		t.Fatalf("the failed compactions did not count in the breaker: %+v", ctxStatus)
	}
	var revs struct {
		Revisions []kompact.RevisionInfo `json:"revisions"`
	}
	apitest.GetJSON(t, srv.URL, "/v1/sessions/failing/revisions", &revs)
	if len(revs.Revisions) != 0 {
		t.Fatalf("revisions after failed compactions: %+v", revs.Revisions)
	}
}
