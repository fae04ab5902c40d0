package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"kompact"
	"kompact/internal/testing/fakellm"
	"kompact/kimi"
	"kompact/openai"
	"kompact/service"
)

// sleepLog records the waits the client asks for instead of sleeping.
type sleepLog struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleepLog) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleepLog) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// newFakeClient returns a fake server and a client whose retries never
// sleep for real.
func newFakeClient(t *testing.T) (*fakellm.Server, *openai.Client, *sleepLog) {
	t.Helper()
	srv := fakellm.New(t)
	sl := &sleepLog{}
	return srv, &openai.Client{Sleep: sl.sleep, MaxRetries: 3}, sl
}

func fakeConfig(srv *fakellm.Server) kompact.RequestConfig {
	return kompact.RequestConfig{BaseURL: srv.URL(), Model: "kimi-test"}
}

const smallSessionJSON = `{"id":"s1","messages":[
 {"id":"m1","role":"system","content":"You are a coding agent."},
 {"id":"m2","role":"user","content":"Fix the failing test."},
 {"id":"m3","role":"assistant","content":[{"type":"think","think":"look first"},{"type":"text","text":"Looking."}],
  "tool_calls":[{"type":"function","id":"call_1","function":{"name":"ReadFile","arguments":"{\"path\":\"a.go\"}"}}]},
 {"id":"m4","role":"tool","tool_call_id":"call_1","content":[{"type":"text","text":"package a"},{"type":"data","data":{"asset_ref":"file-17"}}]},
 {"id":"m5","role":"assistant","content":"The test expects 2."},
 {"id":"m6","role":"user","content":"Go on."},
 {"id":"m7","role":"assistant","content":"Done."}
]}`

// smallPlan prepares the compaction of a small session.
func smallPlan(t *testing.T) (*kompact.Session, *kimi.Plan) {
	t.Helper()
	s, err := kompact.DecodeSession([]byte(smallSessionJSON))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := kimi.Prepare(s, kimi.Options{MaxPreserved: kompact.DefaultMaxPreserved})
	if err != nil || plan.Noop {
		t.Fatalf("prepare: %v %+v", err, plan)
	}
	return s, plan
}

// smallRequest returns the request messages of smallPlan.
func smallRequest(t *testing.T) []kompact.Message {
	_, plan := smallPlan(t)
	return plan.RequestMessages()
}

// llmError asserts that err is a *kompact.Error with code and returns it.
func llmError(t *testing.T, err error, code kompact.ErrorCode) *kompact.Error {
	t.Helper()
	var e *kompact.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *kompact.Error", err, err)
	}
	if e.Code != code {
		t.Fatalf("code %s, want %s: %s", e.Code, code, e.Message)
	}
	return e
}

// completeSmall asks c, through srv, for the compaction of smallRequest.
func completeSmall(t *testing.T, c *openai.Client, srv *fakellm.Server, progress func(kompact.Progress)) (kompact.Answer, error) {
	t.Helper()
	return c.Complete(context.Background(), fakeConfig(srv), smallRequest(t), progress)
}

// mustComplete is completeSmall for a completion that must succeed.
func mustComplete(t *testing.T, c *openai.Client, srv *fakellm.Server, progress func(kompact.Progress)) kompact.Answer {
	t.Helper()
	a, err := completeSmall(t, c, srv, progress)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// checkTries checks how many requests srv received and how many waits the
// client asked for.
func checkTries(t *testing.T, srv *fakellm.Server, sl *sleepLog, requests, waits int) {
	t.Helper()
	if n, w := len(srv.Requests()), sl.all(); n != requests || len(w) != waits {
		t.Errorf("%d requests, waits %v; want %d and %d", n, w, requests, waits)
	}
}

// hasWaiting reports whether a waiting report in pl matches.
func hasWaiting(pl *fakellm.ProgressLog, match func(waiting string) bool) bool {
	for _, p := range pl.List() {
		if p.Waiting != "" && match(p.Waiting) {
			return true
		}
	}
	return false
}

// checkCancelled cancels a completion after 100ms and checks that it
// returns at once with an LLM error wrapping context.Canceled.
func checkCancelled(t *testing.T, c *openai.Client, srv *fakellm.Server) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.Complete(ctx, fakeConfig(srv), smallRequest(t), nil)
	if elapsed := time.Since(start); elapsed > time.Second {
		t.Errorf("returned after %s", elapsed)
	}
	llmError(t, err, kompact.ELLM)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("%v does not wrap context.Canceled", err)
	}
}

func partsString(parts []kompact.Part) string {
	var out []string
	for _, p := range parts {
		if p.Type == kompact.PartThink {
			out = append(out, "think:"+p.Think)
		} else {
			out = append(out, string(p.Type)+":"+p.Text)
		}
	}
	return strings.Join(out, " | ")
}

func answerText(a kompact.Answer) string {
	var b strings.Builder
	for _, p := range a.Parts {
		if p.Type == kompact.PartText {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

func TestClientStreamsAnswer(t *testing.T) {
	t.Parallel()
	srv, c, sl := newFakeClient(t)
	srv.Enqueue(fakellm.Answer(
		fakellm.Think("let me "), fakellm.Think("think"),
		fakellm.Text("Héllo"), fakellm.Text(""), fakellm.Text(", wörld"),
		fakellm.Think("more"),
		fakellm.Text("!"),
		fakellm.Call(0, "call_9", "Shell", `{"cmd":`), fakellm.Call(0, "", "", `"ls"}`),
	).WithUsage(fakellm.Usage{PromptTokens: 100, CompletionTokens: 20, CachedTokens: i64p(30)}))
	var pl fakellm.ProgressLog
	a := mustComplete(t, c, srv, pl.Add)
	want := "think:let me think | text:Héllo, wörld | think:more | text:!"
	if got := partsString(a.Parts); got != want {
		t.Errorf("parts\n got %s\nwant %s", got, want)
	}
	if len(a.ToolCalls) != 1 || a.ToolCalls[0].ID != "call_9" || a.ToolCalls[0].Name != "Shell" ||
		a.ToolCalls[0].Arguments == nil || *a.ToolCalls[0].Arguments != `{"cmd":"ls"}` {
		t.Errorf("tool calls %s", callsString(a.ToolCalls))
	}
	wantUsage := kompact.Usage{InputOther: 70, Output: 20, InputCacheRead: 30}
	if a.Usage == nil || *a.Usage != wantUsage {
		t.Errorf("usage %+v, want %+v", a.Usage, wantUsage)
	}
	total := len([]rune("let me think" + "Héllo, wörld" + "more" + "!"))
	ps := pl.List()
	if len(ps) == 0 {
		t.Fatal("no progress reported")
	}
	prev := 0
	for i, p := range ps {
		if p.Chars < prev {
			t.Errorf("progress %d: Chars went down from %d to %d", i, prev, p.Chars)
		}
		if p.Waiting != "" {
			t.Errorf("progress %d waits (%q) although nothing failed", i, p.Waiting)
		}
		prev = p.Chars
	}
	if last := ps[len(ps)-1]; last.Chars != total {
		t.Errorf("final progress Chars %d, want %d", last.Chars, total)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	if w := sl.all(); len(w) != 0 {
		t.Errorf("slept %v", w)
	}
}

func TestClientUsageForms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		usage *fakellm.Usage
		want  *kompact.Usage
	}{
		{"none", nil, nil},
		{"OpenAI prompt_tokens_details", &fakellm.Usage{PromptTokens: 50, CompletionTokens: 5, DetailsCachedTokens: i64p(20)},
			&kompact.Usage{InputOther: 30, Output: 5, InputCacheRead: 20}},
		{"Moonshot usage in the choice", &fakellm.Usage{PromptTokens: 50, CompletionTokens: 5, CachedTokens: i64p(10), InChoice: true},
			&kompact.Usage{InputOther: 40, Output: 5, InputCacheRead: 10}},
		{"top-level cached_tokens wins", &fakellm.Usage{PromptTokens: 50, CompletionTokens: 5, CachedTokens: i64p(10), DetailsCachedTokens: i64p(20)},
			&kompact.Usage{InputOther: 40, Output: 5, InputCacheRead: 10}},
		{"no cache", &fakellm.Usage{PromptTokens: 50, CompletionTokens: 5},
			&kompact.Usage{InputOther: 50, Output: 5}},
	}
	t.Run("chunk-level usage wins over the choice's", func(t *testing.T) {
		t.Parallel()
		srv, c, _ := newFakeClient(t)
		srv.Enqueue(sseReply(`data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m",` +
			`"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop","usage":{"prompt_tokens":1,"completion_tokens":1}}],` +
			`"usage":{"prompt_tokens":50,"completion_tokens":5,"cached_tokens":10}}` + "\n\ndata: [DONE]\n\n"))
		a := mustComplete(t, c, srv, nil)
		if want := (kompact.Usage{InputOther: 40, Output: 5, InputCacheRead: 10}); a.Usage == nil || *a.Usage != want {
			t.Errorf("usage %+v, want %+v", a.Usage, want)
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, c, _ := newFakeClient(t)
			r := fakellm.Answer(fakellm.Text("ok"))
			r.Usage = tt.usage
			srv.Enqueue(r)
			a := mustComplete(t, c, srv, nil)
			if !reflect.DeepEqual(a.Usage, tt.want) {
				t.Errorf("usage %+v, want %+v", a.Usage, tt.want)
			}
		})
	}
}

func TestClientOllamaReasoningField(t *testing.T) {
	t.Parallel()
	srv, c, _ := newFakeClient(t)
	r := fakellm.Answer(fakellm.Think("hmm"), fakellm.Text("sum"))
	r.ReasoningField = "reasoning"
	srv.Enqueue(r)
	a := mustComplete(t, c, srv, nil)
	if got := partsString(a.Parts); got != "think:hmm | text:sum" {
		t.Errorf("parts %s", got)
	}
}

func TestClientNonStreamedAnswer(t *testing.T) {
	t.Parallel()
	srv, c, _ := newFakeClient(t)
	r := fakellm.Answer(fakellm.Think("t"), fakellm.Text("whole "), fakellm.Text("answer")).
		WithUsage(fakellm.Usage{PromptTokens: 9, CompletionTokens: 3})
	r.NoStream = true
	srv.Enqueue(r)
	var pl fakellm.ProgressLog
	a := mustComplete(t, c, srv, pl.Add)
	if got := partsString(a.Parts); got != "think:t | text:whole answer" {
		t.Errorf("parts %s", got)
	}
	if a.Usage == nil || a.Usage.Output != 3 || a.Usage.InputOther != 9 {
		t.Errorf("usage %+v", a.Usage)
	}
	if ps := pl.List(); len(ps) == 0 || ps[len(ps)-1].Chars != len("t"+"whole answer") {
		t.Errorf("progress %+v", ps)
	}
}

// TestClientKCP004RequestBody checks the body on the wire: the plan's two
// messages exactly, the merged settings, and never tools.
func TestClientKCP004RequestBody(t *testing.T) {
	t.Parallel()
	srv, c, _ := newFakeClient(t)
	s, plan := smallPlan(t)
	agent := &kompact.Agent{
		Name: "kimi",
		LLM: kompact.LLMConfig{BaseURL: srv.URL(), Model: "kimi-k2", Settings: map[string]any{
			"max_tokens": 2048, "top_p": 0.9, "temperature": 0.7,
			"tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "Shell"}}},
		}},
		Compaction: kompact.CompactionConfig{Enabled: true, Type: kompact.DefaultCompactionType, SettingsOverrides: map[string]any{
			"temperature": 0.2,
			"tools":       []any{map[string]any{"type": "function", "function": map[string]any{"name": "ReadFile"}}},
			"tool_choice": "required",
		}},
	}
	cfg := service.EffectiveRequest(agent, s)
	msgs := plan.RequestMessages()
	if _, err := c.Complete(context.Background(), cfg, msgs, nil); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	req := reqs[0]
	if req.Method != http.MethodPost || req.Path != "/v1/chat/completions" {
		t.Errorf("request %s %s", req.Method, req.Path)
	}
	if req.JSON == nil {
		t.Fatalf("body is not a JSON object: %s", req.Body)
	}
	for _, k := range []string{"tools", "tool_choice", "parallel_tool_calls", "functions", "function_call"} {
		if _, ok := req.JSON[k]; ok {
			t.Errorf("the body carries %q: %s", k, req.Body)
		}
	}
	var want any
	if err := json.Unmarshal(openai.AppendWireMessages(nil, msgs), &want); err != nil {
		t.Fatal(err)
	}
	if got := req.JSON["messages"]; !reflect.DeepEqual(got, want) {
		t.Errorf("messages differ\n got %v\nwant %v", got, want)
	}
	if n := len(req.Messages()); n != 2 {
		t.Errorf("%d messages, want 2", n)
	}
	for k, v := range map[string]any{"model": "kimi-k2", "temperature": 0.2, "max_tokens": 2048.0, "top_p": 0.9, "stream": true} {
		if got := req.JSON[k]; got != v {
			t.Errorf("%s = %v (%T), want %v", k, got, got, v)
		}
	}
	if so, _ := req.JSON["stream_options"].(map[string]any); so["include_usage"] != true {
		t.Errorf("stream_options %v", req.JSON["stream_options"])
	}
	if ct := req.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
}

// TestClientKCP014ModelPrecedence checks the model sent on the wire: the
// session's compaction_model, else the agent's compaction_model, else
// settings_overrides' model, else the agent's model.
func TestClientKCP014ModelPrecedence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                               string
		session, compaction, override, llm string
		want                               string
	}{
		{"session compaction_model first", "sess-model", "comp-model", "over-model", "llm-model", "sess-model"},
		{"agent compaction_model next", "", "comp-model", "over-model", "llm-model", "comp-model"},
		{"settings_overrides model next", "", "", "over-model", "llm-model", "over-model"},
		{"agent model last", "", "", "", "llm-model", "llm-model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, c, _ := newFakeClient(t)
			s, plan := smallPlan(t)
			s.CompactionModel = tt.session
			overrides := map[string]any{}
			if tt.override != "" {
				overrides["model"] = tt.override
			}
			agent := &kompact.Agent{
				LLM: kompact.LLMConfig{BaseURL: srv.URL(), Model: tt.llm, Settings: map[string]any{"model": "settings-model"}},
				Compaction: kompact.CompactionConfig{Enabled: true, Type: kompact.DefaultCompactionType,
					CompactionModel: tt.compaction, SettingsOverrides: overrides},
			}
			if _, err := c.Complete(context.Background(), service.EffectiveRequest(agent, s), plan.RequestMessages(), nil); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			if got := reqs[0].Model(); got != tt.want {
				t.Errorf("model %q, want %q", got, tt.want)
			}
		})
	}
}

func TestClientAuthorizationHeader(t *testing.T) {
	t.Parallel()
	t.Run("bearer key when api_key_env is set", func(t *testing.T) {
		t.Parallel()
		srv, c, _ := newFakeClient(t)
		c.Getenv = func(k string) string {
			if k == "MOONSHOT_API_KEY" {
				return "sk-test-123"
			}
			return ""
		}
		cfg := fakeConfig(srv)
		cfg.APIKeyEnv = "MOONSHOT_API_KEY"
		if _, err := c.Complete(context.Background(), cfg, smallRequest(t), nil); err != nil {
			t.Fatal(err)
		}
		if got := srv.Requests()[0].Header.Get("Authorization"); got != "Bearer sk-test-123" {
			t.Errorf("Authorization %q", got)
		}
	})
	t.Run("no header without api_key_env", func(t *testing.T) {
		t.Parallel()
		srv, c, _ := newFakeClient(t)
		c.Getenv = func(string) string { return "should-not-be-read" }
		mustComplete(t, c, srv, nil)
		if h, ok := srv.Requests()[0].Header["Authorization"]; ok {
			t.Errorf("Authorization sent: %q", h)
		}
	})
}

// TestClientIgnoresSDKEnvironment: the SDK's OPENAI_* variables must not
// leak an OpenAI key or organisation to another provider. Not parallel: it
// sets environment variables.
func TestClientIgnoresSDKEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-openai-must-not-leak")
	t.Setenv("OPENAI_ORG_ID", "org-must-not-leak")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	srv, c, _ := newFakeClient(t)
	mustComplete(t, c, srv, nil)
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests reached the configured base URL", len(reqs))
	}
	for k, vs := range reqs[0].Header {
		for _, v := range vs {
			if strings.Contains(v, "must-not-leak") {
				t.Errorf("header %s carries %q", k, v)
			}
		}
	}
}

func TestClientMissingAPIKey(t *testing.T) {
	t.Parallel()
	srv, c, _ := newFakeClient(t)
	c.Getenv = func(string) string { return "" }
	cfg := fakeConfig(srv)
	cfg.APIKeyEnv = "MOONSHOT_API_KEY"
	_, err := c.Complete(context.Background(), cfg, smallRequest(t), nil)
	e := llmError(t, err, kompact.EInvalid)
	if !strings.Contains(e.Message, "MOONSHOT_API_KEY is not set") {
		t.Errorf("message %q does not name the variable", e.Message)
	}
	if !reflect.DeepEqual(e.Fixes, []string{"Set it (export MOONSHOT_API_KEY=<your key>) where kompact runs; for kompact serve, set it and restart the server."}) {
		t.Errorf("fixes %q", e.Fixes)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent without a key", n)
	}
}

func TestClientInvalidConfig(t *testing.T) {
	t.Parallel()
	c := &openai.Client{}
	for _, cfg := range []kompact.RequestConfig{
		{Model: "m"},
		{BaseURL: "api.moonshot.ai/v1", Model: "m"},
		{BaseURL: "http://127.0.0.1:1/v1"},
	} {
		_, err := c.Complete(context.Background(), cfg, smallRequest(t), nil)
		e := llmError(t, err, kompact.EInvalid)
		if len(e.Fixes) == 0 {
			t.Errorf("%+v: no fixes for %q", cfg, e.Message)
		}
	}
}

func TestClientRetryAfter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		reply    func() fakellm.Reply
		min, max time.Duration
	}{
		{"Retry-After seconds", func() fakellm.Reply { return fakellm.RateLimited("2") }, 2 * time.Second, 2 * time.Second},
		{"retry-after-ms", func() fakellm.Reply {
			return fakellm.RateLimited("").WithHeader("Retry-After-Ms", "1500")
		}, 1500 * time.Millisecond, 1500 * time.Millisecond},
		{"Retry-After date", func() fakellm.Reply {
			return fakellm.RateLimited(time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat))
		}, time.Second, 3 * time.Second},
		{"Retry-After beyond MaxBackoff is honoured", func() fakellm.Reply { return fakellm.RateLimited("45") }, 45 * time.Second, 45 * time.Second},
		{"Retry-After capped at five minutes", func() fakellm.Reply { return fakellm.RateLimited("3600") }, openai.MaxRetryAfter, openai.MaxRetryAfter},
		{"503 with Retry-After", func() fakellm.Reply {
			return fakellm.Fail(http.StatusServiceUnavailable, "busy").WithHeader("Retry-After", "1")
		}, time.Second, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, c, sl := newFakeClient(t)
			srv.Enqueue(tt.reply(), fakellm.Answer(fakellm.Text("after the wait")))
			var pl fakellm.ProgressLog
			a := mustComplete(t, c, srv, pl.Add)
			if answerText(a) != "after the wait" {
				t.Errorf("answer %q", answerText(a))
			}
			if n := len(srv.Requests()); n != 2 {
				t.Errorf("%d requests, want 2", n)
			}
			w := sl.all()
			if len(w) != 1 || w[0] < tt.min || w[0] > tt.max {
				t.Fatalf("waits %v, want one in [%s, %s]", w, tt.min, tt.max)
			}
			var waiting []string
			for _, p := range pl.List() {
				if p.Waiting != "" {
					waiting = append(waiting, p.Waiting)
				}
			}
			if len(waiting) != 1 || !strings.Contains(waiting[0], "retrying in") {
				t.Errorf("waiting reports %q", waiting)
			}
		})
	}
}

func TestClientRateLimitProgressMessage(t *testing.T) {
	t.Parallel()
	srv, c, _ := newFakeClient(t)
	srv.Enqueue(fakellm.RateLimited("2"), fakellm.Answer(fakellm.Text("ok")))
	var pl fakellm.ProgressLog
	mustComplete(t, c, srv, pl.Add)
	want := "attempt 2 of 4, retrying in 2 s: rate limited (429)"
	found := false
	for _, p := range pl.List() {
		found = found || p.Waiting == want && p.Attempt == 2 && p.MaxAttempts == 4 && p.RetryIn == 2
	}
	if !found {
		t.Errorf("no progress %q in %+v", want, pl.List())
	}
}

func TestClientServerErrorsExhaustRetries(t *testing.T) {
	t.Parallel()
	srv, c, sl := newFakeClient(t)
	c.MaxRetries = 3
	c.InitialBackoff = time.Second
	c.MaxBackoff = 3 * time.Second
	srv.SetDefault(fakellm.Fail(http.StatusInternalServerError, "upstream exploded"))
	_, err := completeSmall(t, c, srv, nil)
	e := llmError(t, err, kompact.ELLM)
	if n := len(srv.Requests()); n != 4 {
		t.Errorf("%d requests, want MaxRetries+1 = 4", n)
	}
	for _, s := range []string{"500", "upstream exploded", "4 attempts"} {
		if !strings.Contains(e.Message, s) {
			t.Errorf("message %q lacks %q", e.Message, s)
		}
	}
	if !strings.Contains(strings.Join(e.Fixes, " "), "retry later") {
		t.Errorf("fixes %q", e.Fixes)
	}
	var he *openai.HTTPError
	if !errors.As(err, &he) || he.StatusCode != 500 {
		t.Errorf("cause %v is not the 500", err)
	}
	w := sl.all()
	if len(w) != 3 {
		t.Fatalf("waits %v, want 3", w)
	}
	for i, d := range w {
		limit := min(time.Second<<i, 3*time.Second)
		if d < 0 || d > limit {
			t.Errorf("wait %d = %s, want within [0, %s]", i, d, limit)
		}
	}
}

func TestClientNoRetries(t *testing.T) {
	t.Parallel()
	srv, c, sl := newFakeClient(t)
	c.MaxRetries = -1
	srv.SetDefault(fakellm.Fail(http.StatusBadGateway, "bad gateway"))
	_, err := completeSmall(t, c, srv, nil)
	e := llmError(t, err, kompact.ELLM)
	checkTries(t, srv, sl, 1, 0)
	if !strings.HasSuffix(e.Message, "gave up after 1 attempt") {
		t.Errorf("message %q", e.Message)
	}
}

func TestClientDoesNotRetryClientErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status int
		fix    string
	}{
		{http.StatusBadRequest, "settings_overrides"},
		{http.StatusUnauthorized, "MOONSHOT_API_KEY"},
		{http.StatusForbidden, "MOONSHOT_API_KEY"},
		{http.StatusNotFound, "base_url"},
		{http.StatusUnprocessableEntity, "settings_overrides"},
		{http.StatusConflict, "settings_overrides"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			t.Parallel()
			srv, c, sl := newFakeClient(t)
			c.Getenv = func(string) string { return "sk-key" }
			srv.SetDefault(fakellm.Fail(tt.status, "the provider says no"))
			cfg := fakeConfig(srv)
			cfg.APIKeyEnv = "MOONSHOT_API_KEY"
			_, err := c.Complete(context.Background(), cfg, smallRequest(t), nil)
			e := llmError(t, err, kompact.ELLM)
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
			if len(sl.all()) != 0 {
				t.Errorf("waited %v", sl.all())
			}
			if !strings.Contains(e.Message, fmt.Sprint(tt.status)) || !strings.Contains(e.Message, "the provider says no") {
				t.Errorf("message %q", e.Message)
			}
			if strings.Contains(e.Message, "attempts") {
				t.Errorf("message %q speaks of retries", e.Message)
			}
			if errors.Is(err, kompact.ErrContextTooLong) {
				t.Errorf("%d taken for a context-length error", tt.status)
			}
			if fixes := strings.Join(e.Fixes, " "); !strings.Contains(fixes, tt.fix) {
				t.Errorf("fixes %q lack %q", fixes, tt.fix)
			}
			if tt.status == http.StatusNotFound && !strings.Contains(strings.Join(e.Fixes, " "), "kimi-test") {
				t.Errorf("404 fixes do not name the model: %q", e.Fixes)
			}
		})
	}
}

func TestClientUnreadableErrorBody(t *testing.T) {
	t.Parallel()
	srv, c, _ := newFakeClient(t)
	c.MaxRetries = -1
	long := "<html>" + strings.Repeat("x", 2000) + "</html>"
	srv.Enqueue(fakellm.Reply{Status: http.StatusBadGateway, RawBody: long}.WithHeader("Content-Type", "text/html"))
	_, err := completeSmall(t, c, srv, nil)
	e := llmError(t, err, kompact.ELLM)
	if !strings.Contains(e.Message, "502") || !strings.Contains(e.Message, "<html>xxx") {
		t.Errorf("message %q", e.Message)
	}
	if len(e.Message) > 800 {
		t.Errorf("message is %d bytes long; the raw body must be cut to 500", len(e.Message))
	}
}

func TestClientRetriesCutStream(t *testing.T) {
	t.Parallel()
	srv, c, sl := newFakeClient(t)
	srv.Enqueue(fakellm.CutAfter(1, fakellm.Text("par"), fakellm.Text("tial")), fakellm.Answer(fakellm.Text("whole")))
	var pl fakellm.ProgressLog
	a := mustComplete(t, c, srv, pl.Add)
	if got := partsString(a.Parts); got != "text:whole" {
		t.Errorf("parts %s: the cut attempt leaked into the answer", got)
	}
	checkTries(t, srv, sl, 2, 1)
	if !hasWaiting(&pl, func(w string) bool { return strings.Contains(w, "cut off") }) {
		t.Errorf("no waiting report for the cut: %+v", pl.List())
	}
}

func TestClientStreamCutEveryTime(t *testing.T) {
	t.Parallel()
	srv, c, sl := newFakeClient(t)
	c.MaxRetries = 2
	srv.SetDefault(fakellm.CutAfter(1, fakellm.Text("a"), fakellm.Text("b")))
	_, err := completeSmall(t, c, srv, nil)
	e := llmError(t, err, kompact.ELLM)
	checkTries(t, srv, sl, 3, 2)
	if !strings.Contains(e.Message, "3 attempts") {
		t.Errorf("message %q", e.Message)
	}
}

// sseReply is a 200 whose body is the given server-sent events, as is.
func sseReply(events string) fakellm.Reply {
	return fakellm.Reply{RawBody: events}.WithHeader("Content-Type", "text/event-stream")
}

// checkEnding completes against a server that gives replies in turn and
// checks the answer's text and the number of requests it took.
func checkEnding(t *testing.T, text string, requests int, replies ...fakellm.Reply) {
	t.Helper()
	srv, c, _ := newFakeClient(t)
	srv.Enqueue(replies...)
	a, err := completeSmall(t, c, srv, nil)
	if err != nil || answerText(a) != text {
		t.Fatalf("answer %q, %v; want %q", answerText(a), err, text)
	}
	if n := len(srv.Requests()); n != requests {
		t.Errorf("%d requests, want %d", n, requests)
	}
}

func TestClientStreamEndings(t *testing.T) {
	t.Parallel()
	const chunk = `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}` + "\n\n"
	t.Run("[DONE] without finish_reason is complete", func(t *testing.T) {
		t.Parallel()
		checkEnding(t, "hi", 1, sseReply(chunk+"data: [DONE]\n\n"))
	})
	t.Run("finish_reason without [DONE] is complete", func(t *testing.T) {
		t.Parallel()
		checkEnding(t, "hi", 1, sseReply(chunk+`data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n"))
	})
	t.Run("a clean end without either is a cut", func(t *testing.T) {
		t.Parallel()
		checkEnding(t, "retried", 2, sseReply(chunk), fakellm.Answer(fakellm.Text("retried")))
	})
	t.Run("an SSE error event", func(t *testing.T) {
		t.Parallel()
		srv, c, _ := newFakeClient(t)
		srv.Enqueue(fakellm.Reply{Items: []fakellm.Item{fakellm.Text("par")},
			StreamError: &fakellm.ErrorBody{Message: "model overloaded", Type: "server_error"}})
		_, err := completeSmall(t, c, srv, nil)
		e := llmError(t, err, kompact.ELLM)
		if !strings.Contains(e.Message, "model overloaded") {
			t.Errorf("message %q", e.Message)
		}
		var se *openai.StreamError
		if !errors.As(err, &se) {
			t.Errorf("cause is not a StreamError: %v", err)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
	t.Run("a 200 JSON error object", func(t *testing.T) {
		t.Parallel()
		srv, c, _ := newFakeClient(t)
		srv.Enqueue(fakellm.Reply{RawBody: `{"error":{"message":"quota exhausted","type":"billing_error"}}`})
		_, err := completeSmall(t, c, srv, nil)
		if e := llmError(t, err, kompact.ELLM); !strings.Contains(e.Message, "quota exhausted") {
			t.Errorf("message %q", e.Message)
		}
	})
	t.Run("a 200 that is not an event stream", func(t *testing.T) {
		t.Parallel()
		srv, c, _ := newFakeClient(t)
		srv.SetDefault(fakellm.Reply{RawBody: "<html>login</html>"}.WithHeader("Content-Type", "text/html"))
		_, err := completeSmall(t, c, srv, nil)
		if e := llmError(t, err, kompact.ELLM); !strings.Contains(e.Message, "text/html") {
			t.Errorf("message %q", e.Message)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
	t.Run("a vLLM error chunk", func(t *testing.T) {
		t.Parallel()
		srv, c, _ := newFakeClient(t)
		srv.Enqueue(sseReply(chunk + `data: {"object":"error","message":"boom in the middle","type":"BadRequestError","code":400}` + "\n\n"))
		_, err := completeSmall(t, c, srv, nil)
		e := llmError(t, err, kompact.ELLM)
		if !strings.Contains(e.Message, "boom in the middle") {
			t.Errorf("message %q", e.Message)
		}
	})
}

func TestClientConnectionRefused(t *testing.T) {
	t.Parallel()
	srv, c, sl := newFakeClient(t)
	cfg := fakeConfig(srv)
	srv.Close()
	c.MaxRetries = 2
	_, err := c.Complete(context.Background(), cfg, smallRequest(t), nil)
	e := llmError(t, err, kompact.ELLM)
	if !strings.Contains(e.Message, "could not reach") || !strings.Contains(e.Message, "3 attempts") {
		t.Errorf("message %q", e.Message)
	}
	if len(sl.all()) != 2 {
		t.Errorf("waits %v, want 2", sl.all())
	}
}

func TestClientAttemptTimeoutIsRetried(t *testing.T) {
	t.Parallel()
	srv, c, sl := newFakeClient(t)
	c.RequestTimeout = 200 * time.Millisecond
	srv.Enqueue(fakellm.Answer(fakellm.Text("late")).WithDelay(2*time.Second), fakellm.Answer(fakellm.Text("on time")))
	var pl fakellm.ProgressLog
	start := time.Now()
	a := mustComplete(t, c, srv, pl.Add)
	if elapsed := time.Since(start); elapsed > 1500*time.Millisecond {
		t.Errorf("took %s: the slow attempt was not cut at 200ms", elapsed)
	}
	if answerText(a) != "on time" {
		t.Errorf("answer %q", answerText(a))
	}
	checkTries(t, srv, sl, 2, 1)
	if !hasWaiting(&pl, func(w string) bool {
		return strings.HasPrefix(w, "attempt 2 of 4, retrying in ") && strings.HasSuffix(w, ": no complete answer within 200ms")
	}) {
		t.Errorf("no waiting report for the timeout: %+v", pl.List())
	}
}

func TestClientCancellation(t *testing.T) {
	t.Parallel()
	t.Run("while waiting for the answer", func(t *testing.T) {
		t.Parallel()
		srv, c, _ := newFakeClient(t)
		srv.SetDefault(fakellm.Answer(fakellm.Text("late")).WithDelay(2 * time.Second))
		checkCancelled(t, c, srv)
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%d requests after cancellation, want 1", n)
		}
	})
	t.Run("while backing off, with the real timer", func(t *testing.T) {
		t.Parallel()
		srv := fakellm.New(t)
		c := &openai.Client{}
		srv.SetDefault(fakellm.RateLimited("60"))
		checkCancelled(t, c, srv)
	})
	t.Run("deadline", func(t *testing.T) {
		t.Parallel()
		srv, c, _ := newFakeClient(t)
		srv.SetDefault(fakellm.Answer(fakellm.Text("late")).WithDelay(2 * time.Second))
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := c.Complete(ctx, fakeConfig(srv), smallRequest(t), nil)
		llmError(t, err, kompact.ELLM)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%v does not wrap context.DeadlineExceeded", err)
		}
	})
	t.Run("no retry past the deadline", func(t *testing.T) {
		t.Parallel()
		srv, c, sl := newFakeClient(t)
		srv.SetDefault(fakellm.RateLimited("60"))
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err := c.Complete(ctx, fakeConfig(srv), smallRequest(t), nil)
		e := llmError(t, err, kompact.ELLM)
		if !strings.Contains(e.Message, "429") || len(sl.all()) != 0 {
			t.Errorf("message %q, waits %v: want the 429 at once", e.Message, sl.all())
		}
	})
}

func TestClientEmptyAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		reply fakellm.Reply
		parts string
		msg   string
	}{
		{"nothing", fakellm.Answer(), "", kimi.EmptyResponseMessage},
		{"only empty text", fakellm.Answer(fakellm.Text("")), "", kimi.EmptyResponseMessage},
		{"only thinking", fakellm.Answer(fakellm.Think("I ran out of tokens")), "think:I ran out of tokens", kimi.ThinkOnlyMessage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, c, _ := newFakeClient(t)
			srv.Enqueue(tt.reply)
			_, plan := smallPlan(t)
			a, err := c.Complete(context.Background(), fakeConfig(srv), plan.RequestMessages(), nil)
			if err != nil {
				t.Fatalf("an empty answer is not a transport error: %v", err)
			}
			if got := partsString(a.Parts); got != tt.parts {
				t.Errorf("parts %q, want %q", got, tt.parts)
			}
			_, err = plan.Apply(a)
			e := llmError(t, err, kompact.EEmptyResponse)
			if e.Message != tt.msg {
				t.Errorf("message %q, want %q", e.Message, tt.msg)
			}
		})
	}
}

func TestClientContextTooLong(t *testing.T) {
	t.Parallel()
	provider := func(status int, message, typ string, code any) fakellm.Reply {
		return fakellm.Reply{Status: status, Error: &fakellm.ErrorBody{Message: message, Type: typ, Code: code}}
	}
	tests := []struct {
		name  string
		reply fakellm.Reply
	}{
		{"OpenAI code context_length_exceeded", fakellm.ContextTooLong()},
		{"OpenAI code with another message", provider(400, "Request too large.", "invalid_request_error", "context_length_exceeded")},
		{"Ollama", provider(400, "the input length exceeds the context length", "api_error", nil)},
		{"vLLM", provider(400, "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens in the messages.", "BadRequestError", 400)},
		{"Moonshot", provider(400, "Invalid request: Your request exceeded model token limit: 8192", "invalid_request_error", nil)},
		{"llama.cpp", provider(400, "the request exceeds the available context size, try increasing it", "exceed_context_size_error", nil)},
		{"Anthropic-style 413", provider(413, "prompt is too long: 210000 tokens > 200000 maximum", "invalid_request_error", nil)},
		{"422 context window", provider(422, "Input exceeds the context window of this model", "", nil)},
		{"Groq", provider(400, "Please reduce the length of the messages or completion.", "invalid_request_error", "context_length_exceeded")},
		{"Ollama's bare error", fakellm.Reply{Status: 400, RawBody: `{"error":"the input length exceeds the context length"}`}},
		{"plain text body", fakellm.Reply{Status: 400, RawBody: "Too many tokens in the prompt"}.WithHeader("Content-Type", "text/plain")},
		{"in the stream", fakellm.Reply{StreamError: &fakellm.ErrorBody{Message: "the input length exceeds the context length"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, c, sl := newFakeClient(t)
			srv.SetDefault(tt.reply)
			_, err := completeSmall(t, c, srv, nil)
			llmError(t, err, kompact.ELLM)
			if !errors.Is(err, kompact.ErrContextTooLong) {
				t.Errorf("%v does not wrap ErrContextTooLong", err)
			}
			if n := len(srv.Requests()); n != 1 || len(sl.all()) != 0 {
				t.Errorf("%d requests, waits %v: a context-length error must not be retried", n, sl.all())
			}
		})
	}
	t.Run("not for other 400s or for 5xx", func(t *testing.T) {
		t.Parallel()
		for _, r := range []fakellm.Reply{
			fakellm.Fail(400, "temperature must be at most 1"),
			fakellm.Fail(500, "context length bookkeeping failed"),
		} {
			srv, c, _ := newFakeClient(t)
			c.MaxRetries = -1
			srv.SetDefault(r)
			_, err := completeSmall(t, c, srv, nil)
			llmError(t, err, kompact.ELLM)
			if errors.Is(err, kompact.ErrContextTooLong) {
				t.Errorf("%v taken for a context-length error", err)
			}
		}
	})
}

func TestClientNeverLeaksAPIKey(t *testing.T) {
	t.Parallel()
	const key = "sk-secret-DO-NOT-LEAK-1234567890"
	echo := func(status int) func(fakellm.Request) fakellm.Reply {
		return func(req fakellm.Request) fakellm.Reply {
			auth := req.Header.Get("Authorization")
			return fakellm.Fail(status, "Incorrect API key provided: "+auth+" ("+strings.TrimPrefix(auth, "Bearer ")+")")
		}
	}
	tests := []struct {
		name  string
		setup func(srv *fakellm.Server)
	}{
		{"401 echoing the key", func(srv *fakellm.Server) { srv.SetFunc(echo(401)) }},
		{"500 echoing the key until retries run out", func(srv *fakellm.Server) { srv.SetFunc(echo(500)) }},
		{"400 context length echoing the key", func(srv *fakellm.Server) {
			srv.SetFunc(func(req fakellm.Request) fakellm.Reply {
				return fakellm.Fail(400, "context length exceeded for "+req.Header.Get("Authorization"))
			})
		}},
		{"error event echoing the key", func(srv *fakellm.Server) {
			srv.SetFunc(func(req fakellm.Request) fakellm.Reply {
				return fakellm.Reply{StreamError: &fakellm.ErrorBody{Message: "bad key " + req.Header.Get("Authorization"), Code: key}}
			})
		}},
		{"connection refused", func(srv *fakellm.Server) { srv.Close() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, c, _ := newFakeClient(t)
			c.Getenv = func(string) string { return key }
			tt.setup(srv)
			cfg := fakeConfig(srv)
			cfg.APIKeyEnv = "MOONSHOT_API_KEY"
			_, err := c.Complete(context.Background(), cfg, smallRequest(t), nil)
			if err == nil {
				t.Fatal("no error")
			}
			texts := []string{fmt.Sprintf("%v", err), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)}
			for e := err; e != nil; e = errors.Unwrap(e) {
				texts = append(texts, e.Error())
			}
			texts = append(texts, kompact.ErrorFixes(err)...)
			for _, s := range texts {
				if strings.Contains(s, key) {
					t.Errorf("the API key leaks in %q", s)
				}
			}
		})
	}
}

// TestClientErrorCausesAreReadable checks the SDK-free causes callers can
// inspect.
func TestClientErrorCausesAreReadable(t *testing.T) {
	t.Parallel()
	srv, c, _ := newFakeClient(t)
	srv.Enqueue(fakellm.Reply{Status: 403, Error: &fakellm.ErrorBody{Message: "no access to model", Type: "permission_error", Code: "model_forbidden"}})
	_, err := completeSmall(t, c, srv, nil)
	var he *openai.HTTPError
	if !errors.As(err, &he) {
		t.Fatalf("no HTTPError in %v", err)
	}
	want := openai.HTTPError{StatusCode: 403, Message: "no access to model", Type: "permission_error", Code: "model_forbidden"}
	if *he != want {
		t.Errorf("HTTPError %+v, want %+v", *he, want)
	}
	if e := llmError(t, err, kompact.ELLM); !strings.Contains(e.Message, "model_forbidden") {
		t.Errorf("message %q lacks the provider's code", e.Message)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a status error looks like a cut stream")
	}
}
