package integration

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakellm"
)

// longSession is a session of a system message and n user/assistant
// pairs, each text 40 characters (10 estimated tokens).
func longSession(t *testing.T, id string, pairs int) string {
	msgs := []any{map[string]any{"id": "sys", "role": "system", "content": "You are an agent that answers briefly..."}}
	for i := 1; i <= pairs; i++ {
		msgs = append(msgs,
			map[string]any{"id": fmt.Sprintf("u%d", i), "role": "user", "content": fmt.Sprintf("question %03d: what does this part do????", i)},
			map[string]any{"id": fmt.Sprintf("a%d", i), "role": "assistant", "content": fmt.Sprintf("answer %03d: it does what it says, okay..", i)})
	}
	return apitest.JSONText(t, map[string]any{"id": id, "agent": "tester", "messages": msgs})
}

// TestBrowserWillCompact: before the click, the panel says what Compact
// will replace and keep (from the server's dry run), the kept tail is
// marked, the session shows its estimated tokens; the summary card says
// what it covers and its Undo puts the messages back (issue 13, item 2).
func TestBrowserWillCompact(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	e.llm.SetDefault(fakellm.Answer(fakellm.Text("<current_focus>\nthe questions\n</current_focus>")).WithUsage(fakellm.Usage{PromptTokens: 90, CompletionTokens: 9}))
	e.importSession(longSession(t, "will", 3)) // sys u1 a1 u2 a2 u3 a3; max_preserved_messages 2
	e.open("/#/s/will")
	e.waitFor("the plan", `document.querySelector('[data-testid="will-compact"]').textContent.startsWith("Will compact")`)

	var got struct {
		Line     string   `json:"line"`
		Tokens   string   `json:"tokens"`
		Kept     []string `json:"kept"`
		Range    string   `json:"range"`
		Disabled bool     `json:"disabled"`
		SysItems []string `json:"sysItems"`
	}
	state := `JSON.stringify({
		line: document.querySelector('[data-testid="will-compact"]').textContent,
		tokens: document.querySelector('[data-testid="session-tokens"]').textContent + " / " + document.querySelector('[data-testid="session-item-tokens"]').textContent,
		kept: [...document.querySelectorAll('[data-testid="message"].kept-tail')].map(m => m.dataset.id),
		range: document.querySelector('[data-testid="range-summary"]').textContent,
		disabled: document.querySelector('[data-testid="compact-conversation"]').disabled,
		sysItems: [...document.querySelectorAll('[data-id="sys"] [role="menuitem"]')].map(b => b.dataset.testid),
	})`
	// Open the system message's menu: range marks, but no "Compact up to here".
	e.click(`[data-id="sys"] [data-testid="message-menu"]`)
	e.eval(state, &got)
	// u1..a2: 4 messages of 40 characters = 40 tokens; the session 60 + 10.
	if got.Line != "Will compact #2–#5 (4 messages, ~40 tokens), keep #6–#7; #1 stays before the summary." {
		t.Errorf("will-compact line %q", got.Line)
	}
	if got.Tokens != "~70 tokens / ~70 tokens" || strings.Join(got.Kept, ",") != "u3,a3" || got.Disabled {
		t.Errorf("session tokens %q, kept tail %v, Compact disabled %v", got.Tokens, got.Kept, got.Disabled)
	}
	if strings.Contains(got.Range, "whole conversation") {
		t.Errorf("the range says %q while a tail is kept", got.Range)
	}
	if strings.Join(got.SysItems, ",") != "mark-start,mark-end" {
		t.Errorf("the system message's menu offers %v", got.SysItems)
	}
	e.do("close the menu", chromedp.KeyEvent("\x1b"))
	e.screenshot("browser-will-compact.png")

	// An explicit end: exactly the range, no tail.
	e.menuItem("a1", "mark-end")
	e.waitFor("the new plan", `document.querySelector('[data-testid="will-compact"]').textContent.startsWith("Will compact #2–#3 ")`)
	e.eval(state, &got)
	if got.Line != "Will compact #2–#3 (2 messages, ~20 tokens), keep #4–#7; #1 stays before the summary." || len(got.Kept) != 4 {
		t.Errorf("with an end: %q, kept %v", got.Line, got.Kept)
	}
	e.click(`#range-clear`)

	// Compact: the page shows the summary card, which says what it covers.
	e.waitFor("the automatic plan", `document.querySelector('[data-testid="will-compact"]').textContent.startsWith("Will compact #2–#5 ")`)
	e.click(`[data-testid="compact-conversation"]`)
	e.waitFor("the covers line", `(document.querySelector('[data-testid="summary-covers"]') || {}).textContent`)
	var card struct {
		Covers  string `json:"covers"`
		InView  bool   `json:"inView"`
		Scrolly int    `json:"scrollY"`
	}
	e.eval(`JSON.stringify((() => {
		const m = document.querySelector('[data-testid="message"][data-kind="summary"]');
		const r = m.getBoundingClientRect();
		return {covers: m.querySelector('[data-testid="summary-covers"]').textContent, inView: r.top < innerHeight && r.bottom > 0, scrollY: scrollY};
	})())`, &card)
	// Before: 70 tokens; after: sys (10) + summary + u3, a3 (20).
	if !strings.Contains(card.Covers, "Covers 4 messages (#2–#5 before it ran)") || !strings.Contains(card.Covers, "estimated tokens 70 → ") ||
		!strings.Contains(card.Covers, "model fake-chat") || !strings.Contains(card.Covers, "revision 1") || !card.InView {
		t.Errorf("summary card: %+v", card)
	}
	e.screenshot("browser-summary-covers.png")

	// Undo on the card puts the seven messages back.
	e.click(`[data-testid="summary-undo"]`)
	e.waitFor("the undo", `document.querySelectorAll('[data-testid="message"]').length === 7 && document.querySelector('[data-testid="outcome"]').dataset.status === "undone"`)
	if n := len(e.storedMessages("will")); n != 7 {
		t.Errorf("after Undo the store has %d messages", n)
	}

	// An empty session: Compact is disabled, and says why.
	if status, body := e.api("POST", "/v1/sessions", `{"id": "empty", "agent": "tester"}`); status != 201 {
		t.Fatalf("create: %d %v", status, body)
	}
	e.open("/#/s/empty")
	e.waitFor("the empty session", `document.querySelector('[data-testid="messages-empty"]') && document.querySelector('[data-testid="will-compact"]').textContent.includes("Nothing to compact")`)
	if d, _ := chromedp.Run(e.ctx, chromedp.Evaluate[bool](`document.querySelector('[data-testid="compact-conversation"]').disabled`)); !d {
		t.Errorf("Compact is enabled on an empty session")
	}
	e.checkNoJSErrors()
}

// TestBrowserNarrowLongSession: at 400 px the conversation comes first; a
// long session opens at its latest messages with "Jump to latest"; the
// message actions are one menu button per message, so the keyboard
// reaches the compact panel quickly; Esc cancels a running action (issue
// 13, item 5).
func TestBrowserNarrowLongSession(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	slow := fakellm.Answer(fakellm.Text("<current_focus>\nslow\n</current_focus>"), fakellm.Text(" and more"))
	slow.ChunkDelay = 20 * time.Second
	e.llm.SetDefault(slow)
	e.importSession(longSession(t, "long", 60))
	e.do("narrow window", chromedp.EmulateViewport(400, 800))
	e.open("/")
	e.waitFor("the session list", `document.querySelector('[data-testid="session-item"][data-session-id="long"]')`)
	e.click(`[data-testid="session-item"][data-session-id="long"]`)
	e.waitFor("121 messages", `document.querySelectorAll('[data-testid="message"]').length === 121`)
	e.waitFor("the latest message in view", `(() => { const m = [...document.querySelectorAll('[data-testid="message"]')].pop(); const r = m.getBoundingClientRect(); return r.bottom <= innerHeight + 1 && r.bottom > 0; })()`)

	var lay struct {
		MainTop     float64 `json:"mainTop"`
		ToolsTop    float64 `json:"toolsTop"`
		SessionsTop float64 `json:"sessionsTop"`
		Jump        bool    `json:"jump"`
		PageWidth   int     `json:"pageWidth"`
		Buttons     int     `json:"buttons"`
		// ActionsBelow: the session's buttons sit below its title.
		ActionsBelow bool `json:"actionsBelow"`
	}
	layout := `JSON.stringify({
		mainTop: document.querySelector('main').getBoundingClientRect().top + scrollY,
		toolsTop: document.querySelector('.tools-panel').getBoundingClientRect().top + scrollY,
		sessionsTop: document.querySelector('.sessions-panel').getBoundingClientRect().top + scrollY,
		jump: !document.querySelector('[data-testid="jump-latest"]').hidden,
		pageWidth: document.documentElement.scrollWidth,
		buttons: document.querySelectorAll('#messages button').length,
		actionsBelow: document.querySelector('.session-head-actions').getBoundingClientRect().top >=
			document.querySelector('.session-head h2').getBoundingClientRect().bottom,
	})`
	e.eval(layout, &lay)
	if !(lay.MainTop < lay.ToolsTop && lay.ToolsTop < lay.SessionsTop) || lay.PageWidth > 400 {
		t.Errorf("narrow layout: main %v, tools %v, sessions %v, page width %d", lay.MainTop, lay.ToolsTop, lay.SessionsTop, lay.PageWidth)
	}
	// One menu button per message (the system message too), no more.
	if lay.Buttons != 121 {
		t.Errorf("%d buttons in the messages, want one menu button per message", lay.Buttons)
	}
	if lay.Jump {
		t.Errorf("Jump to latest shows while the latest message is in view")
	}
	if !lay.ActionsBelow {
		t.Errorf("narrow layout: the session's buttons sit beside its title, not below it")
	}
	e.viewportShot("browser-narrow-latest.png")

	// Scrolled up, "Jump to latest" shows, and goes back down.
	e.do("scroll up", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	e.waitFor("the jump button", `!document.querySelector('[data-testid="jump-latest"]').hidden`)
	e.viewportShot("browser-narrow-top.png")
	e.click(`[data-testid="jump-latest"]`)
	e.waitFor("the latest message", `(() => { const m = [...document.querySelectorAll('[data-testid="message"]')].pop(); const r = m.getBoundingClientRect(); return r.bottom <= innerHeight + 1 && r.bottom > 0 && document.activeElement === m; })()`)

	// Keyboard: the skip link leads to the compact panel; Compact starts,
	// and Esc cancels it.
	e.do("focus the skip link", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="skip-compact"]').focus()`))
	e.do("follow it", chromedp.KeyEvent("\r"))
	e.waitFor("the compact panel focused", `document.activeElement === document.querySelector('[data-testid="compact-panel"]')`)
	e.click(`[data-testid="compact-conversation"]`)
	e.waitFor("the running action", `!document.querySelector('#cancel-action').hidden`)
	e.do("press Escape", chromedp.KeyEvent("\x1b"))
	e.waitFor("the cancel", `document.querySelector('[data-testid="outcome"]').dataset.status === "cancelled"`)
	if n := len(e.storedMessages("long")); n != 121 {
		t.Errorf("a cancelled action changed the session: %d messages", n)
	}
	e.checkNoJSErrors()
}

// viewportShot saves what the window shows now, where the page is
// scrolled to.
func (e *browserEnv) viewportShot(name string) {
	e.t.Helper()
	e.saveShot(name, chromedp.CaptureScreenshot())
}
