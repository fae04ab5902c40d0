package main

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"kompact/internal/testing/fakellm"
)

// TestKCPD01CompactAuto: --auto compacts only when kimi-cli's trigger says so,
// with the agent's thresholds and context size; otherwise it exits 3 with
// the figures (on stderr, or as JSON). --json includes the figures.
func TestKCPD01CompactAuto(t *testing.T) {
	environ := map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}

	// Not due: 17 tokens of 100000.
	srv, cfg, path := compactFixture(t, "      auto: {trigger_ratio: 0.5, reserved_context_size: 1000}\n")
	withContextSize(t, cfg, 100000)
	status, _, stderr := runCompact(t, environ, "--config", cfg, "--auto", path)
	if status != exitNoop || !strings.Contains(stderr, "not compacted: 17 of 100000 tokens (0.0%), compaction is not due (below_threshold)") {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	status, stdout, _ := runCompact(t, environ, "--config", cfg, "--auto", "--json", path)
	var out struct {
		Status  string         `json:"status"`
		Context map[string]any `json:"context"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || status != exitNoop || out.Status != "not_due" ||
		out.Context["pending_tokens"] != 17.0 || out.Context["max_context_size"] != 100000.0 || out.Context["should_compact"] != false {
		t.Fatalf("status %d, JSON %s (%v)", status, stdout, err)
	}
	if data, _ := os.ReadFile(path); string(data) != compactSession || len(srv.Requests()) != 0 {
		t.Fatalf("a session that is not due was touched: %d requests", len(srv.Requests()))
	}

	// Due by the reserve: 17 + 99990 ≥ 100000. The request carries the
	// configured max_tokens, which the budget does not lower here.
	srv, cfg, path = compactFixture(t, "      settings_overrides: {max_tokens: 500}\n      auto: {reserved_context_size: 99990}\n")
	withContextSize(t, cfg, 100000)
	srv.SetDefault(fakellm.Answer(fakellm.Text("S")))
	status, stdout, stderr = runCompact(t, environ, "--config", cfg, "--auto", "--json", "-o", path+".out", path)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || out.Status != "compacted" || out.Context["reason"] != "reserved_context_size" || out.Context["should_compact"] != true {
		t.Fatalf("JSON %s (%v)", stdout, err)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].JSON["max_tokens"] != 500.0 {
		t.Fatalf("requests %d: %v", len(reqs), reqs)
	}

	// Unknown context size: the provider lists no context_length; never due.
	srv, cfg, path = compactFixture(t, "      auto: {enabled: true}\n")
	status, _, stderr = runCompact(t, environ, "--config", cfg, "--auto", path)
	if status != exitNoop || !strings.Contains(stderr, "context size is unknown") {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Path != "/v1/models" {
		t.Fatalf("requests %v, want one model-list lookup", reqs)
	}
}

// withContextSize adds llm.max_context_size to the fixture's configuration.
func withContextSize(t *testing.T, cfg string, n int) {
	t.Helper()
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(data), "      api_key_env: FAKE_KEY\n", "      api_key_env: FAKE_KEY\n      max_context_size: "+strconv.Itoa(n)+"\n", 1)
	if err := os.WriteFile(cfg, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
