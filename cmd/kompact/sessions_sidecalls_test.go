package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestSessionsListSideCalls (issue 39 §2): sessions list asks the server
// for the list without the gateway's side calls; --side-calls asks for
// them too (side_calls=true) and marks them; the flag is list's only.
func TestSessionsListSideCalls(t *testing.T) {
	var queries []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries = append(queries, r.URL.RawQuery)
		w.Header().Set("Content-Type", "application/json")
		side := ""
		if r.URL.Query().Get("side_calls") == "true" {
			side = `,{"id":"gw_side","agent":"oc","title":"name the flaky test fix","messages":3,"version":1,"created_at":"2026-12-06T10:00:00Z","updated_at":"2026-12-06T10:00:00Z","gateway":true,"side_call":true}`
		}
		fmt.Fprint(w, `{"sessions":[{"id":"ses_a","agent":"oc","title":"fix the flaky test","messages":2,"version":1,"created_at":"2026-12-06T10:00:00Z","updated_at":"2026-12-06T10:00:00Z","gateway":true}`+side+`]}`)
	}))
	t.Cleanup(ts.Close)
	environ := map[string]string{"KOMPACT_URL": ts.URL}
	status, stdout, stderr := runCLI(t, "", environ, "sessions", "list")
	if status != exitOK || !strings.Contains(stdout, "ses_a") || strings.Contains(stdout, "gw_side") || strings.Contains(stdout, "side call") {
		t.Errorf("list: %d %q %s", status, stdout, stderr)
	}
	status, stdout, stderr = runCLI(t, "", environ, "sessions", "list", "--side-calls")
	if status != exitOK || !strings.Contains(stdout, "ses_a") || !strings.Contains(stdout, "(side call) name the flaky test fix") {
		t.Errorf("list --side-calls: %d %q %s", status, stdout, stderr)
	}
	if strings.Join(queries, "|") != "|side_calls=true" {
		t.Errorf("the queries sent: %q, want none, then side_calls=true", queries)
	}
	status, _, stderr = runCLI(t, "", environ, "sessions", "delete", "--side-calls", "ses_a")
	if status != exitUsage || !strings.Contains(stderr, "--side-calls applies to sessions list only") {
		t.Errorf("delete --side-calls: %d %s", status, stderr)
	}
}
