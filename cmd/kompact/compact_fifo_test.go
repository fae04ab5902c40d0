//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCompactRefusesAFIFO: kompact compact on a named pipe refuses it at
// once instead of waiting for a writer (issue 21, item 8); so does
// sessions import.
func TestCompactRefusesAFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "session.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	for _, args := range [][]string{{"compact", fifo}, {"sessions", "import", fifo, "--url", "http://127.0.0.1:1"}} {
		done := make(chan struct{})
		var status int
		var stderr string
		go func() {
			defer close(done)
			status, _, stderr = runCLI(t, "", nil, args...)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%v: still waiting on the FIFO", args)
		}
		if status == exitOK || !strings.Contains(stderr, "named pipe") {
			t.Errorf("%v: status %d\n%s", args, status, stderr)
		}
	}
}
