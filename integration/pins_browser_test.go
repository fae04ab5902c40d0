package integration

import (
	"strings"
	"testing"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakellm"
)

// TestBrowserPinnedMessages (issue 33 §1): each message's menu has Pin
// (Unpin once pinned); pinning a tool result sends PATCH …/settings
// {"pinned": ["t2"]}, marks it "pinned" and the rest of its exchange (a1
// with the calls, t1) "pinned with its tool exchange"; the plan says the
// pinned messages stay, and so does the preview; applied, the compaction
// keeps them verbatim right after the summary, still marked, the outcome
// card and the fidelity report say so; Unpin clears the list.
func TestBrowserPinnedMessages(t *testing.T) {
	marks := `JSON.stringify([...document.querySelectorAll('[data-testid="message"]')].filter(m => m.querySelector('[data-testid="pin-mark"]')).map(m => m.dataset.id + ":" + m.querySelector('[data-testid="pin-mark"]').textContent))`
	atWidth(t, browserOptions{}, func(e *browserEnv, shot func(string) string) {
		e.llm.SetDefault(fakellm.Answer(fakellm.Text("<current_focus>\nthe failing tests\n</current_focus>")))
		e.importSession(toolSession(t, "pins")) // sys sum u1 a1(c1,c2) t1 t2 a2(c3) t3 a3 u3 a4(c5) t5 a5
		e.open("/#/s/pins")
		e.waitFor("the messages", `document.querySelectorAll('[data-testid="message-menu"]').length === 13`)
		if got := e.evalString(marks); got != "[]" {
			t.Errorf("marks before any pin: %s", got)
		}
		e.menuItem("t2", "pin-toggle")
		e.waitFor("the marks", `document.querySelectorAll('[data-testid="pin-mark"]').length === 3`)
		want := `["a1:pinned with its tool exchange","t1:pinned with its tool exchange","t2:pinned"]`
		if got := e.evalString(marks); got != want {
			t.Errorf("marks %s, want %s", got, want)
		}
		if got := e.listed("pins")["pinned"]; apitest.JSONText(t, got) != `["t2"]` {
			t.Errorf("stored pins %v", got)
		}
		e.waitFor("the plan", `document.querySelector('[data-testid="will-compact"]').textContent.includes("(6 messages, ~51 tokens; 3 pinned stay verbatim after the summary), keep #11–#13")`)
		e.viewportShot(shot("browser-pinned"))

		e.check(`[data-testid="preview-toggle"]`)
		e.click(`[data-testid="compact-conversation"]`)
		e.waitFor("the preview", `(document.querySelector('[data-testid="preview-pinned"]') || {}).textContent === "3 pinned messages of them stay verbatim right after the summary."`)
		e.click(`[data-testid="preview-apply"]`)
		e.waitFor("the compaction", `document.querySelector('[data-testid="message"][data-kind="summary"] [data-testid="summary-covers"]') && document.querySelectorAll('[data-testid="message"]').length === 8`)
		var ids []string
		for _, m := range e.storedMessages("pins") {
			ids = append(ids, m["id"].(string))
		}
		if got := strings.Join(ids[2:5], ","); got != "a1,t1,t2" || ids[0] != "sys" {
			t.Errorf("compacted session %v: the pinned exchange is not right after the summary", ids)
		}
		e.waitFor("the marks after it", `document.querySelectorAll('[data-testid="pin-mark"]').length === 3`)
		if card := e.evalString(`document.querySelector('[data-testid="outcome"]').textContent`); !strings.Contains(card, "6 messages replaced by one summary; 3 pinned and 3 kept after it.") {
			t.Errorf("outcome card %q", card)
		}
		e.waitFor("the report's pinned line", `(document.querySelector('[data-testid="fidelity-pinned"]') || {}).textContent?.includes("hold 2 artifacts")`)
		e.screenshot(shot("browser-pinned-compacted"))

		e.click(`[data-testid="message"][data-id="t2"] [data-testid="message-menu"]`)
		if label := e.evalString(`document.querySelector('[data-id="t2"] [data-testid="pin-toggle"]').textContent`); label != "Unpin #5" {
			t.Errorf("the pinned message's menu offers %q", label)
		}
		e.click(`[data-testid="message"][data-id="t2"] [data-testid="pin-toggle"]`)
		e.waitFor("no marks", `document.querySelectorAll('[data-testid="pin-mark"]').length === 0`)
		if got, ok := e.listed("pins")["pinned"]; ok {
			t.Errorf("after Unpin the session still pins %v", got)
		}
	})
}
