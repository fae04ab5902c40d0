package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestServeRefusesWeakTokens: serve does not start with a token shorter
// than 16 characters or with white space around it (from --token or
// $KOMPACT_TOKEN), says how to make one, and never echoes the token
// (issue 9, item 2).
func TestServeRefusesWeakTokens(t *testing.T) {
	for _, tc := range []struct{ flag, env, want string }{
		{"short-secret", "", "at least 16"},
		{"", "tiny", "at least 16"},
		{"0123456789abcdef\n", "", "white space"},
		{"", " 0123456789abcdef", "white space"},
	} {
		args := []string{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "k.db")}
		if tc.flag != "" {
			args = append(args, "--token", tc.flag)
		}
		status, _, stderr := runCLI(t, "", map[string]string{"HOME": t.TempDir(), "KOMPACT_TOKEN": tc.env}, args...)
		if status != exitUsage || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "openssl rand -hex 32") {
			t.Errorf("token %q/%q: status %d\n%s", tc.flag, tc.env, status, stderr)
		}
		if secret := strings.TrimSpace(tc.flag + tc.env); strings.Contains(stderr, secret) {
			t.Errorf("the error echoes the token %q:\n%s", secret, stderr)
		}
	}
}

// TestServeGuardFlags: --max-actions, --max-request-messages and
// --max-session-messages must be at least 1 and --allowed-host must be a
// host name.
func TestServeGuardFlags(t *testing.T) {
	checkServeRejects(t, [][]string{
		{"--max-actions", "0"},
		{"--max-request-messages", "0"},
		{"--max-session-messages", "-1"},
		{"--allowed-host", "http://x.example/"},
		{"--allowed-host", "x.example:99999"},
	})
}
