package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact"
	"kompact/kimicode"
)

// TestRequestKimiCodeTypeNamesItsTexts: for an agent of compaction.type kimi-code,
// request's prompt line names Kimi Code's texts (the installation's, checked by
// SHA-256, or kompact's own wording and how to get Kimi Code's), never kimi-cli's
// compact.md, which that type does not use.
func TestRequestKimiCodeTypeNamesItsTexts(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "agents.yaml")
	doc := "agents:\n  kc:\n    llm: {base_url: http://127.0.0.1:9/v1, model: m, max_context_size: 8192}\n    compaction: {enabled: true, type: kimi-code}\n"
	if err := os.WriteFile(cfg, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	session := `{"messages":[{"id":"s","role":"system","content":"sys"},{"id":"u1","role":"user","content":"one"},{"id":"a1","role":"assistant","content":"two"},{"id":"u2","role":"user","content":"three"}]}`
	status, _, stderr := runCLI(t, session, map[string]string{"HOME": t.TempDir()}, "request", "--config", cfg, "--agent", "kc", "-")
	if status != exitOK {
		t.Fatalf("status %d, stderr:\n%s", status, stderr)
	}
	texts, warning := kimicode.CurrentTexts()
	want := "prompt: kompact's own wording of Kimi Code's compaction texts, not Kimi Code's; install Kimi Code 2.1.0"
	if warning == "" {
		want = "prompt: Kimi Code 2.1.0's compaction texts (" + texts.Source + "), checked by SHA-256\n"
	}
	if !strings.HasPrefix(stderr, want) || strings.Contains(stderr, "kimi-cli") {
		t.Errorf("stderr:\n%s\nwant it to start with %q and not to name kimi-cli", stderr, want)
	}
}

// TestKimiCodeDescribePrompt: the two lines of kimicode.DescribePrompt.
func TestKimiCodeDescribePrompt(t *testing.T) {
	got := kimicode.DescribePrompt(kompact.Prompt{Source: kompact.PromptFile, Origin: "/x/dist/main.mjs"})
	if got != "prompt: Kimi Code 2.1.0's compaction texts (/x/dist/main.mjs), checked by SHA-256" {
		t.Errorf("installed: %q", got)
	}
	got = kimicode.DescribePrompt(kompact.Prompt{Source: kompact.PromptBuiltin})
	if !strings.Contains(got, "not Kimi Code's") || !strings.Contains(got, "KIMI_CODE_PATH") {
		t.Errorf("built in: %q", got)
	}
}
