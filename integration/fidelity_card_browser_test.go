package integration

import (
	"strings"
	"testing"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakellm"
)

// TestBrowserFidelityCardWithoutAppendix: the summary card's report of an
// agent without the appendix (the default) reads as text, never "null"
// (issue 28 §2: "Kept 3 of 10 artifacts (30%) · 7 lost · 1 not sentnull"),
// on a report with artifacts not sent and on one with none (it read
// "nullnull"): the DOM's append writes a null child as "null".
func TestBrowserFidelityCardWithoutAppendix(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	e.llm.SetFunc(func(req fakellm.Request) fakellm.Reply {
		return fakellm.Answer(fakellm.Text(fidelitySummary))
	})
	for _, c := range []struct{ id, doc string }{
		{"fidnone", strings.Replace(fidelitySession(t, "fidnone"), `"faithful"`, `"tester"`, 1)},
		{"fidsent", apitest.JSONText(t, map[string]any{"id": "fidsent", "agent": "tester", "messages": []any{
			map[string]any{"role": "system", "content": "You are a coding agent."},
			map[string]any{"role": "user", "content": "Fix internal/parse/lexer.go."},
			map[string]any{"role": "assistant", "content": "Done: TestLexNumbers passes."},
			map[string]any{"role": "user", "content": "Thanks."},
			map[string]any{"role": "assistant", "content": "On it."},
		}})},
	} {
		if !strings.Contains(c.doc, `"tester"`) {
			t.Fatal("the session is not the tester agent's")
		}
		e.importSession(c.doc)
		e.open("/#/s/" + c.id)
		e.waitFor("the plan", planReady)
		e.click(`[data-testid="compact-conversation"]`)
		// The summary is longer than the messages (tokens_not_reduced): a
		// preview to confirm, with its own report.
		e.waitFor("the preview", `!document.querySelector('[data-testid="preview"]').hidden && document.querySelector('#preview-fidelity [data-testid="fidelity"]')`)
		if text := e.evalString(`document.querySelector('#preview-fidelity [data-testid="fidelity"]').textContent`); strings.Contains(text, "null") {
			t.Errorf("%s: the preview's report reads %q", c.id, text)
		}
		e.click(`[data-testid="preview-apply"]`)
		card := `[data-testid="message"][data-kind="summary"]`
		e.waitFor("the summary card's report", `document.querySelector('[data-testid="outcome"]').dataset.status === "compacted" && document.querySelector('`+card+` [data-testid="fidelity"]')`)
		e.click(card + ` [data-testid="fidelity"] > summary`)
		e.screenshot("browser-fidelity-card-" + c.id + ".png")
		got := e.readFidelity(card)
		text := e.evalString(`document.querySelector('` + card + ` [data-testid="fidelity"]').textContent`)
		if strings.Contains(text, "null") || strings.Contains(text, "undefined") || strings.Contains(text, "NaN") {
			t.Errorf("%s: the report reads %q", c.id, text)
		}
		if got.Appendix != "" || !strings.HasPrefix(got.Counts, "Kept ") {
			t.Errorf("%s: %+v", c.id, got)
		}
	}
}
