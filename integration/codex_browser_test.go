package integration

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakeresponses"
)

// The page over a Codex thread (issue 42, "done when": the session and its
// compactions appear on the page with their fidelity reports). The
// requests are Codex-shaped (its headers, its items, its injected
// context) with synthetic texts; the gateway and kompact's own compaction
// are gateway_codex_test.go's (apitest.CodexAgents over
// apitest.CodexUpstream, with codexSummary).

// codexPageThread is the thread the test's Codex requests name.
const codexPageThread = "th-page"

// codexItem is a Responses message item of role with text.
func codexItem(role, text string) string {
	part := map[bool]string{false: "input_text", true: "output_text"}[role == "assistant"]
	return `{"type":"message","role":"` + role + `","content":[{"type":"` + part + `","text":` + apitest.JSONString(text) + `}]}`
}

// codexRequest is a streamed Responses body of items; rest is what
// follows the input: Codex's tools (codexTools), or its title request's
// "text".
func codexRequest(items []string, rest string) string {
	return `{"model":"fake-model","stream":true,"input":[` + strings.Join(items, ",") + `],` + rest + `,"store":false}`
}

const codexTools = `"tools":[{"type":"function","name":"exec_command"}]`

// codexSend posts body to the cx agent's Responses face as Codex's TUI
// would on codexPageThread, its x-codex-turn-metadata request_kind kind
// (and compaction, for a compaction), and returns the answer's headers
// and body.
func codexSend(t *testing.T, e *browserEnv, kind, compaction, body string) (http.Header, string) {
	t.Helper()
	meta := fmt.Sprintf(`{"thread_id":%q,"request_kind":%q%s}`, codexPageThread, kind, compaction)
	h := http.Header{"Content-Type": {"application/json"}, "Originator": {"codex-tui"}, "Thread-Id": {codexPageThread},
		"Session-Id": {codexPageThread}, "X-Codex-Turn-Metadata": {meta}}
	resp := apitest.PostMessages(t, context.Background(), e.srv.URL+"/gateway/cx/v1/responses", h, body)
	out, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s request: %d %v %s", kind, resp.StatusCode, err, out)
	}
	return resp.Header, string(out)
}

// codexThreadOnPage drives a Codex thread through the gateway: its title
// request (a side call), two turns (the second reports a full window, so
// kompact precomputes), Codex's remote compaction (a compaction_trigger,
// answered from the precomputed summary) and the turn after it, which
// continues the thread's session. It returns the side call's session.
func codexThreadOnPage(t *testing.T, e *browserEnv) string {
	t.Helper()
	injected := []string{codexItem("developer", "Base instructions of the page test's agent."),
		codexItem("developer", "<permissions>sandbox: read-only</permissions>"),
		codexItem("user", "<environment_context>\n  <cwd>/w/page</cwd>\n</environment_context>")}
	ask := []string{"Please fix the lexer in internal/parse/lexer.go.", "Now run go test ./internal/parse."}
	title, _ := codexSend(t, e, "turn", "", codexRequest([]string{codexItem("user", "Name this task: "+ask[0])}, `"text":{"format":{"type":"json_schema","name":"title","schema":{"type":"object"}}}`))
	hist := append([]string{}, injected...)
	for _, q := range ask {
		hist = append(hist, codexItem("user", q))
		codexSend(t, e, "turn", "", codexRequest(hist, codexTools))
		hist = append(hist, codexItem("assistant", "ok"))
	}
	waitCodexPreview(t, e.srv.URL, codexPageThread)
	h, out := codexSend(t, e, "compaction", `,"compaction":{"trigger":"auto","implementation":"responses_compaction_v2","phase":"pre_turn"}`,
		codexRequest(append(hist, `{"type":"compaction_trigger"}`), codexTools))
	items := fakeresponses.StreamItems(out)
	if h.Get("X-Kompact-Forwarded") != "answered" || len(items) != 1 || !strings.Contains(items[0], `"type":"compaction"`) {
		t.Fatalf("the compaction was not answered with one compaction item: %v %s", h, out)
	}
	// Codex's history rebuilt after it: its base instructions, the user's
	// messages, its context, the compaction item, the next message.
	next := append([]string{injected[0], codexItem("user", ask[0]), codexItem("user", ask[1])}, injected[1:]...)
	h, _ = codexSend(t, e, "turn", "", codexRequest(append(next, items[0], codexItem("user", "Next: add a test for the lexer.")), codexTools))
	if got := h.Get("X-Kompact-Session"); got != codexPageThread {
		t.Fatalf("the turn after the compaction went to session %q, not the thread's", got)
	}
	return title.Get("X-Kompact-Session")
}

// TestBrowserCodexSession (issue 42): a Codex thread through the gateway's
// Responses face, as a person sees it on the page, opened at 1280 and at
// 400 px wide (a screenshot of each, and of its History). The list shows
// the thread's session and not Codex's title request; the session's note
// names the Responses API client (Codex) and its base_url; Codex's
// injected context messages are marked pinned; History has the answered
// compaction, an automatic compaction noted "(precomputed; Codex, remote,
// auto)" with what its summary kept; the summary message shows kompact's
// summary, the compaction that wrote it and its fidelity report, whose
// lost artifact is the path the summary left out; Codex's copy of the
// summary, which the turn after brings back, claims no compaction; the
// revision's note is at least 200 px wide, at both widths.
func TestBrowserCodexSession(t *testing.T) {
	// The title request is the fake's first answer: codexUsage's turns
	// come after it.
	c := &fakeresponses.Codex{Text: "ok", Usage: func(n int, k fakeresponses.Kind) fakeresponses.Usage { return codexUsage(n-1, k) }}
	fake := apitest.CodexUpstream(t, c, codexSummary)
	e := newBrowserEnv(t, browserOptions{agents: func(string) string { return apitest.CodexAgents(fake.URL) }})
	side := codexThreadOnPage(t, e)
	for _, w := range browserWidths {
		e.do("window width", chromedp.EmulateViewport(int64(w), 900))
		e.open("/#/s/" + codexPageThread)
		// Loaded anew at this width (the same address again is no load).
		e.do("reload", chromedp.Reload())
		codexSessionShown(t, e, side)
		rev := codexCompactionShown(t, e)
		if got := e.evalInt(`document.documentElement.scrollWidth`); got > w {
			t.Errorf("at %d px the page is %d px wide", w, got)
		}
		// The revision's note is at least 200 px wide: its Restore button
		// sits beside it only where there is room (under it in the side
		// column at 1280 px, where it left the note 150 px).
		if px := e.evalInt(rev + `.querySelector(".revision-note").clientWidth`); px < 200 {
			t.Errorf("at %d px History's note is %d px wide, want 200 or more", w, px)
		}
		e.screenshot(fmt.Sprintf("browser-codex-session-%d.png", w))
		// History scrolls in its side panel: shown on its own.
		e.do("scroll to History", chromedp.Evaluate[chromedp.Void](rev+`.scrollIntoView({block: "center"})`))
		e.viewportShot(fmt.Sprintf("browser-codex-history-%d.png", w))
	}
	e.checkNoJSErrors()
}

// codexSessionShown checks the page on codexPageThread: listed, side call
// aside; the note on its client; its pinned context marked.
func codexSessionShown(t *testing.T, e *browserEnv, side string) {
	t.Helper()
	item := func(id string) string {
		return `document.querySelector('#session-list [data-session-id="` + id + `"]')`
	}
	e.waitFor("the thread's session listed", item(codexPageThread)+` !== null`)
	if side == "" || side == codexPageThread || e.evalBool(item(side)+` !== null`) {
		t.Errorf("Codex's title request (session %q) is listed, or took the thread's id", side)
	}
	if badge := e.evalString(item(codexPageThread) + `.querySelector('[data-testid="session-gateway"]').title`); !strings.Contains(badge, "a Responses API client (Codex)'s, forwarded through /gateway/cx/v1") {
		t.Errorf("the list's gateway badge says %q, want it to name the Responses API client (Codex) and /gateway/cx/v1", badge)
	}
	e.waitFor("the session's note", `document.querySelector('[data-testid="session-gateway-note"]')?.innerText.includes("a Responses API client (Codex)")`)
	if code := e.evalString(`document.querySelector('[data-testid="session-gateway-note"] code').textContent`); code != "/gateway/cx/v1" {
		t.Errorf("the note gives the base_url %q, want /gateway/cx/v1", code)
	}
	pinned := e.listed(codexPageThread)["pinned"]
	e.waitFor("the pinned context", `document.querySelectorAll('[data-testid="pin-mark"]').length > 0`)
	var marked []string
	e.eval(`JSON.stringify([...document.querySelectorAll('[data-testid="message"]')].filter(m => m.querySelector('[data-testid="pin-mark"]')?.textContent === "pinned").map(m => m.dataset.id))`, &marked)
	if got := apitest.JSONText(t, marked); got != apitest.JSONText(t, pinned) || len(marked) != 3 {
		t.Errorf("the page marks %s pinned; the session pins %s (Codex's three context messages)", got, apitest.JSONText(t, pinned))
	}
}

// codexCompactionShown checks the answered compaction on the page: in
// History with its note and what it kept, and on the summary message with
// its fidelity report, Codex's copy of the summary claiming none. It
// returns the expression of the History item.
func codexCompactionShown(t *testing.T, e *browserEnv) string {
	t.Helper()
	rev := `document.querySelector('[data-testid="revision-item"][data-kind="auto_compaction"]')`
	e.waitFor("the compaction in History", rev+` !== null`)
	if text := e.evalString(rev + `.innerText`); !strings.Contains(text, "automatic compaction") || !strings.Contains(text, "(precomputed; Codex, remote, auto)") || !strings.Contains(text, "kept ") {
		t.Errorf("History's compaction says %q: want an automatic compaction, noted (precomputed; Codex, remote, auto), with what its summary kept", text)
	}
	card := `[data-testid="message"][data-kind="summary"]`
	e.waitFor("the summaries' compactions", `document.querySelector('#messages [data-covers-for]') && !document.querySelector('#messages [data-covers-for]:not([data-filled])')`)
	var covers []string
	e.eval(`JSON.stringify([...document.querySelectorAll('[data-testid="summary-covers"]')].map(c => c.textContent))`, &covers)
	if len(covers) != 1 || !strings.Contains(covers[0], "Covers 1 message") || !strings.Contains(covers[0], "compacted automatically") || !strings.Contains(covers[0], "revision 1") {
		t.Errorf("the summary cards say they come from %q: want one, revision 1's automatic compaction of 1 message", covers)
	}
	if text := e.evalString(`document.querySelector('` + card + `').innerText`); !strings.Contains(text, "KOMPACT-CODEX-SUMMARY") {
		t.Errorf("the summary message says %q", text)
	}
	e.waitFor("the summary's fidelity report", `document.querySelector('`+card+` [data-testid="fidelity"]') !== null`)
	e.click(card + ` [data-testid="fidelity"] > summary`)
	if f := e.readFidelity(card); !strings.HasPrefix(f.Counts, "Kept ") || !strings.Contains(apitest.JSONText(t, f.Lost), "internal/parse/lexer.go") {
		t.Errorf("the summary's fidelity report: %+v, want its counts and the lost path internal/parse/lexer.go", f)
	}
	return rev
}
