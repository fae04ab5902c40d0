package httpapi_test

import (
	"strings"
	"testing"

	"kompact"
	"kompact/internal/fakellm"
)

// TestBrowserPausedNote: when automatic compaction of a session is paused
// (its breaker open after failures in a row), the page says why and that
// a manual compaction resumes it.
func TestBrowserPausedNote(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	e.importSession(strings.Replace(longSession(t, "big", 100), `"agent":"tester"`, `"agent":"auto"`, 1))
	e.llm.SetDefault(fakellm.Fail(400, "the compaction model is broken"))
	for range kompact.AutoCompactionFailureLimit {
		e.api("POST", "/v1/sessions/big/continue", `{"content": "next"}`)
	}
	e.open("/#/s/big")
	e.waitFor("the paused note", `!!document.querySelector('[data-testid="context-paused-note"]')`)
	note := e.evalString(`document.querySelector('[data-testid="context-paused-note"]').textContent`)
	if !strings.Contains(note, "paused: it failed 3 times in a row") || !strings.Contains(note, "A manual compaction that succeeds resumes it") {
		t.Errorf("paused note %q", note)
	}
	e.screenshot("browser-paused-note.png")
	e.checkNoJSErrors()
}
