package integration

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"kompact"
	"kompact/kimi"

	"github.com/chromedp/chromedp"
)

// estimateTexts are texts whose code points are easy to miscount: empty,
// ASCII, CJK, emoji with modifiers and joiners, flags, combining marks,
// characters beyond the Basic Multilingual Plane (two UTF-16 units each),
// control characters and line separators.
var estimateTexts = []string{
	"",
	"a",
	"abc",
	"abcd",
	"Let me search for Prepare.",
	"你好，世界",
	"こんにちは、世界。テストです",
	"안녕하세요",
	"👍",
	"👍🏽",
	"👨‍👩‍👧‍👦",
	"🇫🇷🇯🇵",
	"e\u0301te\u0301",
	"𝄞 𠀀 𐍈",
	"tab\tnewline\nnul\x00end",
	"line\u2028separator\u2029paragraph",
	"\ufeffBOM and \ufffd replacement",
	"mixed: ASCII, 中文, emoji 🎉, and Ünïcödé",
	strings.Repeat("ü", 7),
	strings.Repeat("😀", 5),
}

// estimateCases returns message lists for the token estimate: each text
// alone, every text in one message, several text parts, and text beside
// the parts the estimate leaves out (think, media, data, tool calls).
func estimateCases() map[string][]kompact.Message {
	args := `{"pattern": "日本語 🎉"}`
	cases := map[string][]kompact.Message{
		"no messages": {},
		"no content":  {{Role: kompact.RoleAssistant}},
		"empty text":  {{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("")}}},
		"sum then floor": {
			{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("abc")}},
			{Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart("d")}},
			{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("👍🏽e")}},
		},
		"mixed parts": {
			{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart("You are a coding agent. 你好")}},
			{Role: kompact.RoleAssistant, Content: []kompact.Part{
				kompact.ThinkPart("Thinking is not counted: 思考 🤔"),
				kompact.TextPart("Let me search. 🔍"),
				{Type: kompact.PartImage, URL: "https://example.invalid/a.png"},
				kompact.TextPart("二つ目"),
				{Type: kompact.PartAudio, URL: "https://example.invalid/a.mp3"},
				{Type: kompact.PartVideo, URL: "https://example.invalid/a.mp4"},
			}, ToolCalls: []kompact.ToolCall{{ID: "call_1", Name: "Grep", Arguments: &args}}},
			{Role: kompact.RoleTool, ToolCallID: "call_1", Content: []kompact.Part{
				kompact.TextPart("no matches ✓"),
				{Type: kompact.PartData, Data: []byte(`{"text":"not counted either"}`)},
			}},
		},
	}
	var all []kompact.Part
	for i, s := range estimateTexts {
		cases[fmt.Sprintf("text %d %q", i, s)] = []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(s)}}}
		all = append(all, kompact.TextPart(s))
	}
	cases["all texts as parts"] = []kompact.Message{{Role: kompact.RoleUser, Content: all}}
	cases["all texts as one"] = []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(strings.Join(estimateTexts, ""))}}}
	return cases
}

// sectionTexts are summaries for the section check: none, all, some, tags
// half there, in another case or order, with non-ASCII bodies.
func sectionTexts() []string {
	var full strings.Builder
	for _, name := range kompact.SectionNames {
		fmt.Fprintf(&full, "<%s>\n- 进展 🎉 %s\n</%s>\n", name, name, name)
	}
	first, second := kompact.SectionNames[0], kompact.SectionNames[1]
	return []string{
		"",
		"   \n\t",
		"Just prose, no sections. 只是文字 😀",
		full.String(),
		"Before the sections 前言\n" + full.String() + "and after 后记 👋",
		strings.Replace(full.String(), "</"+second+">", "", 1),
		strings.Replace(full.String(), "<"+first+">", "", 1),
		"<" + first + ">only the open tag",
		"only the close tag</" + first + ">",
		"</" + first + ">closed before opened<" + first + ">",
		"<" + strings.ToUpper(first) + ">upper case</" + strings.ToUpper(first) + ">",
		"< " + first + " >spaced</ " + first + " >",
		"<" + first + "/>",
		"<" + first + "></" + first,
		"<" + first + "><" + first + ">twice</" + first + "></" + first + ">",
		"```\n<" + first + ">in a code fence</" + first + ">\n```",
		"<" + first + ">日本語</" + first + "><" + second + ">👨‍👩‍👧‍👦</" + second + ">",
		"<current focus>no underscore</current focus>",
		"\u3008" + first + "\u3009CJK angle brackets\u3008/" + first + "\u3009",
		kompact.SummaryPrefix + "\n<" + first + ">with the prefix</" + first + ">",
	}
}

// pageEstimate is what the page's estimate.js and summary.js compute.
type pageEstimate struct {
	Prefix   string           `json:"prefix"`
	Sections []string         `json:"sections"`
	Tokens   map[string]int   `json:"tokens"`
	Chars    map[string][]int `json:"chars"`
	Points   []int            `json:"points"`
	Missing  [][]string       `json:"missing"`
}

// TestBrowserEstimateAndSectionsMatchServer: the page's token estimate
// (estimate.js) and its check for missing summary sections (summary.js's
// missingOf, which the preview editor runs as you type) give exactly the
// server's values (kompact.EstimateTokens, Message.TextLen,
// kimi.MissingSections) on texts that are easy to get wrong in
// JavaScript, whose strings count UTF-16 units.
func TestBrowserEstimateAndSectionsMatchServer(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	e.open("/")
	e.waitFor("the page", `document.querySelector('[data-testid="session-list"]') !== null`)

	cases := estimateCases()
	msgs, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	texts := sectionTexts()
	textsJSON, err := json.Marshal(texts)
	if err != nil {
		t.Fatal(err)
	}
	pointsJSON, err := json.Marshal(estimateTexts)
	if err != nil {
		t.Fatal(err)
	}
	// The modules are the page's own (the same URLs app.js imports);
	// loadFormat asks the server for the prefix and the section names.
	expr := `(async () => {
		const est = await import("/estimate.js");
		const sum = await import("/summary.js");
		await sum.loadFormat();
		const cases = ` + string(msgs) + `;
		const out = { prefix: sum.format.prefix, sections: sum.format.sections.map(([name]) => name), tokens: {}, chars: {} };
		for (const [name, msgs] of Object.entries(cases)) {
			out.tokens[name] = est.estimateTokens(msgs);
			out.chars[name] = msgs.map((m) => est.textChars(m));
		}
		out.points = ` + string(pointsJSON) + `.map((s) => est.codePoints(s));
		out.missing = ` + string(textsJSON) + `.map((s) => sum.missingOf(s));
		return JSON.stringify(out);
	})()`
	s, err := chromedp.Run(e.ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		e.fail("run the page's estimate", err)
	}
	var got pageEstimate
	if err := json.Unmarshal([]byte(s), &got); err != nil {
		t.Fatalf("page answer %s: %v", s, err)
	}

	if got.Prefix != kompact.SummaryPrefix || !slices.Equal(got.Sections, kompact.SectionNames) {
		t.Errorf("page's summary format: prefix %q sections %q, want %q %q", got.Prefix, got.Sections, kompact.SummaryPrefix, kompact.SectionNames)
	}
	for name, msgs := range cases {
		if want := kompact.EstimateTokens(msgs); got.Tokens[name] != want {
			t.Errorf("%s: page estimates %d tokens, the server %d", name, got.Tokens[name], want)
		}
		want := make([]int, len(msgs))
		for i := range msgs {
			want[i] = msgs[i].TextLen()
		}
		if !slices.Equal(got.Chars[name], want) {
			t.Errorf("%s: page counts text code points %v, the server %v", name, got.Chars[name], want)
		}
	}
	for i, text := range estimateTexts {
		m := kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(text)}}
		if i >= len(got.Points) {
			t.Errorf("codePoints(%q): no answer from the page", text)
		} else if got.Points[i] != m.TextLen() {
			t.Errorf("codePoints(%q): page %d, the server %d", text, got.Points[i], m.TextLen())
		}
	}
	for i, text := range texts {
		want := kimi.MissingSections(text)
		if want == nil {
			want = []string{}
		}
		if i >= len(got.Missing) || !slices.Equal(got.Missing[i], want) {
			var page []string
			if i < len(got.Missing) {
				page = got.Missing[i]
			}
			t.Errorf("missing sections of %q: page %q, the server %q", text, page, want)
		}
	}

	// A stored session with all of it, as the page gets it from the server:
	// the session view shows the server's estimate.
	stored := slices.Concat(cases["mixed parts"], cases["all texts as parts"], cases["sum then floor"])
	doc, err := json.Marshal(map[string]any{"id": "estimate", "agent": "tester", "messages": stored})
	if err != nil {
		t.Fatal(err)
	}
	e.importSession(string(doc))
	e.open("/#/s/estimate")
	e.waitFor("the session", `document.querySelector('[data-testid="session-tokens"]') !== null`)
	want := fmt.Sprintf("~%d tokens", kompact.EstimateTokens(stored))
	if shown := e.evalString(`document.querySelector('[data-testid="session-tokens"]').textContent`); shown != want {
		t.Errorf("the session view shows %q, the server's estimate is %q", shown, want)
	}
	e.checkNoJSErrors()
}
