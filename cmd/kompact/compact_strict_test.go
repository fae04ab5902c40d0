package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"kompact/internal/testing/fakellm"
)

// TestCompactStrictWarnings: a result with warnings is written with the
// warnings printed, as kimi-cli keeps it; with --strict nothing is written
// and the status is 4, and --json shows the unapplied result as a preview
// carrying its warnings.
func TestCompactStrictWarnings(t *testing.T) {
	srv, cfg, path := compactFixture(t, "")
	srv.SetDefault(fakellm.Answer(fakellm.Text(strings.Repeat("chatter without sections ", 20))))
	environ := map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}

	status, stdout, stderr := runCompact(t, environ, "--config", cfg, "--strict", path)
	if status != exitWarnings || !strings.Contains(stderr, "warning: the summary has none of the 6 required sections") ||
		!strings.Contains(stderr, "(tokens_not_reduced)") || !strings.Contains(stderr, "nothing was written") || stdout != "" {
		t.Fatalf("--strict: status %d\nstdout %s\nstderr %s", status, stdout, stderr)
	}
	if data, _ := os.ReadFile(path); string(data) != compactSession {
		t.Fatal("--strict wrote the session")
	}
	if _, err := os.Stat(path + ".bak"); err == nil {
		t.Fatal("--strict made a backup")
	}

	status, stdout, _ = runCompact(t, environ, "--config", cfg, "--strict", "--json", path)
	var out struct {
		Status   string                  `json:"status"`
		Warnings []struct{ Code string } `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || status != exitWarnings || out.Status != "preview" || len(out.Warnings) != 2 ||
		out.Warnings[0].Code != "all_sections_missing" {
		t.Fatalf("--strict --json: status %d, %v\n%s", status, err, stdout)
	}
	if data, _ := os.ReadFile(path); string(data) != compactSession {
		t.Fatal("--strict --json wrote the session")
	}

	// Without --strict: written, warnings in the report and in --json.
	status, stdout, _ = runCompact(t, environ, "--config", cfg, "-o", path+".out", path)
	if status != exitOK || !strings.Contains(stdout, "warning: the compacted session is not smaller") {
		t.Fatalf("status %d\n%s", status, stdout)
	}
	status, stdout, _ = runCompact(t, environ, "--config", cfg, "--json", "-o", path+".out", path)
	if json.Unmarshal([]byte(stdout), &out); status != exitOK || out.Status != "compacted" || len(out.Warnings) != 2 {
		t.Fatalf("--json: status %d\n%s", status, stdout)
	}
}

// TestCompactSummaryOnlyIsNothingToDo: re-compacting a session that is only
// a summary (and its preserved tail) is a no-op, status 3, with no LLM call.
func TestCompactSummaryOnlyIsNothingToDo(t *testing.T) {
	srv, cfg, path := compactFixture(t, "")
	doc := `{"messages":[{"id":"sys","role":"system","content":"s"},` +
		`{"id":"sum","role":"user","content":"<system>Previous context has been compacted. Here is the compaction output:</system>\nold"},` +
		`{"role":"user","content":"q"},{"role":"assistant","content":"a"}]}`
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	status, _, stderr := runCompact(t, map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}, "--config", cfg, path)
	if status != exitNoop || !strings.Contains(stderr, `message "sum" is an earlier summary`) || len(srv.Requests()) != 0 {
		t.Fatalf("status %d, %d requests\n%s", status, len(srv.Requests()), stderr)
	}
}
