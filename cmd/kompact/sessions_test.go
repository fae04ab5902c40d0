package main

import (
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/testserver"
	"kompact/kimicli"
)

// sessionsServer starts an API server with a token for the sessions
// command.
func sessionsServer(t *testing.T) *httptest.Server {
	t.Helper()
	store := testserver.SQLite(t)
	srv := httpapi.New(httpapi.Config{Store: store, Agents: config.Default(), Token: "tok", KimiContext: kimicli.ImportContext})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts
}

func TestSessionsCommand(t *testing.T) {
	ts := sessionsServer(t)
	environ := map[string]string{"KOMPACT_URL": ts.URL, "KOMPACT_TOKEN": "tok"}
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	if err := os.WriteFile(path, []byte(compactSession), 0o644); err != nil {
		t.Fatal(err)
	}

	status, stdout, stderr := runCLI(t, "", environ, "sessions", "list")
	if status != exitOK || stdout != "" || !strings.Contains(stderr, "no sessions") {
		t.Errorf("empty list: %d %q %q", status, stdout, stderr)
	}
	// The session names agent "fake", which the server does not have.
	status, _, stderr = runCLI(t, "", environ, "sessions", "import", path)
	if status != exitError || !strings.Contains(stderr, `no agent "fake"`) || !strings.Contains(stderr, "fix:") {
		t.Errorf("import with an unknown agent: %d %s", status, stderr)
	}
	doc := strings.Replace(compactSession, `"agent":"fake"`, `"agent":"kimi"`, 1)
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr = runCLI(t, "", environ, "sessions", "import", path)
	if status != exitOK || stdout != "imported session s1 (agent kimi, 5 messages)\n" {
		t.Fatalf("import: %d %q %s", status, stdout, stderr)
	}
	status, _, stderr = runCLI(t, doc, map[string]string{"KOMPACT_TOKEN": "tok"}, "sessions", "import", "-", "--url", ts.URL)
	if status != exitError || !strings.Contains(stderr, "s1") || !strings.Contains(stderr, "fix: Pass --id NEW_ID") || strings.Count(stderr, "fix:") != 1 {
		t.Errorf("importing the same id twice: %d %s", status, stderr)
	}
	// --id and --agent replace the file's own (issue 19 §4).
	status, stdout, stderr = runCLI(t, compactSession, environ, "sessions", "import", "--id", "s2", "--agent", "kimi-thinking", "-")
	if status != exitOK || stdout != "imported session s2 (agent kimi-thinking, 5 messages)\n" {
		t.Fatalf("import --id --agent: %d %q %s", status, stdout, stderr)
	}
	status, _, stderr = runCLI(t, compactSession, environ, "sessions", "import", "--id", "s3", "-")
	if status != exitError || !strings.Contains(stderr, "fix: Pass --agent NAME") {
		t.Errorf("an unknown agent: %d %s", status, stderr)
	}
	status, _, stderr = runCLI(t, "", environ, "sessions", "list", "--id", "x")
	if status != exitUsage || !strings.Contains(stderr, "--id and --agent apply to sessions import only") {
		t.Errorf("list --id: %d %s", status, stderr)
	}
	status, stdout, stderr = runCLI(t, "", environ, "sessions", "list")
	if status != exitOK || !strings.HasPrefix(stdout, "ID ") || !strings.Contains(stdout, "s1  ") || !strings.Contains(stdout, "kimi") ||
		!strings.Contains(stdout, "TITLE") || !strings.Contains(stdout, "first question") {
		t.Errorf("list: %d %q %s", status, stdout, stderr)
	}
	if status, _, stderr = runCLI(t, "", environ, "sessions", "delete", "s2"); status != exitOK {
		t.Fatalf("delete s2: %d %s", status, stderr)
	}

	// Export to stdout and to a file: the session document, which decodes
	// to the imported session.
	status, stdout, stderr = runCLI(t, "", environ, "sessions", "export", "s1")
	if status != exitOK {
		t.Fatalf("export: %d %s", status, stderr)
	}
	got, err := kompact.DecodeSession([]byte(stdout))
	if err != nil {
		t.Fatalf("the export is not a session document: %v\n%s", err, stdout)
	}
	want, _ := kompact.DecodeSession([]byte(doc))
	if string(got.AppendJSON(nil)) != string(want.AppendJSON(nil)) {
		t.Errorf("export:\n%s\nwant:\n%s", got.AppendJSON(nil), want.AppendJSON(nil))
	}
	out := filepath.Join(dir, "out.json")
	status, _, stderr = runCLI(t, "", environ, "sessions", "export", "s1", "-o", out)
	if status != exitOK || mustRead(t, out) != stdout || !strings.Contains(stderr, "wrote session s1 (5 messages) to "+out) {
		t.Errorf("export -o: %d %s", status, stderr)
	}

	status, stdout, _ = runCLI(t, "", environ, "sessions", "delete", "s1")
	if status != exitOK || stdout != "deleted session s1\n" {
		t.Errorf("delete: %d %q", status, stdout)
	}
	status, _, stderr = runCLI(t, "", environ, "sessions", "export", "s1")
	if status != exitError || !strings.Contains(stderr, "kompact: ") || !strings.Contains(stderr, "s1") ||
		!strings.Contains(stderr, "fix: Check the session id: `kompact sessions list` shows the ones the server has.") || strings.Count(stderr, "fix:") != 1 {
		t.Errorf("export after delete: %d %s", status, stderr)
	}

	// Wrong token, no server, wrong usage.
	status, _, stderr = runCLI(t, "", map[string]string{"KOMPACT_URL": ts.URL}, "sessions", "list", "--token", "nope")
	if status != exitError || !strings.Contains(stderr, "bearer token") {
		t.Errorf("wrong token: %d %s", status, stderr)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + ln.Addr().String()
	ln.Close()
	status, _, stderr = runCLI(t, "", nil, "sessions", "list", "--url", dead)
	if status != exitError || !strings.Contains(stderr, "cannot reach the kompact server at "+dead) || !strings.Contains(stderr, "fix: Start it with `kompact serve`") {
		t.Errorf("no server: %d %s", status, stderr)
	}
	for _, args := range [][]string{{"sessions"}, {"sessions", "rename", "x"}, {"sessions", "export"}, {"sessions", "list", "extra"},
		{"sessions", "delete", "x", "-o", "f"}, {"sessions", "list", "--url", "ftp://x"}} {
		if status, _, stderr := runCLI(t, "", nil, args...); status != exitUsage {
			t.Errorf("%v: status %d %s", args, status, stderr)
		}
	}
}

// TestSessionsTokenErrors (issue 40 §3): against a server with a token,
// the fix names the command's --token and $KOMPACT_TOKEN, not an HTTP
// header, and a wrong token is told apart from a missing one.
func TestSessionsTokenErrors(t *testing.T) {
	ts := sessionsServer(t)
	status, _, missing := runCLI(t, "", map[string]string{"KOMPACT_URL": ts.URL}, "sessions", "list")
	if status != exitError || !strings.Contains(missing, "needs a bearer token") || !strings.Contains(missing, "fix: Pass the token the server was started with: --token TOKEN, or set $KOMPACT_TOKEN") ||
		strings.Contains(missing, "Authorization") {
		t.Errorf("no token: %d %s", status, missing)
	}
	status, _, wrong := runCLI(t, "", map[string]string{"KOMPACT_URL": ts.URL}, "sessions", "list", "--token", "not-the-token")
	if status != exitError || !strings.Contains(wrong, "the bearer token sent is not this server's") || !strings.Contains(wrong, "--token TOKEN") ||
		strings.Contains(wrong, "Authorization") || strings.Contains(wrong, "needs a bearer token") {
		t.Errorf("a wrong token: %d %s", status, wrong)
	}
}
