package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kompact"
	"kompact/internal/testing/fakellm"
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

// TestBrowserSessionListOlderAnswer: an answer to an older request for the
// session list, arriving after a newer one, does not overwrite the list.
func TestBrowserSessionListOlderAnswer(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	e.importSession(longSession(t, "a", 1))
	e.open("/")
	items := `document.querySelectorAll('[data-testid="session-item"]').length`
	e.waitFor("the list", items+` === 1`)
	// The next list request's answer is held until window.release().
	e.evalString(`(() => {
		const real = window.fetch;
		let held = false;
		window.fetch = (url, opts) => {
			const p = real(url, opts);
			if (held || !String(url).startsWith("v1/sessions") || String(url).startsWith("v1/sessions/")) return p;
			held = true;
			p.then(() => { window.answered = true; });
			return new Promise((ok) => { window.release = () => { p.then(ok); setTimeout(() => { window.released = true; }, 300); }; });
		};
		return "";
	})()`)
	e.click(`#refresh-sessions`) // the older request: one session
	e.waitFor("the held request's answer", `typeof window.release === "function" && window.answered === true`)
	e.importSession(longSession(t, "b", 1))
	e.click(`#refresh-sessions`) // the newer: two
	e.waitFor("the newer list", items+` === 2`)
	e.evalString(`(window.release(), "")`)
	e.waitFor("the older answer", `window.released === true`)
	if n := e.evalInt(items); n != 2 {
		t.Errorf("the older answer overwrote the list: %d sessions listed", n)
	}
	e.checkNoJSErrors()
}

// TestBrowserNarrowImportClosesSessions: at 400 px, importing a file from
// the Sessions overlay closes it and shows the imported session.
func TestBrowserNarrowImportClosesSessions(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	e.do("narrow window", chromedp.EmulateViewport(400, 800))
	e.open("/")
	e.click(`[data-testid="sessions-toggle"]`)
	e.waitFor("the list open", `document.body.classList.contains("sessions-open")`)
	file := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(file, []byte(longSession(t, "imported", 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	e.do("pick the file", chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="import-input"]`), []string{file}))
	e.waitFor("the import form", `!!document.querySelector('[data-testid="import-confirm-ok"]')`)
	e.click(`[data-testid="import-confirm-ok"]`)
	e.waitFor("the imported session", `(document.querySelector('[data-testid="session-id"]') || {}).textContent === "imported"`)
	e.waitFor("the list closed", `!document.body.classList.contains("sessions-open")`)
	e.viewportShot("browser-narrow-import.png")
	e.checkNoJSErrors()
}

// TestBrowserCancelTooLate: a Cancel that reaches the server after it
// committed the compaction does not say nothing was changed: the page
// checks, reloads the session, and says it was committed.
func TestBrowserCancelTooLate(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	e.llm.SetDefault(fakellm.Answer(fakellm.Text("<current_focus>\nthe work\n</current_focus>")))
	e.importSession(longSession(t, "late", 4))
	e.open("/#/s/late")
	e.waitFor("the session", `document.querySelectorAll('[data-testid="message"]').length === 9`)
	// The action's answer reaches the server's end (the commit is made)
	// but never the page, which then cancels.
	e.evalString(`(() => {
		const real = window.fetch;
		window.fetch = (url, opts) => {
			if (!String(url).includes("/actions/")) return real(url, opts);
			const p = real(url, { ...opts, signal: undefined });
			p.then((r) => r.text()).then(() => { window.committed = true; });
			return new Promise((_, fail) => opts.signal.addEventListener("abort", () => fail(new DOMException("aborted", "AbortError"))));
		};
		return "";
	})()`)
	e.click(`[data-testid="compact-conversation"]`)
	e.waitFor("the commit", `window.committed === true`)
	e.click(`#cancel-action`)
	e.waitFor("the check", `!!document.querySelector('[data-testid="cancel-result"]')`)
	if changed := e.evalString(`document.querySelector('[data-testid="cancel-result"]').dataset.changed`); changed != "true" {
		t.Errorf("the cancel card says the session is unchanged: %q", e.evalString(`document.querySelector('[data-testid="outcome"]').innerText`))
	}
	if p := e.evalString(`document.querySelector('[data-testid="progress"]') ? document.querySelector('[data-testid="progress"]').innerText : ""`); strings.Contains(p, "Nothing was changed") {
		t.Errorf("progress says %q", p)
	}
	e.screenshot("browser-cancel-too-late.png")
	e.checkNoJSErrors()
}

// TestBrowserProgressBarCoversNoMessage: at 1280 px, while a compaction
// runs, a message the page scrolls to the top (an anchor, a jump) lands
// below the sticky progress bar, not under it.
func TestBrowserProgressBarCoversNoMessage(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	e.do("wide window", chromedp.EmulateViewport(1280, 800))
	e.llm.SetDefault(fakellm.Answer(fakellm.Text("<current_focus>\nthe work\n</current_focus>")).WithDelay(10 * time.Second))
	e.importSession(longSession(t, "wide", 30))
	e.open("/#/s/wide")
	e.waitFor("the session", `document.querySelectorAll('[data-testid="message"]').length === 61`)
	e.click(`[data-testid="compact-conversation"]`)
	e.waitFor("the run", `document.querySelector('#activity').classList.contains('is-busy')`)
	var got struct{ Bar, Message float64 }
	e.eval(`JSON.stringify((() => {
		const m = document.querySelectorAll('[data-testid="message"]')[30];
		m.scrollIntoView({block: "start"});
		return {bar: document.querySelector('#activity').getBoundingClientRect().bottom, message: m.getBoundingClientRect().top};
	})())`, &got)
	if got.Message < got.Bar {
		t.Errorf("the progress bar (bottom at %.0f px) covers the message scrolled to the top (at %.0f px)", got.Bar, got.Message)
	}
	e.viewportShot("browser-progress-sticky.png")
	e.click(`#cancel-action`)
}
