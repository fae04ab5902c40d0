package integration

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kompact"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakellm"
)

// The page says what happened where the person is looking (issue 19, §3).

// browserWidths are the window widths the tests below run at, each with
// its own screenshots.
var browserWidths = []int{1280, 400}

// atWidth runs fn in a new browser environment whose window is width px
// wide; shot names a screenshot for this width.
func atWidth(t *testing.T, opt browserOptions, fn func(e *browserEnv, shot func(string) string)) {
	for _, w := range browserWidths {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			e := newBrowserEnv(t, opt)
			e.do("window width", chromedp.EmulateViewport(int64(w), 900))
			fn(e, func(name string) string { return fmt.Sprintf("%s-%d.png", name, w) })
			e.checkNoJSErrors()
		})
	}
}

// toolSession has a summary, parallel tool calls and single ones:
// sys sum u1 a1(c1,c2) t1 t2 a2(c3) t3 a3 u3 a4(c5) t5 a5.
func toolSession(t *testing.T, id string) string {
	call := func(id, name string) map[string]any {
		return map[string]any{"type": "function", "id": id, "function": map[string]any{"name": name, "arguments": `{}`}}
	}
	msgs := []any{
		map[string]any{"id": "sys", "role": "system", "content": "You are a coding agent."},
		map[string]any{"id": "sum", "role": "user", "content": kompact.SummaryPrefix + "\n<current_focus>\nearlier work\n</current_focus>"},
		map[string]any{"id": "u1", "role": "user", "content": "Find the failing tests."},
		map[string]any{"id": "a1", "role": "assistant", "content": "Searching two places.", "tool_calls": []any{call("c1", "Grep"), call("c2", "Glob")}},
		map[string]any{"id": "t1", "role": "tool", "tool_call_id": "c1", "content": "prepare_test.go:12"},
		map[string]any{"id": "t2", "role": "tool", "tool_call_id": "c2", "content": "prepare.go"},
		map[string]any{"id": "a2", "role": "assistant", "content": "Running them.", "tool_calls": []any{call("c3", "Shell")}},
		map[string]any{"id": "t3", "role": "tool", "tool_call_id": "c3", "content": "FAIL TestPrepare"},
		map[string]any{"id": "a3", "role": "assistant", "content": "TestPrepare fails."},
		map[string]any{"id": "u3", "role": "user", "content": "Fix it."},
		map[string]any{"id": "a4", "role": "assistant", "content": "Editing.", "tool_calls": []any{call("c5", "Edit")}},
		map[string]any{"id": "t5", "role": "tool", "tool_call_id": "c5", "content": "ok"},
		map[string]any{"id": "a5", "role": "assistant", "content": "Fixed."},
	}
	return apitest.JSONText(t, map[string]any{"id": id, "agent": "tester", "messages": msgs})
}

// TestBrowserUpToHereMatchesServer: a message's menu offers "Compact up
// to here" exactly where the server compacts (not at the leading system
// message or a lone summary), and where the cut would separate a tool
// call from its results it offers the next whole cut instead, the message
// the server's own error suggests (issue 19, §3 item 1).
func TestBrowserUpToHereMatchesServer(t *testing.T) {
	atWidth(t, browserOptions{}, func(e *browserEnv, shot func(string) string) {
		e.importSession(toolSession(t, "tools"))
		e.open("/#/s/tools")
		e.waitFor("13 messages", `document.querySelectorAll('[data-testid="message"]').length === 13`)
		stored := e.storedMessages("tools")

		// The page's decision for every message, from its own module.
		var page []*struct {
			Index     int `json:"index"`
			First     int `json:"first"`
			Last      int `json:"last"`
			Separated *struct {
				Call   int `json:"call"`
				Result int `json:"result"`
			} `json:"separated"`
		}
		s, err := chromedp.Run(e.ctx, chromedp.Evaluate[string](`(async () => {
			const sum = await import("/summary.js");
			await sum.loadFormat();
			const a = await import("/anchors.js");
			const msgs = (await (await fetch("/v1/sessions/tools")).json()).messages;
			return JSON.stringify(msgs.map((m, i) => a.upToHere(msgs, i)));
		})()`, chromedp.EvalAwaitPromise))
		if err != nil {
			e.fail("run the page's rule", err)
		}
		e.decode(s, &page)
		if len(page) != len(stored) {
			t.Fatalf("the page decided for %d messages, the session has %d", len(page), len(stored))
		}

		// The server's decision: a dry run of compact_up_to_here at each.
		server := func(id string) (status string, noop bool, fix string) {
			_, out := e.api("POST", "/v1/sessions/tools/actions/compact_up_to_here", `{"dry_run": true, "message_id": "`+id+`"}`)
			status, _ = out["status"].(string)
			noop, _ = out["noop"].(bool)
			if er, ok := out["error"].(map[string]any); ok {
				if fixes, ok := er["fixes"].([]any); ok && len(fixes) > 0 {
					fix, _ = fixes[0].(string)
				}
			}
			return status, noop, fix
		}
		moved := map[string]string{}
		for i, m := range stored {
			id := m["id"].(string)
			status, noop, fix := server(id)
			p := page[i]
			switch {
			case p == nil:
				if status != "dry_run" || !noop {
					t.Errorf("%s: the page offers nothing; the server answers %s (noop %v)", id, status, noop)
				}
			case p.Index == i:
				if status != "dry_run" || noop {
					t.Errorf("%s: the page offers it; the server answers %s (noop %v, %s)", id, status, noop, fix)
				}
			default:
				anchor := stored[p.Index]["id"].(string)
				moved[id] = anchor
				if status != "error" || !strings.Contains(fix, `End the range at message "`+anchor+`"`) {
					t.Errorf("%s: the page offers %s instead; the server answers %s, %q", id, anchor, status, fix)
				}
				if st, n, _ := server(anchor); st != "dry_run" || n {
					t.Errorf("%s: the page's neighbour %s is not one the server compacts: %s (noop %v)", id, anchor, st, n)
				}
			}
		}
		if want := map[string]string{"a1": "t2", "t1": "t2", "a2": "t3", "a4": "t5"}; !mapsEqual(moved, want) {
			t.Errorf("moved anchors %v, want %v", moved, want)
		}

		// The menus: none at sys and sum; a1's offers t2, and says why.
		var menu struct {
			Sys, Sum      int
			Label, Anchor string
			Title         string
			U1Label       string
			U1Anchor      string
		}
		count := func(id string) string {
			return `document.querySelectorAll('[data-id="` + id + `"] [data-testid="compact-up-to-here"]').length`
		}
		// Each menu is closed (Escape) before the next one opens: an open
		// menu covers the next message's button.
		esc := func() { e.do("close the menu", chromedp.KeyEvent("\x1b")) }
		e.click(`[data-id="sys"] [data-testid="message-menu"]`)
		menu.Sys = e.evalInt(count("sys"))
		esc()
		e.click(`[data-id="sum"] [data-testid="message-menu"]`)
		menu.Sum = e.evalInt(count("sum"))
		esc()
		e.click(`[data-id="u1"] [data-testid="message-menu"]`)
		menu.U1Label = e.evalString(`document.querySelector('[data-id="u1"] [data-testid="compact-up-to-here"]').textContent`)
		esc()
		e.click(`[data-id="a1"] [data-testid="message-menu"]`)
		item := `document.querySelector('[data-id="a1"] [data-testid="compact-up-to-here"]')`
		menu.Label = e.evalString(item + `.textContent`)
		menu.Anchor = e.evalString(item + `.dataset.anchor`)
		menu.Title = e.evalString(item + `.title`)
		if menu.Sys != 0 || menu.Sum != 0 {
			t.Errorf("Compact up to here offered at the system message (%d) or the lone summary (%d)", menu.Sys, menu.Sum)
		}
		if menu.U1Label != "Compact up to here (#2–#3)" {
			t.Errorf("u1's menu: %q", menu.U1Label)
		}
		if menu.Anchor != "t2" || menu.Label != "Compact up to #6 instead (#2–#6): the tool call in #4 keeps its results" ||
			menu.Title != "Up to #4 would keep the result in #5 without its tool call in #4." {
			t.Errorf("a1's menu: %+v", menu)
		}
		e.do("menu in view", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-id="a1"]').scrollIntoView({block: "center"})`))
		e.viewportShot(shot("browser-up-to-here-neighbour"))
	})
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// decode decodes the JSON text s into v.
func (e *browserEnv) decode(s string, v any) {
	e.t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		e.t.Fatalf("decode %s: %v", s, err)
	}
}

// inViewport is a JavaScript expression: whether the element sel is
// wholly on screen.
func inViewport(sel string) string {
	return `(() => { const el = document.querySelector('` + sel + `'); if (!el) return false; const r = el.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; })()`
}

// TestBrowserActionRangeAndErrors: while "Compact up to here" runs, the
// page describes its range (not the automatic plan) in the progress line
// and the panel, and marks it; its failure shows under the message whose
// menu started it, the compact panel's under its button; a preview of a
// range or of "up to here" says what it replaces (issue 19, §3 items 1
// and 2).
func TestBrowserActionRangeAndErrors(t *testing.T) {
	atWidth(t, browserOptions{}, func(e *browserEnv, shot func(string) string) {
		var mu sync.Mutex
		fail := true
		e.llm.SetFunc(func(req fakellm.Request) fakellm.Reply {
			mu.Lock()
			defer mu.Unlock()
			if fail {
				return fakellm.Fail(http.StatusUnauthorized, "Invalid API key").WithDelay(2 * time.Second)
			}
			return fakellm.Answer(fakellm.Text("<current_focus>\nthe questions\n</current_focus>"))
		})
		e.importSession(longSession(t, "errs", 30)) // sys, u1 a1 … u30 a30: 61 messages
		e.open("/#/s/errs")
		e.waitFor("the plan", planReady)

		// u10 is #20: up to it replaces #2–#20.
		e.do("u10 in view", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-id="u10"]').scrollIntoView({block: "center"})`))
		e.menuItem("u10", "compact-up-to-here")
		e.waitFor("the running range", `(document.querySelector('[data-testid="progress-what"]') || {}).textContent === "Compacting #2–#20 (19 messages)"`)
		var run struct {
			Line   string   `json:"line"`
			InPlan []string `json:"inPlan"`
		}
		e.eval(`JSON.stringify({line: document.querySelector('[data-testid="will-compact"]').textContent,
			inPlan: [...document.querySelectorAll('[data-testid="message"].in-plan')].map(m => m.dataset.id)})`, &run)
		if run.Line != "Compacting #2–#20 (19 messages)…" || len(run.InPlan) != 19 || run.InPlan[0] != "u1" || run.InPlan[18] != "u10" {
			t.Errorf("while up to u10 runs: line %q, marked %v", run.Line, run.InPlan)
		}
		e.viewportShot(shot("browser-running-range"))

		// It fails: the error shows under u10, on screen.
		atU10 := `[data-id="u10"] [data-testid="action-error"]`
		e.waitFor("the error under u10", `document.querySelector('`+atU10+`')`)
		e.waitFor("it on screen", inViewport(atU10))
		text := e.evalString(`document.querySelector('` + atU10 + `').innerText`)
		if !strings.Contains(text, "Compacting #2–#20 (19 messages) failed: nothing was changed.") || !strings.Contains(text, "Invalid API key") {
			t.Errorf("the error under u10: %q", text)
		}
		if line := e.evalString(`document.querySelector('[data-testid="will-compact"]').textContent`); !strings.HasPrefix(line, "Will compact #2–#59 ") {
			t.Errorf("after the run the panel says %q", line)
		}
		e.viewportShot(shot("browser-action-error-message"))

		// From the panel: its error shows under its button.
		e.click(`[data-testid="compact-conversation"]`)
		inPanel := `#compact-panel [data-testid="action-error"]`
		e.waitFor("the error in the panel", `document.querySelector('`+inPanel+`') && !document.querySelector('`+atU10+`')`)
		e.waitFor("it on screen", inViewport(inPanel))
		if text := e.evalString(`document.querySelector('` + inPanel + `').innerText`); !strings.Contains(text, "Compacting #2–#59 (58 messages) failed") {
			t.Errorf("the error in the panel: %q", text)
		}
		e.viewportShot(shot("browser-action-error-panel"))
		e.click(`[data-testid="action-error-dismiss"]`)

		// A preview of a range says what it replaces, and the panel too.
		mu.Lock()
		fail = false
		mu.Unlock()
		e.check(`[data-testid="preview-toggle"]`)
		e.menuItem("u3", "mark-start") // #6
		e.menuItem("a8", "mark-end")   // #17
		e.waitFor("the range's plan", `document.querySelector('[data-testid="will-compact"]').textContent.startsWith("Will compact #6–#17 ")`)
		e.click(`[data-testid="compact-conversation"]`)
		e.waitFor("the preview", `!document.querySelector('[data-testid="preview"]').hidden && document.querySelector('[data-testid="preview-replaces"]')`)
		var pv struct {
			Replaces string   `json:"replaces"`
			Line     string   `json:"line"`
			InPlan   []string `json:"inPlan"`
		}
		state := `JSON.stringify({replaces: document.querySelector('[data-testid="preview-replaces"]').textContent,
			line: document.querySelector('[data-testid="will-compact"]').textContent,
			inPlan: [...document.querySelectorAll('[data-testid="message"].in-plan')].map(m => m.dataset.id)})`
		e.eval(state, &pv)
		if pv.Replaces != "It replaces #6–#17 (12 messages). Kept: #1–#5 before it, #18–#61 after it." ||
			pv.Line != "The preview replaces #6–#17 (12 messages)." || len(pv.InPlan) != 12 || pv.InPlan[0] != "u3" {
			t.Errorf("preview of #6–#17: %+v", pv)
		}
		e.viewportShot(shot("browser-preview-range"))
		e.click(`[data-testid="preview-discard"]`)
		e.waitFor("the plan again", `document.querySelector('[data-testid="will-compact"]').textContent.startsWith("Will compact #6–#17 ")`)

		// A preview of "up to here" too.
		e.click(`#range-clear`)
		e.menuItem("a5", "compact-up-to-here") // #11
		e.waitFor("the preview", `!document.querySelector('[data-testid="preview"]').hidden && document.querySelector('[data-testid="preview-replaces"]')`)
		e.eval(state, &pv)
		if pv.Replaces != "It replaces #2–#11 (10 messages). Kept: #1 before it, #12–#61 after it." || pv.Line != "The preview replaces #2–#11 (10 messages)." {
			t.Errorf("preview up to a5: %+v", pv)
		}
		if n := len(e.storedMessages("errs")); n != 61 {
			t.Errorf("the failures and previews changed the session: %d messages", n)
		}
	})
}

// dueSession is due for automatic compaction with the "auto" agent
// (window 4000, due at 2000 tokens): two messages of 1000 tokens each,
// then a short turn.
func dueSession(t *testing.T, id string) string {
	long := strings.Repeat("word ", 800)
	return apitest.JSONText(t, map[string]any{"id": id, "agent": "auto", "messages": []any{
		map[string]any{"id": "u1", "role": "user", "content": "Read this: " + long},
		map[string]any{"id": "a1", "role": "assistant", "content": "Read: " + long},
		map[string]any{"id": "u2", "role": "user", "content": "Thanks."},
		map[string]any{"id": "a2", "role": "assistant", "content": "You are welcome."},
	}})
}

// TestBrowserContinueRetryAndAuto: a turn that failed before its message
// was added keeps the text and offers Retry, which sends it once; an
// automatic compaction before the turn is announced under the form; a
// reply that failed after the message was added says so, empties the box
// and offers no Retry that would add it twice, but Ask again, which has the
// server answer the kept message (issue 19, §3 items 6 and 8).
func TestBrowserContinueRetryAndAuto(t *testing.T) {
	atWidth(t, browserOptions{}, func(e *browserEnv, shot func(string) string) {
		var mu sync.Mutex
		phase := 1
		e.llm.SetFunc(func(req fakellm.Request) fakellm.Reply {
			mu.Lock()
			defer mu.Unlock()
			switch {
			case isCompaction(req) && phase == 1:
				return fakellm.Fail(http.StatusUnauthorized, "Invalid API key")
			case isCompaction(req): // every section kimi's prompt requires (the quality gate, issue 39 §5)
				return fakellm.Answer(fakellm.Text("<current_focus>\nreading\n</current_focus>\n<environment>-</environment>\n<completed_tasks>-</completed_tasks>\n" +
					"<active_issues>-</active_issues>\n<code_state>-</code_state>\n<important_context>-</important_context>"))
			case phase == 3:
				return fakellm.Fail(http.StatusUnauthorized, "Invalid API key")
			}
			return fakellm.Answer(fakellm.Text("Here is the next step."))
		})
		e.importSession(dueSession(t, "autos"))
		e.open("/#/s/autos")
		e.waitFor("4 messages", `document.querySelectorAll('[data-testid="message"]').length === 4`)
		count := func(text string) int {
			n := 0
			for _, m := range e.storedMessages("autos") {
				if c, ok := m["content"].([]any); ok && len(c) == 1 && c[0].(map[string]any)["text"] == text {
					n++
				}
			}
			return n
		}

		// The automatic compaction fails: nothing is added; Retry.
		e.do("type", chromedp.SendKeys(chromedp.CSS(`[data-testid="continue-input"]`), "Next step?"))
		e.click(`[data-testid="continue-send"]`)
		e.waitFor("Retry", `document.querySelector('[data-testid="continue-retry"]')`)
		if v := e.evalString(`document.querySelector('[data-testid="continue-input"]').value`); v != "Next step?" {
			t.Errorf("the box holds %q after a turn that was not sent", v)
		}
		if text := e.evalString(`document.querySelector('[data-testid="continue-status"]').innerText`); !strings.Contains(text, "automatic compaction before this turn failed") || !strings.Contains(text, "Your message was not added to the session.") {
			t.Errorf("continue status: %q", text)
		}
		if n := count("Next step?"); n != 0 {
			t.Errorf("the message is stored %d times after a turn that was not sent", n)
		}
		e.do("form in view", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="continue-form"]').scrollIntoView({block: "end"})`))
		e.viewportShot(shot("browser-continue-retry"))

		// Retry: compacted first, announced, and the message sent once.
		mu.Lock()
		phase = 2
		mu.Unlock()
		e.click(`[data-testid="continue-retry"]`)
		e.waitFor("the announcement", `document.querySelector('[data-testid="continue-auto"]')`)
		auto := e.evalString(`document.querySelector('[data-testid="continue-auto"]').dataset.status + ": " + document.querySelector('[data-testid="continue-auto"]').textContent`)
		if !regexp.MustCompile(`^compacted: The session was compacted automatically before this turn \(~[\d,]+ → ~[\d,]+ tokens\), revision 1: the history has its summary\.$`).MatchString(auto) {
			t.Errorf("announcement %q", auto)
		}
		if n := count("Next step?"); n != 1 {
			t.Errorf("after Retry the message is stored %d times", n)
		}
		if n := count("Here is the next step."); n != 1 {
			t.Errorf("after Retry the reply is stored %d times", n)
		}
		e.waitFor("the summary and the turn", `document.querySelector('[data-testid="message"][data-kind="summary"]') && [...document.querySelectorAll('[data-testid="message"]')].pop().innerText.includes("Here is the next step.")`)
		e.do("form in view", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="continue-form"]').scrollIntoView({block: "end"})`))
		e.viewportShot(shot("browser-continue-auto"))

		// The reply fails after the message was added: no Retry.
		mu.Lock()
		phase = 3
		mu.Unlock()
		e.do("type", chromedp.SendKeys(chromedp.CSS(`[data-testid="continue-input"]`), "And then?"))
		e.click(`[data-testid="continue-send"]`)
		e.waitFor("the kept note", `document.querySelector('[data-testid="continue-kept"]')`)
		if n := e.evalInt(`document.querySelectorAll('[data-testid="continue-retry"]').length`); n != 0 {
			t.Errorf("Retry is offered for a message the session holds")
		}
		if v := e.evalString(`document.querySelector('[data-testid="continue-input"]').value`); v != "" {
			t.Errorf("the box holds %q after the message was added", v)
		}
		if n := count("And then?"); n != 1 {
			t.Errorf("the message is stored %d times", n)
		}

		// Ask again: the server answers the kept message, adding it no
		// second time.
		mu.Lock()
		phase = 2
		mu.Unlock()
		e.click(`[data-testid="continue-ask-again"]`)
		e.waitFor("the reply to the kept message", `[...document.querySelectorAll('[data-testid="message"]')].pop().innerText.includes("Here is the next step.")`)
		if n := count("And then?"); n != 1 {
			t.Errorf("after Ask again the message is stored %d times", n)
		}
		if n := count("Here is the next step."); n != 2 {
			t.Errorf("after Ask again the reply is stored %d times, want 2 (one per turn)", n)
		}
		e.viewportShot(shot("browser-continue-ask-again"))
	})
}

// kimiContext19 is a kimi-cli context.jsonl whose first user message is
// kimi-cli's checkpoint note, the next one Markdown.
const kimiContext19 = `{"role": "_system_prompt", "content": "You are Kimi Code CLI"}
{"role": "_checkpoint", "id": 0}
{"role":"user","content":"<system>CHECKPOINT 0</system>"}
{"role":"user","content":"# Fix the **flaky** test in ` + "`prepare_test.go`" + `"}
{"role":"assistant","content":"On it."}
`

// TestBrowserNarrowTokenAndSessions: at 400 px the token form fits the
// window and the missing token is explained in the page's words (the
// Access token box, not an HTTP header); the empty state names no side;
// with a long session open, the session list opens from the top (the
// Sessions button) and closes on a choice; titles are plain text (issue
// 19, §3 items 4, 5 and 7).
func TestBrowserNarrowTokenAndSessions(t *testing.T) {
	const token = "browser-test-token-19"
	atWidth(t, browserOptions{token: token}, func(e *browserEnv, shot func(string) string) {
		narrow := strings.HasSuffix(shot(""), "-400.png")
		e.importSession(longSession(t, "long", 60))
		if status, body := e.api("POST", "/v1/sessions/import?format=kimi&agent=tester&id=kimi-demo", kimiContext19); status != http.StatusCreated {
			t.Fatalf("kimi import: %d %v", status, body)
		}
		e.open("/")
		// The sessions and the agents are asked for at once, and either
		// refusal may be the one the list's status slot shows last.
		e.waitFor("the token form and the error", `!document.querySelector('[data-testid="token-form"]').hidden && document.querySelector('#sessions-status .error-box')`)
		var top struct {
			PageWidth int     `json:"pageWidth"`
			FormRight float64 `json:"formRight"`
			Error     string  `json:"error"`
			Message   string  `json:"message"`
			Empty     string  `json:"empty"`
		}
		e.eval(`JSON.stringify({pageWidth: document.documentElement.scrollWidth,
			formRight: Math.max(...[...document.querySelectorAll('[data-testid="token-form"], [data-testid="token-form"] *')].map(el => el.getBoundingClientRect().right)),
			error: document.querySelector('#sessions-status .error-box').innerText,
			message: document.querySelector('#token-message').textContent,
			empty: document.querySelector('[data-testid="empty-state-text"]').textContent})`, &top)
		width := e.evalInt(`innerWidth`)
		if top.PageWidth > width || top.FormRight > float64(width) {
			t.Errorf("the token form overflows: page %d px, form to %.0f px, window %d px", top.PageWidth, top.FormRight, width)
		}
		for _, s := range []string{top.Error, top.Message} {
			if strings.Contains(s, "header") || strings.Contains(s, "Authorization") || strings.Contains(s, "Bearer") {
				t.Errorf("the page speaks of HTTP headers: %q", s)
			}
		}
		if !strings.Contains(top.Error, "This server needs an access token.") || !strings.Contains(top.Error, "Access token box at the top of the page") {
			t.Errorf("the token error: %q", top.Error)
		}
		if strings.Contains(top.Empty, "left") {
			t.Errorf("the empty state says %q", top.Empty)
		}
		e.viewportShot(shot("browser-token"))

		e.do("enter the token",
			chromedp.SendKeys(chromedp.CSS(`[data-testid="token-input"]`), token),
			chromedp.Click(chromedp.CSS(`[data-testid="token-save"]`)),
		)
		kimi := `[data-testid="session-item"][data-session-id="kimi-demo"]`
		e.waitFor("the sessions", `document.querySelector('`+kimi+`')`)
		if title := e.evalString(`document.querySelector('` + kimi + ` [data-testid="session-item-title"]').textContent`); title != "Fix the flaky test in prepare_test.go" {
			t.Errorf("the kimi-cli import's title: %q", title)
		}

		e.click(`[data-testid="session-item"][data-session-id="long"]`)
		e.waitFor("121 messages", `document.querySelectorAll('[data-testid="message"]').length === 121`)
		e.do("scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
		toggle := e.evalString(`document.querySelector('[data-testid="sessions-toggle"]').checkVisibility() ? "shown" : "hidden"`)
		if !narrow {
			if toggle != "hidden" {
				t.Errorf("the Sessions button shows at 1280 px, beside the list")
			}
			return
		}
		if toggle != "shown" {
			t.Fatalf("no Sessions button at the top")
		}
		if y := e.evalInt(`Math.round(document.querySelector('.sessions-panel').getBoundingClientRect().top + scrollY)`); y < 5000 {
			t.Errorf("the session list starts at %d px: the test needs it far down", y)
		}
		e.click(`[data-testid="sessions-toggle"]`)
		e.waitFor("the list on screen", inViewport(kimi))
		if e.evalString(`document.querySelector('[data-testid="sessions-toggle"]').getAttribute('aria-expanded')`) != "true" {
			t.Errorf("the Sessions button is not expanded")
		}
		e.viewportShot(shot("browser-narrow-sessions"))
		e.click(kimi)
		e.waitFor("the kimi session, the list closed", `(document.querySelector('[data-testid="session-id"]') || {}).textContent === "kimi-demo" && !document.body.classList.contains("sessions-open")`)
		// Escape closes the list too.
		e.click(`[data-testid="sessions-toggle"]`)
		e.do("press Escape", chromedp.KeyEvent("\x1b"))
		e.waitFor("the list closed", `!document.body.classList.contains("sessions-open") && document.activeElement === document.querySelector('[data-testid="sessions-toggle"]')`)
	})
}
