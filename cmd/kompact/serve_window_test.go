package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeWarnsUnknownWindow (issue 28 §4): an agent that compacts
// automatically without llm.max_context_size, whose provider's model list
// gives no context size (as Ollama's, vLLM's and OpenAI's do not), never
// compacts: serve says so once at start; an agent whose list gives the
// size, or whose configuration sets it, gets no warning.
func TestServeWarnsUnknownWindow(t *testing.T) {
	lists := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasPrefix(r.URL.Path, "/sized/") {
			io.WriteString(w, `{"object":"list","data":[{"id":"qwen3","object":"model","context_length":32768}]}`)
			return
		}
		io.WriteString(w, `{"object":"list","data":[{"id":"qwen3","object":"model"}]}`)
	}))
	t.Cleanup(lists.Close)
	dir := t.TempDir()
	path := filepath.Join(dir, "agents.yaml")
	writeConfigTestFile(t, path, `default_agent: local
agents:
  local:
    llm: {base_url: '`+lists.URL+`/plain/v1', model: qwen3}
    compaction: {enabled: true, type: kimi, auto: {enabled: true}}
  listed:
    llm: {base_url: '`+lists.URL+`/sized/v1', model: qwen3}
    compaction: {enabled: true, type: kimi, auto: {enabled: true}}
  configured:
    llm: {base_url: '`+lists.URL+`/plain/v1', model: qwen3, max_context_size: 32768}
    compaction: {enabled: true, type: kimi, auto: {enabled: true}}
`)
	srv := startServe(t, &serveCommand{}, map[string]string{"HOME": dir}, "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "k.db"), "--config", path)
	const want = `warning: agent "local": compaction.auto is on, but llm.max_context_size is not set and the provider's model list gave none`
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(srv.stderr.String(), want); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no warning for the agent whose context size is unknown:\n%s", srv.stderr.String())
		}
	}
	srv.stop(t)
	logs := srv.stderr.String()
	if n := strings.Count(logs, "llm.max_context_size is not set"); n != 1 {
		t.Errorf("%d warnings about unknown context sizes, want 1 (for local):\n%s", n, logs)
	}
}
