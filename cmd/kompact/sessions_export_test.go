package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSessionsExportDotIDs: `sessions export .` and `..` fail with the
// session id rule instead of exporting whatever the cleaned path names
// (the session list), and -o is not written.
func TestSessionsExportDotIDs(t *testing.T) {
	ts := sessionsServer(t)
	environ := map[string]string{"KOMPACT_URL": ts.URL, "KOMPACT_TOKEN": "tok"}
	out := filepath.Join(t.TempDir(), "out.json")
	for _, id := range []string{".", ".."} {
		status, stdout, stderr := runCLI(t, "", environ, "sessions", "export", id, "-o", out)
		if status != exitError || stdout != "" || !strings.Contains(stderr, "is reserved") || !strings.Contains(stderr, "not \".\" or \"..\"") {
			t.Errorf("export %s: status %d, stdout %q, stderr %q", id, status, stdout, stderr)
		}
		if _, err := os.Lstat(out); err == nil {
			t.Errorf("export %s wrote %s", id, out)
		}
	}
}

// TestSessionsExportRedirected: a server that redirects the session's
// path elsewhere is an error; nothing is exported.
func TestSessionsExportRedirected(t *testing.T) {
	real := sessionsServer(t)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, real.URL+"/v1/sessions", http.StatusMovedPermanently)
	}))
	defer ts.Close()
	status, stdout, stderr := runCLI(t, "", map[string]string{"KOMPACT_URL": ts.URL, "KOMPACT_TOKEN": "tok"}, "sessions", "export", "s1")
	if status != exitError || stdout != "" || !strings.Contains(stderr, "does not follow redirects") || !strings.Contains(stderr, "fix: ") {
		t.Errorf("status %d, stdout %q, stderr %q", status, stdout, stderr)
	}
}

// TestSessionsExportKeepsTheServerForm checks the raw JSON the server sends
// is what export reads.
func TestSessionsExportKeepsTheServerForm(t *testing.T) {
	ts := sessionsServer(t)
	req, _ := http.NewRequest("POST", ts.URL+"/v1/sessions", strings.NewReader(`{"compaction_model":"m","messages":[{"role":"user","content":"hi"}]}`))
	req.Header.Set("Authorization", "Bearer tok")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var created map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	id, _ := created["id"].(string)
	status, stdout, stderr := runCLI(t, "", map[string]string{"KOMPACT_URL": ts.URL, "KOMPACT_TOKEN": "tok"}, "sessions", "export", id)
	if status != exitOK || !strings.Contains(stdout, `"compaction_model":"m"`) || strings.Contains(stdout, "version") {
		t.Errorf("export: %d %s %s", status, stdout, stderr)
	}
}
