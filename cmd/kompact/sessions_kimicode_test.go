package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/kcvectors"
	"kompact/internal/testing/testenv"
	"kompact/kimicode"
)

// resumeKimiCode runs real Kimi Code's `kimi -p prompt -r id` in work with home as
// KIMI_CODE_HOME and returns the body of the first request it sends to srv.
func resumeKimiCode(t *testing.T, srv *fakellm.Server, home, work, id, prompt string) map[string]any {
	t.Helper()
	kimi := os.Getenv("KIMI_CODE_BIN")
	n := len(srv.Requests())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, kimi, "-p", prompt, "-r", id)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "KIMI_CODE_HOME="+home, "HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kimi -r %s: %v: %s", id, err, out)
	}
	reqs := srv.Requests()
	if len(reqs) <= n {
		t.Fatalf("Kimi Code sent no request resuming %s", id)
	}
	var body map[string]any
	if err := json.Unmarshal(reqs[n].Body, &body); err != nil {
		t.Fatal(err)
	}
	return body
}

// TestSessionsExportKimiCode (issue 31 §2): a Kimi Code session imported into the server
// (sessions import --kimi-code) and exported back (sessions export --kimi-code) is one real
// Kimi Code 2.1.0 resumes (kimi -p PROMPT -r SESSION_ID) as it resumes the original: the
// request it sends next holds the same messages, value for value (and the same model; the
// tools are Kimi Code's agent's, the session does not record the original's selection). An
// export does not overwrite a folder that is there. shell_manual (issue 39 §3): shell results
// keep the wall time Kimi Code renders, neither lost nor doubled.
func TestSessionsExportKimiCode(t *testing.T) {
	testenv.Require(t, os.Getenv("KIMI_CODE_BIN") != "", "KIMI_CODE_BIN is not set", "install Kimi Code 2.1.0 (bash .ci/kimi-code.sh) and set KIMI_CODE_BIN to its kimi launcher")
	raw := kcvectors.Texts(t)
	for _, tc := range []struct{ name, dir string }{{"manual_tools_instruction", "compaction_1"}, {"todos_two_manual", "compaction_2"}, {"shell_manual", "compaction_1"}} {
		t.Run(tc.name, func(t *testing.T) {
			ts := sessionsServer(t)
			c := caseNamed(t, tc.name)
			srv, m, environ := kimiCodeFixture(t, c, tc.dir, raw)
			environ["KOMPACT_URL"], environ["KOMPACT_TOKEN"] = ts.URL, "tok"
			if status, _, stderr := runCLI(t, "", environ, "sessions", "import", "--kimi-code", "--agent", "kimi", m.SessionDir); status != exitOK {
				t.Fatalf("import: %s", stderr)
			}
			// The export goes into another home, beside a config.toml like the original's.
			home := filepath.Join(t.TempDir(), "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(mustRead(t, filepath.Join(m.Home, "config.toml"))), 0o644); err != nil {
				t.Fatal(err)
			}
			environ["KIMI_CODE_HOME"] = home
			status, stdout, stderr := runCLI(t, "", environ, "sessions", "export", "--kimi-code", "--cwd", m.Work, m.SessionID)
			dir := filepath.Join(home, "sessions", kimicode.WorkspaceID(m.Work), m.SessionID)
			if status != exitOK || !strings.Contains(stdout, "kimi -r "+m.SessionID) {
				t.Fatalf("export: %d %q %s", status, stdout, stderr)
			}
			wire := mustRead(t, filepath.Join(dir, "agents", "main", "wire.jsonl"))
			if status, _, _ := runCLI(t, "", environ, "sessions", "export", "--kimi-code", "--cwd", m.Work, m.SessionID); status != exitError ||
				mustRead(t, filepath.Join(dir, "agents", "main", "wire.jsonl")) != wire {
				t.Fatalf("a second export: status %d, want an error and the folder unchanged", status)
			}
			want := resumeKimiCode(t, srv, m.Home, m.Work, m.SessionID, "What next?")
			got := resumeKimiCode(t, srv, home, m.Work, m.SessionID, "What next?")
			// Kimi Code restates the date after the new prompt (the export does not hold
			// Kimi Code's record that the date was disclosed): the one message more, a copy
			// of the history's date reminder. Everything else is the same.
			gm, _ := got["messages"].([]any)
			wm, _ := want["messages"].([]any)
			if len(gm) != len(wm)+1 {
				t.Fatalf("Kimi Code resumed the export with %d messages, the original with %d", len(gm), len(wm))
			}
			extra, _ := json.Marshal(gm[len(wm)-1])
			gm = append(gm[:len(wm)-1:len(wm)-1], gm[len(wm):]...)
			if earlier, _ := json.Marshal(gm); !bytes.Contains(earlier, extra[:len(extra)-1]) {
				t.Errorf("the message more is not one of the history's: %s", extra)
			}
			for _, k := range []string{"messages", "model"} {
				g, _ := json.Marshal(got[k])
				if k == "messages" {
					g, _ = json.Marshal(gm)
				}
				w, _ := json.Marshal(want[k])
				if !bytes.Equal(g, w) {
					t.Errorf("%s: Kimi Code resumed the export otherwise than the original:\n got %.2000s\nwant %.2000s", k, tail(g), tail(w))
				}
			}
		})
	}
}
