package integration

import (
	"encoding/json"
	"kompact/internal/testing/apitest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserPruneToolOutput (issue 33 §3): the session's "Prune tool
// output…" form runs prune_tool_results with the numbers typed: the page
// says what it cleared, shows the markers in place of the outputs and a
// prune revision in the history; its Undo puts the outputs back exactly.
func TestBrowserPruneToolOutput(t *testing.T) {
	doc, err := json.Marshal(apitest.ToolExchanges("tools", "tester", 3000, 3000, 3000))
	if err != nil {
		t.Fatal(err)
	}
	atWidth(t, browserOptions{}, func(e *browserEnv, shot func(string) string) {
		e.importSession(string(doc))
		_, orig := e.api("GET", "/v1/sessions/tools", "")
		e.open("/#/s/tools")
		e.waitFor("the button", `!document.querySelector('[data-testid="prune-session"]').hidden`)
		e.click(`[data-testid="prune-session"]`)
		e.waitFor("the form", `!document.querySelector('[data-testid="prune-form"]').hidden`)
		e.do("the numbers", chromedp.SetValue(chromedp.CSS(`[data-testid="prune-keep"]`), "1"),
			chromedp.SetValue(chromedp.CSS(`[data-testid="prune-min"]`), "1000"))
		e.click(`[data-testid="prune-run"]`)
		e.waitFor("the report", `document.querySelector('[data-testid="prune-done"]')`)
		if got := e.evalString(`document.querySelector('[data-testid="prune-done"]').textContent`); !strings.Contains(got, "Cleared 2 tool results") ||
			!strings.Contains(got, "The markers keep 4 of the 4 artifacts") {
			t.Errorf("report %q", got)
		}
		e.waitFor("the markers shown", `[...document.querySelectorAll('[data-testid="message"]')].filter(m => m.textContent.includes("[tool output cleared by kompact: bash, 3,000 chars")).length === 2`)
		e.waitFor("the prune in the history", `document.querySelector('[data-testid="revision-item"][data-kind="prune"]')`)
		e.viewportShot(shot("browser-prune-done"))

		e.click(`[data-testid="prune-undo"]`)
		e.waitFor("undone", `document.querySelector('[data-testid="prune-undone"]')`)
		_, back := e.api("GET", "/v1/sessions/tools", "")
		if apitest.JSONText(t, back["messages"]) != apitest.JSONText(t, orig["messages"]) {
			t.Errorf("the undo did not put the outputs back")
		}
		e.waitFor("the outputs shown", `![...document.querySelectorAll('[data-testid="message"]')].some(m => m.textContent.includes("[tool output cleared by kompact:"))`)
	})
}
