package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/fakellm"
)

// TestRequestPin (issue 33 §1): request --pin m4 pins the tool result and
// so its whole exchange (m3, which calls it): the transcript leaves both
// out and the plan line says they stay right after the summary. A pin that
// names no message is refused with a fix.
func TestRequestPin(t *testing.T) {
	path := filepath.Join("..", "..", "examples", "session.json")
	env := map[string]string{"HOME": t.TempDir()}
	_, plain, _ := runCLI(t, "", env, "request", path)
	status, stdout, stderr := runCLI(t, "", env, "request", "--pin", "m4", path)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	data, _ := os.ReadFile(path)
	s, err := kompact.DecodeSession(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{2, 3} { // m3's and m4's texts
		var text string
		s.Messages[i].Texts(func(t string) { text += t })
		if !strings.Contains(plain, jsonText(text)) || strings.Contains(stdout, jsonText(text)) {
			t.Errorf("message %s: in the plain request %v, in the pinned one %v", s.Messages[i].ID, strings.Contains(plain, jsonText(text)), strings.Contains(stdout, jsonText(text)))
		}
	}
	if !strings.Contains(stderr, "compacts 2 messages (#2-#5 of 7) into one summary") || !strings.Contains(stderr, "; 1 kept before it, 2 pinned right after it, 2 after it") {
		t.Errorf("plan line: %s", stderr)
	}
	status, _, stderr = runCLI(t, "", env, "request", "--pin", "m99", path)
	if status != exitError || !strings.Contains(stderr, "--pin m99") || !strings.Contains(stderr, "#N") {
		t.Errorf("an unknown pin: status %d, %s", status, stderr)
	}
}

// jsonText is s as a JSON string's inside (how the request body holds it).
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// TestCompactPin: compact --pin keeps the pinned message after the summary
// in the written file, which keeps its own "pinned" (none) and not the
// run's.
func TestCompactPin(t *testing.T) {
	srv, cfg, path := compactFixture(t, "")
	srv.Enqueue(fakellm.Answer(fakellm.Text("<current_focus>\nQ2\n</current_focus>")))
	environ := map[string]string{"FAKE_KEY": "sk-test-123", "HOME": t.TempDir()}
	status, stdout, stderr := runCompact(t, environ, "--config", cfg, "--pin", "u1", path)
	if status != exitOK {
		t.Fatalf("status %d\n%s", status, stderr)
	}
	if !strings.Contains(stdout, "; 1 kept before it, 1 pinned right after it, 2 after it") {
		t.Errorf("report: %s", stdout)
	}
	data, _ := os.ReadFile(path)
	s, err := kompact.DecodeSession(data)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range s.Messages {
		ids = append(ids, m.ID)
	}
	if strings.Join(ids, ",") != "sys,,u1,u2,a2" || s.Pinned != nil || strings.Contains(string(data), `"pinned"`) {
		t.Errorf("written: %s", data)
	}
	if req := srv.Requests(); len(req) != 1 || strings.Contains(req[0].Text(), "first question") {
		t.Errorf("the request shows the pinned message")
	}
}
