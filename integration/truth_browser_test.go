package integration

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakellm"
	"kompact/kimicode"
)

// The page tells the truth (issue 40 §2), offers what the agent's type does
// (issue 39 §4), and shows one version of the session on screen (issue 41 §8).

// compactOverAPI compacts session id over the API with the fake LLM's summary and
// answers the outcome.
func (e *browserEnv) compactOverAPI(id, body string) map[string]any {
	e.t.Helper()
	e.llm.SetDefault(fakellm.Answer(fakellm.Text("<current_focus>\nthe questions so far\n</current_focus>")))
	status, out := e.api("POST", "/v1/sessions/"+id+"/actions/compact_conversation", body)
	if status != http.StatusOK || out["status"] != "compacted" {
		e.t.Fatalf("compact %s: %d %v", id, status, out)
	}
	return out
}

// TestBrowserStaleDeepLink: a link to a message a compaction replaced (saved before it)
// shows the session at its latest messages, drawn, with a note that says it has no such
// message and how many it has; "Go to message" past the end says how many messages the
// session has. Today's main drew no message at all under "N messages".
func TestBrowserStaleDeepLink(t *testing.T) {
	atWidth(t, browserOptions{}, func(e *browserEnv, shot func(string) string) {
		e.importSession(longSession(t, "stale", 8)) // sys u1 a1 … u8 a8
		e.compactOverAPI("stale", `{}`)
		n := len(e.storedMessages("stale"))
		last := e.storedMessages("stale")[n-1]["id"].(string)
		e.open("/#/s/stale/m/u1")
		e.waitFor("the note", `!!document.querySelector('[data-testid="message-not-found"]')`)
		want := fmt.Sprintf("This session has no message u1: a compaction may have replaced it with its summary. It has %d messages; showing the latest.", n)
		if got := e.evalString(`document.querySelector('[data-testid="message-not-found"]').textContent`); got != want {
			t.Errorf("note %q\nwant %q", got, want)
		}
		e.waitFor("the latest message drawn", `!!document.querySelector('[data-testid="message"][data-id="`+last+`"]')`)
		if drawn := e.evalInt(`document.querySelectorAll('[data-testid="message"]').length`); drawn != n {
			t.Errorf("%d messages drawn, want %d", drawn, n)
		}
		e.viewportShot(shot("browser-stale-link"))

		e.do("go to #99", chromedp.SetValue(chromedp.CSS(`#goto-input`), "#99"), chromedp.Click(chromedp.CSS(`[data-testid="goto-go"]`), chromedp.NodeVisible))
		e.waitFor("the note of #99", `(document.querySelector('[data-testid="message-not-found"]') || {}).textContent === "This session has `+fmt.Sprint(n)+` messages: there is no message #99."`)
	})
}

// TestBrowserCoversPinned: the summary card of a compaction that kept a pinned message
// says what the compaction replaced, as the server reported it: today's main read the
// pinned copy after the summary as the first message that stayed, and counted fewer.
func TestBrowserCoversPinned(t *testing.T) {
	atWidth(t, browserOptions{}, func(e *browserEnv, shot func(string) string) {
		e.importSession(longSession(t, "pinc", 8)) // sys u1 a1 … u8 a8
		if status, body := e.api("PATCH", "/v1/sessions/pinc/settings", `{"pinned": ["a1"]}`); status != http.StatusOK {
			t.Fatalf("pin: %d %v", status, body)
		}
		out := e.compactOverAPI("pinc", `{}`)
		res := out["result"].(map[string]any)
		var ids []string
		for _, m := range e.storedMessages("pinc") {
			ids = append(ids, m["id"].(string))
		}
		if ids[2] != "a1" {
			t.Fatalf("the pinned message is not after the summary: %v", ids)
		}
		replaced := 17 - (len(ids) - 1) // every message but the kept system message, the pinned one and the tail
		e.open("/#/s/pinc")
		e.waitFor("the covers line", `(document.querySelector('[data-testid="summary-covers"]') || {}).textContent`)
		covers := e.evalString(`document.querySelector('[data-testid="summary-covers"]').textContent`)
		want := fmt.Sprintf("Covers %d messages (#2–#%d before it ran)", replaced, replaced+2)
		if !strings.Contains(covers, want) {
			t.Errorf("covers %q\nwant %q", covers, want)
		}
		m := regexp.MustCompile(`estimated tokens ([\d,]+) → ([\d,]+)`).FindStringSubmatch(covers)
		if m == nil || m[1] != fmt.Sprint(res["estimated_tokens_before"]) || m[2] != fmt.Sprint(res["estimated_tokens_after"]) || res["replaced_messages"] != float64(replaced) {
			t.Errorf("covers %q; the server reported %v → %v, %v replaced", covers, res["estimated_tokens_before"], res["estimated_tokens_after"], res["replaced_messages"])
		}
		e.viewportShot(shot("browser-covers-pinned"))
	})
}

// kimiCodeBrowserAgents: "kc" compacts the Kimi Code way, "tester" the kimi way.
func kimiCodeBrowserAgents(url string) string {
	return fmt.Sprintf(browserAgents, url) + `  kc:
    llm:
      base_url: ` + url + `
      model: fake-chat
      api_key_env: ` + browserKeyEnv + `
    compaction:
      enabled: true
      type: kimi-code
`
}

// TestBrowserKimiCodeOffers: a kimi-code agent's session is offered what its type does:
// no range marks and no "Compact up to here" in a message's menu, no range controls;
// its kimi-code summary is shown as a summary card. Today's main offered both, and drew
// the summary as a plain user message.
func TestBrowserKimiCodeOffers(t *testing.T) {
	texts := kimicode.Builtin()
	kimicode.UseTexts(texts)
	atWidth(t, browserOptions{agents: kimiCodeBrowserAgents}, func(e *browserEnv, shot func(string) string) {
		e.importSession(apitest.JSONText(t, map[string]any{"id": "kcs", "agent": "kc", "messages": []any{
			map[string]any{"id": "sys", "role": "system", "content": "You are a coder."},
			map[string]any{"id": "u1", "role": "user", "content": "Read a.txt."},
			map[string]any{"id": "sum", "role": "user", "content": texts.Prefix() + "\nRead a.txt: it says hello."},
			map[string]any{"id": "note", "role": "user", "content": texts.ContinuationText()},
			map[string]any{"id": "a1", "role": "assistant", "content": "Continuing."},
		}}))
		e.open("/#/s/kcs")
		e.waitFor("the menus", `document.querySelectorAll('[data-testid="message-menu"]').length === 5`)
		e.waitFor("the summary card", `!!document.querySelector('[data-testid="message"][data-id="sum"][data-kind="summary"] [data-testid="summary-card"]')`)
		if hidden := evaluate[bool](e, `document.getElementById("range-controls").hidden`); !hidden {
			t.Errorf("the range controls show for a kimi-code agent")
		}
		e.click(`[data-testid="message"][data-id="a1"] [data-testid="message-menu"]`)
		var items []string
		e.eval(`JSON.stringify([...document.querySelectorAll('[data-id="a1"] [data-testid="message-menu-list"] [role="menuitem"]')].map(b => b.dataset.testid))`, &items)
		if got := strings.Join(items, ","); got != "pin-toggle" {
			t.Errorf("the menu of a kimi-code session's message offers %s, want pin-toggle only", got)
		}
		e.viewportShot(shot("browser-kimi-code-offers"))
		e.click(`[data-testid="message"][data-id="a1"] [data-testid="message-menu"]`)

		// A kimi session on the same page is offered both, its summary in kimi's form.
		e.importSession(longSession(t, "kimis", 3))
		e.open("/#/s/kimis")
		e.waitFor("the menus", `document.querySelectorAll('[data-testid="message-menu"]').length === 7`)
		e.click(`[data-testid="message"][data-id="a3"] [data-testid="message-menu"]`)
		e.eval(`JSON.stringify([...document.querySelectorAll('[data-id="a3"] [data-testid="message-menu-list"] [role="menuitem"]')].map(b => b.dataset.testid))`, &items)
		if got := strings.Join(items, ","); got != "mark-start,mark-end,pin-toggle,compact-up-to-here" {
			t.Errorf("the menu of a kimi session's message offers %s", got)
		}
	})
}

// TestBrowserWindowReadsAgree: the window's first load reads the tail and the first
// message in parallel; when one of them answers another version (the session changed
// between them), the page reads again rather than show two versions at once. The page's
// first read of the first message is made to answer an older version, with other text.
func TestBrowserWindowReadsAgree(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	e.importSession(longSession(t, "agree", 150)) // 301 messages: the tail read does not hold the first
	stale := `(() => {
		const real = window.fetch;
		let once = true;
		window.fetch = async (url, opts) => {
			const res = await real(url, opts);
			if (!once || !String(url).includes("/messages?offset=0&limit=1")) return res;
			once = false;
			const ans = await res.json();
			ans.version -= 1;
			ans.messages[0].message.content = [{type: "text", text: "STALE SYSTEM MESSAGE"}];
			return new Response(JSON.stringify(ans), {status: 200, headers: {"Content-Type": "application/json"}});
		};
	})();`
	if _, err := chromedp.Call(e.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: stale}); err != nil {
		t.Fatalf("an older first read: %v", err)
	}
	e.open("/#/s/agree")
	e.waitFor("301 messages", `(document.querySelector('[data-testid="message-count"]') || {}).textContent === "301 messages" && !!document.querySelector('[data-testid="message"][data-id="a150"]')`)
	first, err := chromedp.Run(e.ctx, chromedp.Evaluate[string](`(async () => JSON.stringify((await import("/window.js")).messageAt(0) || null))()`, chromedp.EvalAwaitPromise))
	if err != nil {
		e.fail("read the window's first message", err)
	}
	if strings.Contains(first, "STALE SYSTEM MESSAGE") || !strings.Contains(first, "You are an agent") {
		t.Errorf("the window holds the first message %s: of an older version than its tail", first)
	}
	if reads := e.evalInt(`performance.getEntriesByType("resource").filter(r => r.name.includes("/messages?offset=0&limit=1")).length`); reads < 2 {
		t.Errorf("the first message was read %d times; want it read again", reads)
	}
	e.checkNoJSErrors()
}
