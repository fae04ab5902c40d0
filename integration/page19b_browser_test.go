package integration

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kompact/internal/testing/fakellm"
)

// The page keeps what the server keeps (issue 19, §3): open previews,
// runs in progress, small context windows and the imported file's agent.

// clockOf is a JavaScript expression: the local "HH:MM" of the ISO time
// iso in the browser, as a person reads it there.
func clockOf(iso string) string {
	return `(d => String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0"))(new Date("` + iso + `"))`
}

// openPreviews lists the open previews of session id over the API.
func (e *browserEnv) openPreviews(id string) []map[string]any {
	e.t.Helper()
	return e.apiList("/v1/sessions/"+id+"/previews", "previews")
}

// apiPreview makes a preview of session id over the API and returns its id.
func (e *browserEnv) apiPreview(id string) string {
	e.t.Helper()
	status, out := e.api("POST", "/v1/sessions/"+id+"/actions/compact_conversation", `{"preview": true}`)
	if status != http.StatusOK || out["status"] != "preview" {
		e.t.Fatalf("preview of %s: %d %v", id, status, out)
	}
	return out["preview_id"].(string)
}

// topInView is a JavaScript expression: whether the top of the element
// sel is on screen.
func topInView(sel string) string {
	return `(() => { const el = document.querySelector('` + sel + `'); if (!el) return false; const r = el.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.top < innerHeight - 40; })()`
}

// TestBrowserOpenPreviews: a preview stays reachable after a reload and
// after leaving its session: the list marks the sessions with one
// ("summary to review", from open_previews), and opening such a session
// shows its open previews (what each replaces, until when, a note when
// the session changed since) with a button that reopens it in the
// preview panel; applying it works as before and keeps the messages
// added since; one that is gone (404) is said to be gone (issue 19, §3).
func TestBrowserOpenPreviews(t *testing.T) {
	atWidth(t, browserOptions{}, func(e *browserEnv, shot func(string) string) {
		e.llm.SetDefault(fakellm.Answer(fakellm.Text("<current_focus>\nthe questions\n</current_focus>")))
		e.importSession(longSession(t, "rev", 3)) // sys u1 a1 u2 a2 u3 a3
		e.importSession(longSession(t, "stale", 3))
		e.importSession(longSession(t, "other", 2))
		// Two previews of "stale": one made before a message was appended.
		old := e.apiPreview("stale")
		if status, body := e.api("POST", "/v1/sessions/stale/messages", `{"message": {"role": "user", "content": "one more"}}`); status != http.StatusCreated {
			t.Fatalf("append: %d %v", status, body)
		}
		newer := e.apiPreview("stale")

		// A preview made on the page, then the page reloaded.
		e.open("/#/s/rev")
		e.waitFor("the plan", planReady)
		e.check(`[data-testid="preview-toggle"]`)
		e.click(`[data-testid="compact-conversation"]`)
		e.waitFor("the preview", `!document.querySelector('[data-testid="preview"]').hidden`)
		e.waitFor("no mark on the session on screen", `document.querySelector('[data-session-id="stale"] [data-testid="preview-waiting"]') && !document.querySelector('[data-session-id="rev"] [data-testid="preview-waiting"]')`)
		e.do("reload the page", chromedp.Reload())
		mark := func(id string) string { return `[data-session-id="` + id + `"] [data-testid="preview-waiting"]` }
		e.waitFor("the marks and the open preview", `document.querySelector('`+mark("rev")+`') && document.querySelector('`+mark("stale")+`') && document.querySelector('[data-testid="open-preview"]')`)
		if e.evalInt(`document.querySelectorAll('`+mark("other")+`').length`) != 0 {
			t.Errorf("a session without previews is marked")
		}
		list := e.openPreviews("rev")
		if len(list) != 1 || list[0]["first"] != 2.0 || list[0]["last"] != 5.0 || list[0]["compacted_messages"] != 4.0 || list[0]["stale"] != false {
			t.Fatalf("the server's open previews of rev: %v", list)
		}
		until := e.evalString(clockOf(list[0]["expires_at"].(string)))
		var shown struct {
			Text  []string `json:"text"`
			Stale int      `json:"stale"`
			Mark  string   `json:"mark"`
		}
		state := `JSON.stringify({text: [...document.querySelectorAll('[data-testid="open-preview-text"]')].map(p => p.textContent),
			stale: document.querySelectorAll('[data-testid="open-preview-stale"]').length,
			mark: document.querySelector('` + mark("rev") + `').textContent})`
		e.eval(state, &shown)
		if want := "A summary to review replaces #2–#5 (4 messages), until " + until + "."; len(shown.Text) != 1 || shown.Text[0] != want || shown.Stale != 0 || shown.Mark != "summary to review" {
			t.Errorf("after the reload: %+v, want %q", shown, want)
		}
		e.waitFor("the open previews on screen", topInView(`[data-testid="open-previews"]`))
		e.viewportShot(shot("browser-open-previews"))

		// Leave and come back: still there; it reopens in the preview panel.
		e.do("leave", chromedp.Evaluate[chromedp.Void](`location.hash = "#/s/other"`))
		e.waitFor("the other session", `(document.querySelector('[data-testid="session-id"]') || {}).textContent === "other" && document.querySelector('[data-testid="open-previews"]').hidden`)
		e.do("come back", chromedp.Evaluate[chromedp.Void](`location.hash = "#/s/rev"`))
		e.waitFor("the open preview again", `(document.querySelector('[data-testid="session-id"]') || {}).textContent === "rev" && document.querySelector('[data-testid="open-preview"]')`)
		e.click(`[data-testid="open-preview-reopen"]`)
		e.waitFor("the preview", `!document.querySelector('[data-testid="preview"]').hidden && document.querySelector('[data-testid="open-previews"]').hidden`)
		var pv struct {
			ID       string `json:"id"`
			Replaces string `json:"replaces"`
			Info     string `json:"info"`
		}
		e.eval(`JSON.stringify({id: document.querySelector('[data-testid="preview"]').dataset.previewId,
			replaces: document.querySelector('[data-testid="preview-replaces"]').textContent,
			info: document.querySelector('#preview-info').textContent})`, &pv)
		if pv.ID != list[0]["preview_id"] || pv.Replaces != "It replaces #2–#5 (4 messages). Kept: #1 before it, #6–#7 after it." || !strings.HasSuffix(pv.Info, "The preview can be applied once, until "+until+".") {
			t.Errorf("the reopened preview: %+v", pv)
		}
		e.click(`[data-testid="preview-apply"]`)
		e.waitFor("applied", `document.querySelector('[data-testid="outcome"]').dataset.status === "compacted" && document.querySelector('[data-testid="message"][data-kind="summary"]') && !document.querySelector('`+mark("rev")+`')`)
		if n := len(e.storedMessages("rev")); n != 4 {
			t.Errorf("after the apply rev has %d messages, want 4", n)
		}

		// A session changed since its previews: the older one says so; one
		// discarded elsewhere is said to be gone when reopened.
		e.do("open stale", chromedp.Evaluate[chromedp.Void](`location.hash = "#/s/stale"`))
		e.waitFor("its two previews", `document.querySelectorAll('[data-testid="open-preview"]').length === 2`)
		var items []struct {
			ID    string `json:"id"`
			Stale string `json:"stale"`
			Note  string `json:"note"`
		}
		e.eval(`JSON.stringify([...document.querySelectorAll('[data-testid="open-preview"]')].map(li => ({id: li.dataset.previewId, stale: li.dataset.stale,
			note: (li.querySelector('[data-testid="open-preview-stale"]') || {}).textContent || ""})))`, &items)
		if len(items) != 2 || items[0].ID != newer || items[0].Stale != "false" || items[0].Note != "" ||
			items[1].ID != old || items[1].Stale != "true" || !strings.Contains(items[1].Note, "applying it keeps the messages added since") {
			t.Errorf("the previews of stale: %+v", items)
		}
		if status, _ := e.api("DELETE", "/v1/sessions/stale/previews/"+newer, ""); status != http.StatusNoContent {
			t.Fatalf("DELETE the newer preview: %d", status)
		}
		e.click(`[data-preview-id="` + newer + `"] [data-testid="open-preview-reopen"]`)
		e.waitFor("gone", `document.querySelector('[data-testid="open-preview-gone"]') && document.querySelectorAll('[data-testid="open-preview"]').length === 1`)
		if gone := e.evalString(`document.querySelector('[data-testid="open-preview-gone"]').textContent`); !strings.HasPrefix(gone, "This summary is no longer kept") {
			t.Errorf("the gone note: %q", gone)
		}
		if !e.evalBool(`document.querySelector('[data-testid="preview"]').hidden`) {
			t.Errorf("a gone preview opened")
		}
		e.do("the list in view", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="open-previews"]').scrollIntoView({block: "start"})`))
		e.viewportShot(shot("browser-open-previews-stale"))

		// The stale one applies and keeps the message appended since.
		e.click(`[data-preview-id="` + old + `"] [data-testid="open-preview-reopen"]`)
		e.waitFor("the preview", `!document.querySelector('[data-testid="preview"]').hidden`)
		e.click(`[data-testid="preview-apply"]`)
		e.waitFor("applied", `document.querySelector('[data-testid="outcome"]').dataset.status === "compacted" && !document.querySelector('`+mark("stale")+`') && document.querySelector('[data-testid="open-previews"]').hidden`)
		msgs := e.storedMessages("stale")
		if last := msgs[len(msgs)-1]["content"].([]any)[0].(map[string]any)["text"]; len(msgs) != 5 || last != "one more" {
			t.Errorf("after applying the stale preview: %d messages, the last %v", len(msgs), last)
		}
		if n := len(e.openPreviews("stale")); n != 0 {
			t.Errorf("%d previews of stale left", n)
		}
	})
}

func (e *browserEnv) evalBool(expr string) bool {
	e.t.Helper()
	b, err := chromedp.Run(e.ctx, chromedp.Evaluate[bool](expr))
	if err != nil {
		e.fail("evaluate "+expr, err)
	}
	return b
}

// TestBrowserSessionsRunning: the list marks a session the server runs an
// action on (here started by another client), and the session view says
// so; the page asks again every few seconds while one is marked, shows
// the session's new state when the run ends, and then stops asking
// (issue 19, §3).
func TestBrowserSessionsRunning(t *testing.T) {
	atWidth(t, browserOptions{}, func(e *browserEnv, shot func(string) string) {
		slow := fakellm.Answer(fakellm.Text("<current_focus>\nthe questions\n</current_focus>")).WithDelay(6 * time.Second)
		e.llm.Enqueue(slow)
		e.importSession(longSession(t, "busy", 3))
		e.importSession(longSession(t, "idle", 2))
		done := make(chan error, 1)
		go func() {
			req, err := http.NewRequest("POST", e.srv.URL+"/v1/sessions/busy/actions/compact_conversation", strings.NewReader(`{}`))
			if err == nil {
				req.Header.Set("Content-Type", "application/json")
				var resp *http.Response
				if resp, err = e.srv.Client().Do(req); err == nil {
					resp.Body.Close()
				}
			}
			done <- err
		}()
		deadline := time.Now().Add(10 * time.Second)
		for !e.listed("busy")["running"].(bool) {
			if time.Now().After(deadline) {
				t.Fatalf("the server never marked busy as running")
			}
			time.Sleep(50 * time.Millisecond)
		}

		e.open("/#/s/busy")
		running := func(id string) string { return `[data-session-id="` + id + `"] [data-testid="session-running"]` }
		e.waitFor("the running mark", `document.querySelector('`+running("busy")+`') && document.querySelectorAll('[data-testid="message"]').length === 7`)
		if note := e.evalString(`(document.querySelector('[data-testid="running-elsewhere"]') || {}).textContent || ""`); !strings.HasPrefix(note, "A compaction of this session is running on the server, started elsewhere") {
			t.Errorf("the session view says %q while another client compacts it", note)
		}
		if e.evalInt(`document.querySelectorAll('`+running("idle")+`').length`) != 0 {
			t.Errorf("idle is marked as running")
		}
		if strings.HasSuffix(shot(""), "-400.png") {
			e.click(`[data-testid="sessions-toggle"]`)
			e.waitFor("the list on screen", inViewport(running("busy")))
		}
		e.viewportShot(shot("browser-session-running"))
		if strings.HasSuffix(shot(""), "-400.png") {
			e.click(`[data-testid="sessions-close"]`)
		}

		// The run ends: without a click, the mark goes and the summary shows.
		e.waitFor("the end of the run", `!document.querySelector('`+running("busy")+`') && document.querySelector('[data-testid="message"][data-kind="summary"]') && !document.querySelector('[data-testid="running-elsewhere"]')`)
		if err := <-done; err != nil {
			t.Fatalf("the other client's run: %v", err)
		}
		lists := `performance.getEntriesByType("resource").filter(r => new URL(r.name).pathname === "/v1/sessions").length`
		before := e.evalInt(lists)
		time.Sleep(6 * time.Second)
		if after := e.evalInt(lists); after != before {
			t.Errorf("the page asked for the list %d more times with no run in progress", after-before)
		}
	})
}

// listed is session id's entry in GET /v1/sessions.
func (e *browserEnv) listed(id string) map[string]any {
	e.t.Helper()
	_, body := e.api("GET", "/v1/sessions", "")
	for _, s := range body["sessions"].([]any) {
		if m := s.(map[string]any); m["id"] == id {
			return m
		}
	}
	e.t.Fatalf("session %s is not listed: %v", id, body)
	return nil
}

// TestBrowserSmallWindowGauge: for a model whose window (30,000) is no
// larger than reserved_context_size (kimi-cli's default 50,000),
// compaction is always due: the gauge says so once, with the server's
// suggested value, and does not show "compaction due", right after a
// compaction either (issue 19, §3).
func TestBrowserSmallWindowGauge(t *testing.T) {
	atWidth(t, browserOptions{}, func(e *browserEnv, shot func(string) string) {
		e.llm.SetDefault(fakellm.Answer(fakellm.Text("<current_focus>\nthe questions\n</current_focus>")))
		e.importSession(strings.Replace(longSession(t, "tiny", 3), `"agent":"tester"`, `"agent":"tiny"`, 1))
		_, c := e.api("GET", "/v1/sessions/tiny/context", "")
		if c["reserved_exceeds_window"] != true || c["suggested_reserved_context_size"] != 4500.0 || c["should_compact"] != true {
			t.Fatalf("the context of tiny: %v", c)
		}
		const note = "This model's window (30,000 tokens) is no larger than reserved_context_size (50,000), so compaction is always due; " +
			"set compaction.auto.reserved_context_size to 4500 in the agent's configuration."
		var g struct {
			Note    string `json:"note"`
			Notes   int    `json:"notes"`
			Always  string `json:"always"`
			Due     bool   `json:"due"`
			Text    string `json:"text"`
			ListDue bool   `json:"listDue"`
		}
		state := `JSON.stringify({note: (document.querySelector('[data-testid="context-gauge-note"]') || {}).textContent || "",
			notes: document.body.innerText.split("compaction is always due").length - 1,
			always: document.querySelector('#session-context [data-testid="context-gauge"]').dataset.alwaysDue || "",
			due: document.body.innerText.includes("compaction due"),
			text: document.querySelector('[data-testid="context-gauge-text"]').textContent,
			listDue: !!document.querySelector('.session-gauge .gauge.is-due')})`
		check := func(when string) {
			e.eval(state, &g)
			if g.Note != note || g.Notes != 1 || g.Always != "true" || g.Due || g.ListDue || !strings.HasPrefix(g.Text, "0% of 30,000") {
				t.Errorf("%s: %+v", when, g)
			}
		}
		e.open("/#/s/tiny")
		e.waitFor("the note", `document.querySelector('[data-testid="context-gauge-note"]')`)
		check("before a compaction")

		e.waitFor("the plan", planReady)
		e.click(`[data-testid="compact-conversation"]`)
		e.waitFor("compacted", `document.querySelector('[data-testid="outcome"]').dataset.status === "compacted" && document.querySelector('[data-testid="message"][data-kind="summary"]')`)
		e.waitFor("the new gauge", `document.querySelectorAll('[data-testid="message"]').length === 4 && document.querySelector('[data-testid="context-gauge-note"]')`)
		check("right after a compaction")
		e.do("scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
		e.viewportShot(shot("browser-small-window"))
	})
}

// TestBrowserImportOwnAgent: the import dialog starts from the file's own
// agent and id when the server knows the agent; a file whose agent it
// does not know is not re-assigned to the default one: the dialog says so
// and asks for a choice; a kimi-cli file, which names none, starts from
// the default agent (issue 19, §3).
func TestBrowserImportOwnAgent(t *testing.T) {
	atWidth(t, browserOptions{}, func(e *browserEnv, shot func(string) string) {
		dir := t.TempDir()
		write := func(name, text string) string {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}
		own := write("own.json", strings.Replace(longSession(t, "own-id", 2), `"agent":"tester"`, `"agent":"auto"`, 1))
		ghost := write("ghost.json", strings.Replace(longSession(t, "ghost-id", 2), `"agent":"tester"`, `"agent":"ghost"`, 1))
		kimi := write("context.jsonl", kimiContext19)
		e.open("/")
		e.waitFor("the agents", `document.querySelectorAll('#new-session-agent option').length > 1`)
		var d struct {
			Format string `json:"format"`
			Agent  string `json:"agent"`
			ID     string `json:"id"`
			Source string `json:"source"`
			Note   string `json:"note"`
		}
		dialog := func(file string) {
			e.do("pick "+file, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="import-input"]`), []string{file}))
			e.waitFor("the import dialog", `document.querySelector('[data-testid="import-agent-note"]')`)
			e.eval(`JSON.stringify({format: document.querySelector('[data-testid="import-format"]').dataset.format,
				agent: document.querySelector('[data-testid="import-agent"]').value,
				id: document.querySelector('[data-testid="import-id"]').value,
				source: document.querySelector('[data-testid="import-agent-note"]').dataset.source,
				note: document.querySelector('[data-testid="import-agent-note"]').textContent})`, &d)
			e.do("the dialog in view", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="import-confirm"]').scrollIntoView({block: "center"})`))
		}
		imported := func(id string) string {
			return `(document.querySelector('[data-testid="session-id"]') || {}).textContent === "` + id + `"`
		}

		// The file's agent, known to the server (not the default one).
		dialog(own)
		if d.Format != "session" || d.Agent != "auto" || d.ID != "own-id" || d.Source != "file" || d.Note != "The file's own agent, “auto”." {
			t.Errorf("the dialog of own.json: %+v", d)
		}
		e.viewportShot(shot("browser-import-own-agent"))
		e.click(`[data-testid="import-confirm-ok"]`)
		e.waitFor("the imported session", imported("own-id"))
		if _, s := e.api("GET", "/v1/sessions/own-id", ""); s["agent"] != "auto" {
			t.Errorf("own.json imported for agent %v", s["agent"])
		}

		// An agent the server does not know: no silent default.
		dialog(ghost)
		if d.Agent != "" || d.ID != "ghost-id" || d.Source != "unknown" || !strings.Contains(d.Note, "The file's agent “ghost” is not configured on this server") {
			t.Errorf("the dialog of ghost.json: %+v", d)
		}
		e.click(`[data-testid="import-confirm-ok"]`)
		e.waitFor("the request to choose", `document.querySelector('[data-testid="import-problem"]').textContent === "Choose the agent first."`)
		if status, _ := e.api("GET", "/v1/sessions/ghost-id", ""); status != http.StatusNotFound {
			t.Errorf("ghost.json was imported without a chosen agent: %d", status)
		}
		e.viewportShot(shot("browser-import-unknown-agent"))
		e.do("choose an agent", chromedp.SetValue(chromedp.CSS(`[data-testid="import-agent"]`), "nokey"))
		e.click(`[data-testid="import-confirm-ok"]`)
		e.waitFor("the imported session", imported("ghost-id"))
		if _, s := e.api("GET", "/v1/sessions/ghost-id", ""); s["agent"] != "nokey" {
			t.Errorf("ghost.json imported for agent %v", s["agent"])
		}

		// A kimi-cli file names neither: the default agent, a new id.
		dialog(kimi)
		if d.Format != "kimi" || d.Agent != "tester" || d.ID != "" || d.Source != "default" {
			t.Errorf("the dialog of context.jsonl: %+v", d)
		}
		e.do("cancel", chromedp.Click(chromedp.CSS(`[data-testid="import-confirm-cancel"]`), chromedp.NodeVisible))
	})
}
