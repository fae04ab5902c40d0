package integration

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"kompact"
)

// TestBrowserStandingInstructions: the session's Standing instructions…
// (issue 33 §2) shows the session's instructions, Save sends them with
// PATCH …/settings and Clear sends "": the header marks them (the text as
// its tooltip), the compact panel says they are added to every
// compaction, and a text over kompact.MaxInstructionsLen shows the
// server's error with its fix, writing nothing.
func TestBrowserStandingInstructions(t *testing.T) {
	const text = "Keep every file path and the failing test names."
	mark := `document.querySelector('[data-testid="instructions-mark"]')`
	note := `document.querySelector('[data-testid="standing-note"]')`
	atWidth(t, browserOptions{}, func(e *browserEnv, shot func(string) string) {
		e.importSession(longSession(t, "focus", 3))
		e.open("/#/s/focus")
		e.waitFor("the session", `document.querySelectorAll('[data-testid="message"]').length === 7`)
		if e.evalString(mark+`.textContent`) != "" || e.evalString(note+`.textContent`) != "" {
			t.Errorf("a session without instructions shows a mark %q or a note %q", e.evalString(mark+`.textContent`), e.evalString(note+`.textContent`))
		}

		e.click(`[data-testid="standing-session"]`)
		e.waitFor("the form", `!document.querySelector('[data-testid="standing-form"]').hidden`)
		if v := e.evalString(`document.querySelector('[data-testid="standing-input"]').value`); v != "" {
			t.Errorf("the form starts with %q for a session without instructions", v)
		}
		e.do("type them", chromedp.SetValue(chromedp.CSS(`[data-testid="standing-input"]`), text))
		e.click(`[data-testid="standing-save"]`)
		e.waitFor("the mark", mark+`.textContent === "instructions set" && document.querySelector('[data-testid="standing-form"]').hidden`)
		if got := e.listed("focus")["instructions"]; got != text {
			t.Errorf("stored instructions %q, want %q", got, text)
		}
		_, stored := e.api("GET", "/v1/sessions/focus", "")
		e.waitFor("the new version", `document.querySelector('#session-meta').textContent.includes("version `+fmt.Sprint(stored["version"])+`")`)
		if stored["version"] != float64(2) {
			t.Errorf("version after setting the instructions: %v", stored["version"])
		}
		if tip := e.evalString(mark + `.title`); tip != text {
			t.Errorf("the mark's tooltip %q", tip)
		}
		if n := e.evalString(note + `.textContent`); !strings.Contains(n, "standing instructions are added too") || !strings.Contains(n, text) {
			t.Errorf("the compact panel's note %q", n)
		}
		e.viewportShot(shot("browser-standing-set"))

		// Open again: the form shows them; a text too long is refused.
		e.click(`[data-testid="standing-session"]`)
		e.waitFor("the form again", `document.querySelector('[data-testid="standing-input"]').value === `+strconv.Quote(text))
		long := strings.Repeat("é", kompact.MaxInstructionsLen+1)
		e.do("type too much", chromedp.SetValue(chromedp.CSS(`[data-testid="standing-input"]`), long))
		e.click(`[data-testid="standing-save"]`)
		e.waitFor("the error", `document.querySelector('[data-testid="standing-error"]')`)
		if code := e.evalString(`document.querySelector('[data-testid="standing-error"]').dataset.code`); code != "invalid_request" {
			t.Errorf("error code %q", code)
		}
		if fixes := e.evalInt(`document.querySelectorAll('[data-testid="standing-error"] .fixes li').length`); fixes == 0 {
			t.Errorf("the error shows no fix")
		}
		if got := e.listed("focus")["instructions"]; got != text {
			t.Errorf("after a refused save the instructions are %q", got)
		}
		e.viewportShot(shot("browser-standing-error"))

		e.click(`[data-testid="standing-clear"]`)
		e.waitFor("no mark", mark+`.textContent === "" && document.querySelector('[data-testid="standing-form"]').hidden && `+note+`.textContent === ""`)
		if got, ok := e.listed("focus")["instructions"]; ok {
			t.Errorf("after Clear the session still has instructions %q", got)
		}
	})
}
