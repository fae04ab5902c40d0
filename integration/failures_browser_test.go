package integration

import (
	"strings"
	"testing"
	"time"

	"kompact/internal/testing/fakellm"
)

// TestBrowserAutoFailuresListed (issue 39 §5): the History panel lists the
// automatic compactions whose summary the quality gate refused, newest
// first, with what was refused and why (the missing sections named), and
// as text only: an acknowledgement that looks like markup stays text.
func TestBrowserAutoFailuresListed(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	e.llm.SetDefault(fakellm.Answer(fakellm.Text("<current_focus>\nthe questions\n</current_focus>\n<environment>-</environment>")))
	e.importSession(strings.Replace(longSession(t, "big", 100), `"agent":"tester"`, `"agent":"auto"`, 1))
	refuse := func(n int) {
		t.Helper()
		if status, body := e.api("POST", "/v1/sessions/big/messages?auto_compact=true", `{"message": {"role": "user", "content": "next"}}`); status != 201 {
			t.Fatalf("append: %d %v", status, body)
		}
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			if len(e.apiList("/v1/sessions/big/revisions", "failures")) == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("no failure %d: %v", n, e.apiList("/v1/sessions/big/revisions", "failures"))
			}
		}
	}
	refuse(1)
	e.llm.SetDefault(fakellm.Answer(fakellm.Text("<b>OK</b>")))
	refuse(2)

	e.open("/#/s/big")
	e.waitFor("the two failures", `document.querySelectorAll('[data-testid="failure-item"]').length === 2 && !document.querySelector('[data-testid="failures"]').hidden`)
	var got []struct {
		Status, Reason, Badge, Why, Message string
	}
	e.eval(`JSON.stringify([...document.querySelectorAll('[data-testid="failure-item"]')].map(li => ({
		Status: li.dataset.status, Reason: li.dataset.reason,
		Badge: li.querySelector('[data-testid="failure-status"]').textContent,
		Why: (li.querySelector('[data-testid="failure-reason"]') || {}).textContent || "",
		Message: li.querySelector('[data-testid="failure-message"]').textContent})))`, &got)
	if len(got) != 2 || got[0].Reason != "acknowledgement" || got[1].Reason != "missing_sections" || got[0].Badge != "summary refused" {
		t.Fatalf("failures on the page: %+v", got)
	}
	if got[1].Why != "The summary lacked 4 required sections: completed_tasks, active_issues, code_state, important_context." {
		t.Errorf("why: %q", got[1].Why)
	}
	if !strings.Contains(got[0].Message, `acknowledgement ("<b>OK</b>")`) || !strings.Contains(got[1].Message, "not committed") {
		t.Errorf("messages: %+v", got)
	}
	if e.evalBool(`!!document.querySelector('[data-testid="failure-list"] b')`) {
		t.Error("the failure's message became markup")
	}
	if n := e.evalString(`String(document.querySelectorAll('[data-testid="revision-item"]').length)`); n != "0" {
		t.Errorf("%s revisions listed, want none", n)
	}
	e.screenshot("browser-auto-failures.png")
	e.checkNoJSErrors()
}
