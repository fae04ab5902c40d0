package openai_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"kompact"
	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/testenv"
	"kompact/openai"
)

func modelsRequests(srv *fakellm.Server) []fakellm.Request {
	var out []fakellm.Request
	for _, r := range srv.Requests() {
		if r.Path == "/v1/models" {
			out = append(out, r)
		}
	}
	return out
}

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// A Moonshot-style list gives context_length per model; kompact asks for it
// once per provider, with the agent's key.
func TestKCPD01ContextSizeFromModelList(t *testing.T) {
	srv := fakellm.New(t)
	n := int64(262144)
	srv.SetModels(fakellm.Model{ID: "kimi-k2", ContextLength: &n}, fakellm.Model{ID: "plain"})
	m := &openai.Models{Getenv: envOf(map[string]string{"MOONSHOT_API_KEY": "sk-test-key"})}
	ctx := context.Background()
	q := openai.ContextQuery{BaseURL: srv.URL(), APIKeyEnv: "MOONSHOT_API_KEY", Model: "kimi-k2"}
	cases := []struct {
		model string
		want  openai.ContextSize
	}{
		{"kimi-k2", openai.ContextSize{Tokens: 262144, Source: openai.SourceProvider}},
		{"plain", openai.ContextSize{Source: openai.SourceUnknown}},
		{"absent", openai.ContextSize{Source: openai.SourceUnknown}},
		{"kimi-k2", openai.ContextSize{Tokens: 262144, Source: openai.SourceProvider}},
	}
	for _, c := range cases {
		q.Model = c.model
		got, err := m.ContextSize(ctx, q)
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.model, got, err, c.want)
		}
	}
	reqs := modelsRequests(srv)
	if len(reqs) != 1 {
		t.Fatalf("%d model-list requests, want 1 (cached)", len(reqs))
	}
	if reqs[0].Method != http.MethodGet || reqs[0].Header.Get("Authorization") != "Bearer sk-test-key" {
		t.Errorf("request: %s, Authorization %q", reqs[0].Method, reqs[0].Header.Get("Authorization"))
	}
	// A configured size wins over the list and needs no request.
	q.Configured, q.Model = 100000, "kimi-k2"
	if got, err := (&openai.Models{}).ContextSize(ctx, q); err != nil || got != (openai.ContextSize{Tokens: 100000, Source: openai.SourceConfig}) {
		t.Errorf("configured: %+v, %v", got, err)
	}
	if len(modelsRequests(srv)) != 1 {
		t.Error("a configured size must not ask the provider")
	}
}

// kimi-cli's KIMI_MODEL_MAX_CONTEXT_SIZE overrides the size of Kimi agents'
// models only, configured or listed.
func TestKCPD01KimiContextSizeEnv(t *testing.T) {
	srv := fakellm.New(t)
	n := int64(262144)
	srv.SetModels(fakellm.Model{ID: "kimi-k2", ContextLength: &n})
	ctx := context.Background()
	q := openai.ContextQuery{BaseURL: srv.URL(), Model: "kimi-k2", Configured: 200000, Kimi: true}
	env := map[string]string{openai.KimiContextSizeEnv: "131072"}
	m := &openai.Models{Getenv: envOf(env)}
	if got, err := m.ContextSize(ctx, q); err != nil || got != (openai.ContextSize{Tokens: 131072, Source: openai.SourceEnv}) {
		t.Errorf("Kimi agent: %+v, %v", got, err)
	}
	q.Kimi = false
	if got, err := m.ContextSize(ctx, q); err != nil || got != (openai.ContextSize{Tokens: 200000, Source: openai.SourceConfig}) {
		t.Errorf("other agent: %+v, %v", got, err)
	}
	q.Kimi, q.Configured = true, 0
	env[openai.KimiContextSizeEnv] = " 65536 "
	if got, err := m.ContextSize(ctx, q); err != nil || got.Tokens != 65536 {
		t.Errorf("spaces: %+v, %v", got, err)
	}
	env[openai.KimiContextSizeEnv] = "0"
	if got, err := m.ContextSize(ctx, q); err != nil || got != (openai.ContextSize{Source: openai.SourceUnknown}) {
		t.Errorf("0: %+v, %v", got, err)
	}
	env[openai.KimiContextSizeEnv] = "lots"
	if got, err := m.ContextSize(ctx, q); kompact.ErrorCodeOf(err) != kompact.EInvalid || got.Tokens != 0 {
		t.Errorf("not a number: %+v, %v", got, err)
	}
	if len(modelsRequests(srv)) != 0 {
		t.Error("the override must not ask the provider")
	}
	env[openai.KimiContextSizeEnv] = ""
	if got, err := m.ContextSize(ctx, q); err != nil || got.Source != openai.SourceProvider || got.Tokens != 262144 {
		t.Errorf("empty override: %+v, %v", got, err)
	}
}

// A provider that is slow or fails leaves the size unknown with an error
// that names neither the key nor a password; the failure is remembered for
// RetryAfter, then the list is asked for again.
func TestContextSizeLookupFailures(t *testing.T) {
	var mu sync.Mutex
	calls, status := 0, http.StatusNotFound
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		st := status
		mu.Unlock()
		if st == 0 {
			<-r.Context().Done() // hang until the client gives up
			return
		}
		w.WriteHeader(st)
		_, _ = w.Write([]byte(`{"error":{"message":"no"}}`))
	}))
	t.Cleanup(srv.Close)
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return calls
	}
	now := time.Unix(1700000000, 0)
	m := &openai.Models{
		Getenv:  envOf(map[string]string{"K": "sk-secret-value"}),
		Timeout: 50 * time.Millisecond,
		Now:     func() time.Time { return now },
	}
	base := strings.Replace(srv.URL, "http://", "http://user:hunter2@", 1) + "/v1"
	q := openai.ContextQuery{BaseURL: base, APIKeyEnv: "K", Model: "m"}
	got, err := m.ContextSize(context.Background(), q)
	if kompact.ErrorCodeOf(err) != kompact.ELLM || got != (openai.ContextSize{Source: openai.SourceUnknown}) || !strings.Contains(err.Error(), "HTTP 404") {
		t.Fatalf("404: %+v, %v", got, err)
	}
	if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "sk-secret") || len(kompact.ErrorFixes(err)) == 0 {
		t.Errorf("error leaks a secret or lacks a fix: %v", err)
	}
	if _, err := m.ContextSize(context.Background(), q); err == nil || count() != 1 {
		t.Fatalf("a failure must be remembered: %v, %d calls", err, count())
	}
	now = now.Add(openai.DefaultModelsRetryAfter)
	mu.Lock()
	status = 0
	mu.Unlock()
	if _, err := m.ContextSize(context.Background(), q); kompact.ErrorCodeOf(err) != kompact.ELLM || count() != 2 {
		t.Fatalf("timeout: %v, %d calls", err, count())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	now = now.Add(openai.DefaultModelsRetryAfter)
	if _, err := m.ContextSize(ctx, q); err == nil {
		t.Fatal("a cancelled caller must get an error")
	}
}

// A list that is not JSON, and context lengths that are not positive
// integers.
func TestContextSizeOddLists(t *testing.T) {
	body := ""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	body = `<html>`
	if _, err := (&openai.Models{}).ContextSize(context.Background(), openai.ContextQuery{BaseURL: srv.URL, Model: "m"}); kompact.ErrorCodeOf(err) != kompact.ELLM {
		t.Errorf("not JSON: %v", err)
	}
	body = `{"data":[{"id":"a","context_length":"8192"},{"id":"b","context_length":-1},{"id":"c","context_length":8192.5},{"id":"d","context_length":null},{"id":"e","context_length":32768}]}`
	m := &openai.Models{}
	for model, want := range map[string]int{"a": 0, "b": 0, "c": 0, "d": 0, "e": 32768} {
		got, err := m.ContextSize(context.Background(), openai.ContextQuery{BaseURL: srv.URL + "/", Model: model})
		if err != nil || got.Tokens != want {
			t.Errorf("%s: %+v, %v; want %d", model, got, err, want)
		}
	}
	if _, err := m.ContextSize(context.Background(), openai.ContextQuery{BaseURL: "ftp://x", Model: "m"}); kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Errorf("bad base URL: %v", err)
	}
}

// Ollama's /v1/models lists its models without a context length, so the
// size stays unknown, without an error, after one request.
func TestContextSizeOllama(t *testing.T) {
	endpoint, model := testenv.Ollama(t)
	proxy := testenv.Record(t, endpoint)
	base := proxy.URL
	m := &openai.Models{}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for range 2 {
		got, err := m.ContextSize(ctx, openai.ContextQuery{BaseURL: base, Model: model})
		if err != nil || got != (openai.ContextSize{Source: openai.SourceUnknown}) {
			t.Fatalf("Ollama: %+v, %v", got, err)
		}
	}
	if n := len(proxy.Bodies()); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
}

// TestAgentContextSizeOtherAPI (issue 32): an api: anthropic agent's
// window is its max_context_size; its provider's list is never asked.
func TestAgentContextSizeOtherAPI(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the model list was asked: %s", r.URL.Path)
	}))
	defer srv.Close()
	m := &openai.Models{}
	for _, size := range []int{0, 200000} {
		a := &kompact.Agent{LLM: kompact.LLMConfig{API: "anthropic", BaseURL: srv.URL, Model: "claude", MaxContextSize: size}}
		if n, err := m.AgentContextSize(context.Background(), a); n != size || err != nil {
			t.Errorf("size %d: got %d, %v", size, n, err)
		}
	}
}
