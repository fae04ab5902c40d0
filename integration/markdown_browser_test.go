package integration

import (
	"kompact/internal/testing/apitest"
	"slices"
	"strings"
	"testing"

	"kompact"
)

// markdownSession holds Markdown, and Markdown that tries to smuggle HTML,
// scripts and javascript: links into the page (issue 13, item 3).
func markdownSession(t *testing.T, id string) string {
	longLine := "fmt.Println(\"" + strings.Repeat("a long line that must scroll sideways ", 12) + "\")"
	summary := kompact.SummaryPrefix + "\n" +
		"<current_focus>\nShip **the parser** with `Prepare`.\n</current_focus>\n" +
		"<environment>\n- Go 1.26\n- SQLite\n</environment>\n" +
		"<completed_tasks>\n1. Wrote the tests\n2. Fixed the bug\n</completed_tasks>\n" +
		"<active_issues>\nNone.\n</active_issues>\n" +
		"<code_state>\n```go\n" + longLine + "\n```\n</code_state>\n" +
		"<important_context>\nSee [the spec](https://example.com/spec).\n</important_context>"
	doc := map[string]any{
		"id":    id,
		"agent": "tester",
		"messages": []any{
			map[string]any{"id": "m1", "role": "system", "content": "You are a **coding** agent."},
			map[string]any{"id": "m2", "role": "user", "content": summary},
			map[string]any{"id": "m3", "role": "user", "content": "# Plan\n\n" +
				"- **bold** and *em* and `code span`\n" +
				"- [safe](https://example.com/ok) [bad](javascript:window.__kompactXSS=11) [data](data:text/html,hi) [vb](vbscript:x)\n" +
				"- autolinks: <javascript:window.__kompactXSS=12> <https://auto.example/x> <mailto:dev@example.com>\n\n" +
				"<img src=x onerror=\"window.__kompactXSS=13\">\n\n" +
				"<script>window.__kompactXSS=14</script>\n\n" +
				"![pixel](javascript:window.__kompactXSS=15) ![remote](https://example.invalid/p.png)\n\n" +
				"main.py and www.example.com stay text."},
			map[string]any{"id": "m4", "role": "assistant",
				"content": "Here is the fix:\n\n```html\n<script>window.__kompactXSS=16</script>\n<a href=\"javascript:alert(1)\">x</a>\n" + longLine + "\n```\n\nDone.",
				"tool_calls": []any{map[string]any{"type": "function", "id": "call_1",
					"function": map[string]any{"name": "Bash", "arguments": `{"cmd": "go test ./..."}`}}},
			},
			map[string]any{"id": "m5", "role": "tool", "tool_call_id": "call_1", "content": "ok  \tkompact\t0.41s\n**not bold** <b>raw</b>"},
			map[string]any{"id": "m6", "role": "assistant", "content": "All green."},
			map[string]any{"id": "m7", "role": "user", "content": "Thanks."},
		},
	}
	return apitest.JSONText(t, doc)
}

// TestBrowserMarkdown: messages and summaries render Markdown into
// whitelisted elements only; no HTML, script or javascript: link gets
// through.
func TestBrowserMarkdown(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	e.importSession(markdownSession(t, "browser-markdown"))
	e.open("/#/s/browser-markdown")
	e.waitFor("7 messages", `document.querySelectorAll('[data-testid="message"]').length === 7`)

	var got struct {
		Ran        any      `json:"ran"`
		Scripts    int      `json:"scripts"`
		BadTags    []string `json:"badTags"`
		BadAttrs   []string `json:"badAttrs"`
		Hrefs      []string `json:"hrefs"`
		Heading    string   `json:"heading"`
		Strong     []string `json:"strong"`
		Em         []string `json:"em"`
		Code       []string `json:"code"`
		M3Text     string   `json:"m3Text"`
		FenceFont  string   `json:"fenceFont"`
		FenceWS    string   `json:"fenceWS"`
		FenceWide  bool     `json:"fenceWide"`
		FenceText  string   `json:"fenceText"`
		ToolFont   string   `json:"toolFont"`
		ToolText   string   `json:"toolText"`
		ToolStrong int      `json:"toolStrong"`
		CodeWidth  int      `json:"codeWidth"`
		GridWidth  int      `json:"gridWidth"`
		CodeFence  int      `json:"codeFence"`
		FocusBold  string   `json:"focusBold"`
		EnvItems   int      `json:"envItems"`
		Numbers    string   `json:"numbers"`
	}
	e.eval(`JSON.stringify((() => {
		const q = (s) => document.querySelector(s);
		const allowedTags = new Set(["P","H1","H2","H3","H4","H5","H6","UL","OL","LI","BLOCKQUOTE","TABLE","THEAD","TBODY","TR","TH","TD","EM","STRONG","S","A","CODE","PRE","BR","HR","SPAN"]);
		const allowedAttrs = new Set(["class","href","target","rel","title","start","data-lang"]);
		const badTags = [], badAttrs = [], hrefs = [];
		for (const md of document.querySelectorAll('#messages .md')) {
			for (const el of md.querySelectorAll('*')) {
				if (!allowedTags.has(el.tagName)) badTags.push(el.tagName);
				for (const a of el.attributes) if (!allowedAttrs.has(a.name)) badAttrs.push(el.tagName + "[" + a.name + "]");
				if (el.hasAttribute("href")) hrefs.push(el.getAttribute("href"));
			}
		}
		const m3 = q('[data-id="m3"] .msg-body');
		const fence = q('[data-id="m4"] pre.md-code');
		const tool = q('[data-id="m5"] [data-testid="text-part"]');
		const card = q('[data-id="m2"] [data-testid="summary-card"]');
		const codeSec = card.querySelector('[data-section="code_state"]');
		return {
			ran: window.__kompactXSS ?? null,
			scripts: document.querySelectorAll('#messages script, #messages img, #messages iframe').length,
			badTags, badAttrs, hrefs,
			heading: (m3.querySelector('h1') || {}).textContent || "",
			strong: [...m3.querySelectorAll('strong')].map(e => e.textContent),
			em: [...m3.querySelectorAll('em')].map(e => e.textContent),
			code: [...m3.querySelectorAll('code')].map(e => e.textContent),
			m3Text: m3.innerText,
			fenceFont: getComputedStyle(fence).fontFamily,
			fenceWS: getComputedStyle(fence).whiteSpace,
			fenceWide: fence.scrollWidth > fence.clientWidth,
			fenceText: fence.textContent,
			toolFont: getComputedStyle(tool).fontFamily,
			toolText: tool.textContent,
			toolStrong: tool.querySelectorAll('strong').length,
			codeWidth: Math.round(codeSec.getBoundingClientRect().width),
			gridWidth: Math.round(card.querySelector('.summary-sections').getBoundingClientRect().width),
			codeFence: codeSec.querySelectorAll('pre.md-code').length,
			focusBold: (card.querySelector('[data-section="current_focus"] strong') || {}).textContent || "",
			envItems: card.querySelectorAll('[data-section="environment"] li').length,
			numbers: String(card.querySelector('[data-section="completed_tasks"] ol').start),
		};
	})())`, &got)

	if got.Ran != nil || got.Scripts != 0 {
		t.Errorf("a payload ran (%v) or left %d script/img/iframe elements", got.Ran, got.Scripts)
	}
	if len(got.BadTags) != 0 || len(got.BadAttrs) != 0 {
		t.Errorf("elements or attributes outside the whitelist: %v %v", got.BadTags, got.BadAttrs)
	}
	wantHrefs := []string{"https://example.com/spec", "https://example.com/ok", "https://auto.example/x", "mailto:dev@example.com", "https://example.invalid/p.png"}
	if !slices.Equal(got.Hrefs, wantHrefs) {
		t.Errorf("links %q, want %q", got.Hrefs, wantHrefs)
	}
	if got.Heading != "Plan" || !slices.Equal(got.Strong, []string{"bold"}) || !slices.Equal(got.Em, []string{"em"}) || !slices.Equal(got.Code, []string{"code span"}) {
		t.Errorf("m3 Markdown: heading %q strong %q em %q code %q", got.Heading, got.Strong, got.Em, got.Code)
	}
	for _, text := range []string{
		"[bad](javascript:window.__kompactXSS=11)", "<javascript:window.__kompactXSS=12>",
		`<img src=x onerror="window.__kompactXSS=13">`, "<script>window.__kompactXSS=14</script>",
		"[image: remote]", "main.py and www.example.com stay text.",
	} {
		if !strings.Contains(got.M3Text, text) {
			t.Errorf("m3 does not show %q as text:\n%s", text, got.M3Text)
		}
	}
	if !strings.Contains(got.FenceFont, "monospace") || got.FenceWS != "pre" || !got.FenceWide || !strings.Contains(got.FenceText, "<script>window.__kompactXSS=16</script>") {
		t.Errorf("fenced code: font %q, white-space %q, scrolls sideways %v, text %q", got.FenceFont, got.FenceWS, got.FenceWide, got.FenceText)
	}
	if !strings.Contains(got.ToolFont, "monospace") || got.ToolStrong != 0 || !strings.Contains(got.ToolText, "**not bold** <b>raw</b>") {
		t.Errorf("tool output: font %q, %d strong, text %q", got.ToolFont, got.ToolStrong, got.ToolText)
	}
	if got.CodeFence != 1 || got.CodeWidth < got.GridWidth-2 || got.FocusBold != "the parser" || got.EnvItems != 2 {
		t.Errorf("summary card: code_state %d px of %d, %d fences; focus bold %q; %d environment items", got.CodeWidth, got.GridWidth, got.CodeFence, got.FocusBold, got.EnvItems)
	}
	if got.Numbers != "1" {
		t.Errorf("the ordered list starts at %s", got.Numbers)
	}
	e.screenshot("browser-markdown.png")
	e.checkNoJSErrors()
}
