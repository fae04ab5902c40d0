package integration

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakellm"
)

const planReady = `document.querySelector('[data-testid="will-compact"]').textContent.startsWith("Will compact")`

// TestBrowserWarningPreview: a result with warnings (a summary longer than
// what it replaces) is not written: it shows as a preview to confirm,
// with the warnings on top in plain words; Discard drops the preview on
// the server too (issue 13, item 1).
func TestBrowserWarningPreview(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	long := strings.Repeat("The user asked about many parts of the code base. ", 30)
	e.llm.SetDefault(fakellm.Answer(fakellm.Text("<current_focus>\n" + long + "\n</current_focus>")))
	e.importSession(longSession(t, "warn", 3))
	e.open("/#/s/warn")
	e.waitFor("the plan", planReady)
	e.click(`[data-testid="compact-conversation"]`)
	e.waitFor("the warnings", `document.querySelector('[data-testid="warnings"]') && !document.querySelector('[data-testid="preview"]').hidden`)

	var got struct {
		Codes     []string `json:"codes"`
		Text      string   `json:"text"`
		Status    string   `json:"status"`
		WarnAbove bool     `json:"warnAbove"`
		PreviewID string   `json:"previewId"`
		Progress  string   `json:"progress"`
	}
	e.eval(`JSON.stringify({
		codes: [...document.querySelectorAll('[data-testid="warning"]')].map(w => w.dataset.code),
		text: document.querySelector('[data-testid="warnings"]').innerText,
		status: document.querySelector('[data-testid="outcome"]').dataset.status,
		warnAbove: document.querySelector('[data-testid="warnings"]').getBoundingClientRect().bottom <= document.querySelector('[data-testid="preview-apply"]').getBoundingClientRect().top,
		previewId: document.querySelector('[data-testid="preview"]').dataset.previewId,
		progress: document.querySelector('[data-testid="progress"]').textContent,
	})`, &got)
	if strings.Join(got.Codes, ",") != "tokens_not_reduced" || got.Status != "preview" || !got.WarnAbove || got.PreviewID == "" {
		t.Errorf("warning preview: %+v", got)
	}
	if !strings.Contains(got.Text, "Check this result before it replaces the history") || !strings.Contains(got.Text, "not smaller") {
		t.Errorf("the warning is not in plain words: %q", got.Text)
	}
	if !strings.Contains(got.Progress, "with warnings to confirm") {
		t.Errorf("progress line %q", got.Progress)
	}
	if n := len(e.storedMessages("warn")); n != 7 {
		t.Errorf("a result with warnings was written: %d messages", n)
	}
	e.screenshot("browser-warning-confirm.png")

	e.click(`[data-testid="preview-discard"]`)
	e.waitFor("the discard", `document.querySelector('[data-testid="outcome"]').dataset.status === "discarded" && document.querySelector('[data-testid="preview"]').hidden`)
	// Discard called DELETE: the preview cannot be applied any more.
	if status, body := e.api("POST", "/v1/sessions/warn/previews/"+got.PreviewID+"/apply", "{}"); status != 404 {
		t.Errorf("apply after Discard: %d %v, want 404", status, body)
	}
	if n := len(e.storedMessages("warn")); n != 7 {
		t.Errorf("after Discard the store has %d messages", n)
	}

	// A result with warnings that arrives while another session is open
	// waits for its session: the list marks it, and opening it shows it.
	e.importSession(longSession(t, "elsewhere", 2))
	slow := fakellm.Answer(fakellm.Text("<current_focus>\n"), fakellm.Text(long+"\n</current_focus>"))
	slow.ChunkDelay = 2 * time.Second
	e.llm.Enqueue(slow)
	e.waitFor("the plan", planReady)
	e.click(`[data-testid="compact-conversation"]`)
	e.waitFor("the run", `!document.querySelector('#cancel-action').hidden`)
	e.click(`#refresh-sessions`)
	e.click(`[data-testid="session-item"][data-session-id="elsewhere"]`)
	e.waitFor("the waiting preview", `document.querySelector('[data-session-id="warn"] [data-testid="preview-waiting"]') && (document.querySelector('[data-testid="session-id"]') || {}).textContent === "elsewhere" && document.querySelector('[data-testid="preview"]').hidden`)
	e.click(`[data-testid="session-item"][data-session-id="warn"]`)
	e.waitFor("the warnings again", `document.querySelector('[data-testid="warnings"]') && !document.querySelector('[data-testid="preview"]').hidden && !document.querySelector('[data-testid="preview-waiting"]')`)
	e.checkNoJSErrors()
}

// TestBrowserStreamingProgress: while the summary streams, the page shows
// the text as it arrives and the elapsed time; the retry line is the
// server's own ("attempt 2 of N, retrying in 1 s"); the progress and
// Cancel stay with the session that runs the action (issue 13, item 4).
func TestBrowserStreamingProgress(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	slow := fakellm.Answer(fakellm.Text("<current_focus>\nStreaming **now**, line one"), fakellm.Text(" and the rest\n</current_focus>"))
	slow.ChunkDelay = 40 * time.Second
	e.llm.Enqueue(fakellm.RateLimited("1"), slow)
	e.importSession(longSession(t, "stream", 3))
	e.importSession(longSession(t, "other", 2))
	e.open("/#/s/stream")
	e.waitFor("the plan", planReady)
	e.click(`[data-testid="compact-conversation"]`)
	e.waitFor("the streamed text", `(document.querySelector('[data-testid="progress-stream"]') || {}).textContent === "<current_focus>\nStreaming **now**, line one"`)
	e.waitFor("a second elapsed", `/^0:0[1-9]$/.test(document.querySelector('[data-testid="progress-elapsed"]').textContent)`)
	notes := e.evalString(`document.querySelector('[data-testid="progress-notes"]').innerText`)
	if !regexp.MustCompile(`^attempt 2 of \d+, retrying in 1 s: `).MatchString(notes) || strings.Contains(notes, "Attempt 1") {
		t.Errorf("retry line %q", notes)
	}
	if line := e.evalString(`document.querySelector('[data-testid="progress-text"]').textContent`); !strings.Contains(line, "Receiving summary") || !strings.Contains(line, "attempt 2 of") {
		t.Errorf("progress line %q", line)
	}
	e.screenshot("browser-streaming.png")

	// Another session: no progress, no Cancel, and its Compact is enabled.
	e.click(`[data-testid="session-item"][data-session-id="other"]`)
	e.waitFor("the other session", `document.querySelector('[data-testid="session-id"]').textContent === "other" && `+planReady)
	var other struct {
		Progress string `json:"progress"`
		Cancel   bool   `json:"cancel"`
		Disabled bool   `json:"disabled"`
	}
	e.eval(`JSON.stringify({
		progress: document.querySelector('[data-testid="progress"]').textContent,
		cancel: !document.querySelector('#cancel-action').hidden,
		disabled: document.querySelector('[data-testid="compact-conversation"]').disabled,
	})`, &other)
	if other.Progress != "" || other.Cancel || other.Disabled {
		t.Errorf("the other session shows the running action: %+v", other)
	}

	// Back: the run's progress again, with its text; Cancel stops it.
	e.click(`[data-testid="session-item"][data-session-id="stream"]`)
	e.waitFor("the run again", `!document.querySelector('#cancel-action').hidden && (document.querySelector('[data-testid="progress-stream"]') || {}).textContent.includes("line one")`)
	e.click(`#cancel-action`)
	e.waitFor("the cancel", `document.querySelector('[data-testid="outcome"]').dataset.status === "cancelled"`)
	if n := len(e.storedMessages("stream")); n != 7 {
		t.Errorf("a cancelled action changed the session: %d messages", n)
	}
	e.checkNoJSErrors()
}

// TestBrowserUndoKeepsLaterMessages: the summary card's Undo puts back
// the messages the summary replaced and keeps a message appended since;
// when the summary is gone (409), the page offers a full restore and says
// first what it will drop; the history's Restore asks the same way
// (issue 13, items 2 and 7).
func TestBrowserUndoKeepsLaterMessages(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	e.llm.SetDefault(fakellm.Answer(fakellm.Text("<current_focus>\nthe questions\n</current_focus>")))
	e.importSession(longSession(t, "undo", 3)) // sys u1 a1 u2 a2 u3 a3
	e.open("/#/s/undo")
	e.waitFor("the plan", planReady)
	e.click(`[data-testid="compact-conversation"]`)
	e.waitFor("the summary card", `(document.querySelector('[data-testid="summary-covers"]') || {}).textContent`)
	appendMsg := func(text string) {
		if status, body := e.api("POST", "/v1/sessions/undo/messages", `{"message": {"role": "user", "content": "`+text+`"}}`); status != 201 {
			t.Fatalf("append: %d %v", status, body)
		}
	}
	appendMsg("a later question")
	e.click(`#reload-session`)
	e.waitFor("the later message", `document.querySelectorAll('[data-testid="message"]').length === 5 && document.querySelector('[data-testid="summary-undo"]')`)

	e.click(`[data-testid="summary-undo"]`)
	e.waitFor("the undo", `document.querySelector('[data-testid="outcome"]').dataset.status === "undone" && document.querySelectorAll('[data-testid="message"]').length === 8`)
	stored := e.storedMessages("undo")
	if len(stored) != 8 || stored[1]["id"] != "u1" || stored[7]["role"] != "user" {
		t.Fatalf("after Undo: %d messages %v", len(stored), stored)
	}
	if c, _ := stored[7]["content"].([]any); len(c) != 1 || c[0].(map[string]any)["text"] != "a later question" {
		t.Errorf("the later message is gone after Undo: %v", stored[7])
	}

	// Compact again on the page, then again behind its back: the card's
	// summary is gone, so Undo answers 409 and a full restore is offered.
	e.waitFor("the plan", planReady)
	e.click(`[data-testid="compact-conversation"]`)
	e.waitFor("the new summary card", `document.querySelector('[data-testid="outcome"]').dataset.status === "compacted" && (document.querySelector('[data-testid="summary-covers"]') || {}).textContent`)
	appendMsg("one more")
	appendMsg("and another")
	if status, body := e.api("POST", "/v1/sessions/undo/actions/compact_conversation", `{"accept_warnings": true}`); status != 200 || body["status"] != "compacted" {
		t.Fatalf("compaction behind the page: %d %v", status, body)
	}
	e.click(`[data-testid="summary-undo"]`)
	e.waitFor("the offer of a full restore", `document.querySelector('[data-testid="undo-conflict"]') && document.querySelector('[data-testid="restore-confirm"]')`)
	drops := e.evalString(`document.querySelector('[data-testid="restore-drop-count"]').textContent + " | " + document.querySelector('[data-testid="restore-drops"]').innerText`)
	// The session now: sys, the new summary, and the kept tail; the restore
	// drops the summary and the later messages.
	if !regexp.MustCompile(`^It drops \d+ messages: \| `).MatchString(drops) {
		t.Errorf("what the restore drops: %q", drops)
	}
	before := len(e.storedMessages("undo"))
	e.screenshot("browser-undo-conflict.png")
	e.click(`[data-testid="restore-confirm-ok"]`)
	e.waitFor("the restore", `document.querySelector('[data-testid="outcome"]').dataset.status === "restored"`)
	if after := len(e.storedMessages("undo")); after == before {
		t.Errorf("the full restore changed nothing (%d messages)", after)
	}

	// The history's Restore asks first; Cancel leaves the session alone.
	e.waitFor("the revisions", `document.querySelectorAll('[data-testid="revision-item"]').length >= 4`)
	n := len(e.storedMessages("undo"))
	e.click(`[data-testid="revision-item"][data-kind="compaction"] [data-testid="restore"]`)
	e.waitFor("the restore's question", `document.querySelector('#outcome [data-testid="restore-confirm"]') && document.querySelector('[data-testid="restore-drop-count"]')`)
	e.screenshot("browser-restore-confirm.png")
	e.click(`[data-testid="restore-confirm-cancel"]`)
	e.waitFor("the question gone", `!document.querySelector('[data-testid="restore-confirm"]')`)
	if got := len(e.storedMessages("undo")); got != n {
		t.Errorf("a cancelled restore changed the session: %d → %d messages", n, got)
	}
	e.checkNoJSErrors()
}

// TestBrowserSessionsManage: sessions show their titles; the search box
// asks the server (?q=); a session can be renamed in place and deleted
// after a confirmation; the import reads a kimi-cli context.jsonl by its
// content, with the agent and the id chosen on the page (issue 13, item 6).
func TestBrowserSessionsManage(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	e.importSession(longSession(t, "alpha", 2))
	if status, body := e.api("POST", "/v1/sessions", `{"id": "beta", "agent": "tester", "messages": [{"role": "user", "content": "Deploy the staging server"}]}`); status != 201 {
		t.Fatalf("create: %d %v", status, body)
	}
	e.open("/")
	e.waitFor("two sessions", `document.querySelectorAll('[data-testid="session-item"]').length === 2`)
	titles := e.evalString(`[...document.querySelectorAll('[data-testid="session-item"]')].map(s => s.dataset.sessionId + "=" + s.querySelector('[data-testid="session-item-title"]').textContent).sort().join("; ")`)
	if titles != "alpha=question 001: what does this part do????; beta=Deploy the staging server" {
		t.Errorf("titles %q", titles)
	}

	e.do("search", chromedp.SendKeys(chromedp.CSS(`[data-testid="session-search"]`), "STAGING"))
	e.waitFor("the search", `[...document.querySelectorAll('[data-testid="session-item"]')].map(s => s.dataset.sessionId).join() === "beta"`)
	search := func(q string) {
		e.do("search for "+q, chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector('[data-testid="session-search"]'); s.value = "`+q+`"; s.dispatchEvent(new Event("input")); })()`))
	}
	search("zzz")
	e.waitFor("no match", `document.querySelector('[data-testid="session-empty"]') && document.querySelector('[data-testid="session-empty"]').textContent.includes("zzz")`)
	search("")
	e.waitFor("both again", `document.querySelectorAll('[data-testid="session-item"]').length === 2`)

	// Rename in place.
	e.click(`[data-testid="session-item"][data-session-id="beta"]`)
	e.waitFor("beta", `document.querySelector('[data-testid="session-title"]').textContent === "Deploy the staging server"`)
	e.clickUntil(`[data-testid="rename-session"]`, `!document.getElementById("rename-form").hidden`, "renaming")
	e.do("type the title", chromedp.SetValue(chromedp.CSS(`[data-testid="rename-input"]`), "Staging deploy notes"))
	e.click(`[data-testid="rename-save"]`)
	e.waitFor("the new title", `document.querySelector('[data-testid="session-title"]').textContent === "Staging deploy notes" && document.querySelector('[data-session-id="beta"] [data-testid="session-item-title"]').textContent === "Staging deploy notes"`)
	if _, list := e.api("GET", "/v1/sessions?q=notes", ""); len(list["sessions"].([]any)) != 1 || list["sessions"].([]any)[0].(map[string]any)["title"] != "Staging deploy notes" {
		t.Errorf("stored title: %v", list)
	}
	e.screenshot("browser-sessions.png")

	// Delete asks first.
	e.click(`[data-testid="delete-session"]`)
	e.waitFor("the question", `document.querySelector('[data-testid="delete-confirm"]')`)
	if status, _ := e.api("GET", "/v1/sessions/beta", ""); status != 200 {
		t.Errorf("the session went before the confirmation: %d", status)
	}
	e.screenshot("browser-delete-confirm.png")
	e.click(`[data-testid="delete-confirm-ok"]`)
	e.waitFor("the deletion", `!document.querySelector('[data-session-id="beta"]') && !document.querySelector('[data-testid="empty-state"]').hidden`)
	if status, _ := e.api("GET", "/v1/sessions/beta", ""); status != 404 {
		t.Errorf("after Delete: GET beta is %d", status)
	}

	// A kimi-cli file, named like a session document: read by content.
	file := filepath.Join(t.TempDir(), "export.json")
	if err := os.WriteFile(file, []byte(apitest.KimiContext), 0o644); err != nil {
		t.Fatal(err)
	}
	e.do("pick the kimi-cli file", chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="import-input"]`), []string{file}))
	e.waitFor("the import form", `(document.querySelector('[data-testid="import-format"]') || {dataset: {}}).dataset.format === "kimi"`)
	e.do("choose the agent and id",
		chromedp.SetValue(chromedp.CSS(`[data-testid="import-agent"]`), "nokey"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="import-id"]`), "from-kimi"))
	e.screenshot("browser-import-kimi.png")
	e.click(`[data-testid="import-confirm-ok"]`)
	e.waitFor("the imported session", `(document.querySelector('[data-testid="session-id"]') || {}).textContent === "from-kimi" && document.querySelectorAll('[data-testid="message"]').length === 3`)
	if done := e.evalString(`document.querySelector('[data-testid="import-done"]').textContent`); !strings.Contains(done, "as session from-kimi (3 messages)") || !strings.Contains(done, "1 line of the file could not be read") {
		t.Errorf("import note %q", done)
	}
	if _, s := e.api("GET", "/v1/sessions/from-kimi", ""); s["agent"] != "nokey" {
		t.Errorf("imported agent %v", s["agent"])
	}
	e.checkNoJSErrors()
}

// TestBrowserContextGauge: each session shows how much of its model's
// context window it uses, with the line where compaction becomes due
// (GET …/context); an automatic compaction is marked as such in the
// history and on its summary card (issue 13, item 2, with issue 12).
func TestBrowserContextGauge(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	// A summary with every section kimi's prompt requires: the quality gate
	// of automatic compaction refuses one without (issue 39 §5).
	e.llm.SetDefault(fakellm.Answer(fakellm.Text("<current_focus>\nthe questions\n</current_focus>\n<environment>-</environment>\n<completed_tasks>-</completed_tasks>\n" +
		"<active_issues>-</active_issues>\n<code_state>-</code_state>\n<important_context>-</important_context>")))
	// 201 messages of 10 tokens: 2,010 of 4,000, past the trigger at
	// min(0.5 × 4,000, 4,000 − 1,000) = 2,000.
	e.importSession(strings.Replace(longSession(t, "big", 100), `"agent":"tester"`, `"agent":"auto"`, 1))
	e.importSession(strings.Replace(longSession(t, "small", 3), `"agent":"tester"`, `"agent":"auto"`, 1))
	e.importSession(strings.Replace(longSession(t, "unknown", 1), `"agent":"tester"`, `"agent":"nokey"`, 1))
	e.open("/#/s/small")
	e.waitFor("the gauges", `document.querySelectorAll('.session-gauge [data-testid="context-gauge"]').length === 3 && document.querySelector('#session-context [data-testid="context-gauge"]')`)
	var g struct {
		Text    string            `json:"text"`
		Label   string            `json:"label"`
		Fill    string            `json:"fill"`
		Trigger string            `json:"trigger"`
		List    map[string]string `json:"list"`
	}
	state := `JSON.stringify((() => {
		const h = document.querySelector('#session-context [data-testid="context-gauge"]');
		const list = {};
		for (const s of document.querySelectorAll('.session-gauge')) {
			const x = s.querySelector('[data-testid="context-gauge"]');
			list[s.dataset.gaugeFor] = x.dataset.known + "/" + (x.dataset.due || "");
		}
		return {text: h.innerText, label: h.getAttribute('aria-label') || "", fill: (h.querySelector('.gauge-fill') || {style: {}}).style.width,
			trigger: (h.querySelector('.gauge-trigger') || {style: {}}).style.left, list};
	})())`
	e.eval(state, &g)
	if g.Label != "70 of 4,000 tokens (2%); compaction is due at 2,000" || g.Fill != "1.8%" || g.Trigger != "50%" || !strings.Contains(g.Text, "compacts automatically") {
		t.Errorf("gauge of small: %+v", g)
	}
	if g.List["big"] != "true/true" || g.List["small"] != "true/false" || g.List["unknown"] != "false/" {
		t.Errorf("list gauges: %v", g.List)
	}
	e.screenshot("browser-context-gauge.png")

	// An append with ?auto_compact=true compacts "big" in the background.
	if status, body := e.api("POST", "/v1/sessions/big/messages?auto_compact=true", `{"message": {"role": "user", "content": "next"}}`); status != 201 {
		t.Fatalf("append: %d %v", status, body)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, revs := e.api("GET", "/v1/sessions/big/revisions", "")
		if list, _ := revs["revisions"].([]any); len(list) > 0 && list[0].(map[string]any)["kind"] == "auto_compaction" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no automatic compaction: %v", revs)
		}
		time.Sleep(100 * time.Millisecond)
	}
	e.click(`[data-testid="session-item"][data-session-id="big"]`)
	e.waitFor("the automatic compaction", `[...document.querySelectorAll('[data-testid="revision-kind"]')].some(b => b.textContent === "automatic compaction") && (document.querySelector('[data-testid="summary-covers"]') || {}).textContent`)
	covers := e.evalString(`document.querySelector('[data-testid="summary-covers"]').textContent`)
	if !strings.Contains(covers, "compacted automatically") {
		t.Errorf("summary card: %q", covers)
	}
	e.waitFor("the lower gauge", `document.querySelector('#session-context [data-testid="context-gauge"]') && document.querySelector('#session-context [data-testid="context-gauge"]').dataset.due === "false"`)
	e.screenshot("browser-auto-compaction.png")
	e.checkNoJSErrors()
}
