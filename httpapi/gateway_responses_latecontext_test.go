package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"kompact/internal/testing/fakeresponses"
)

// cxEnvironment is a Codex <environment_context> message for cwd.
func cxEnvironment(cwd string) string {
	return cxMessage("user", "<environment_context>\n  <cwd>"+cwd+"</cwd>\n  <shell>bash</shell>\n</environment_context>")
}

// TestResponsesLaterContextPinned (issue 42 §2): Codex's
// <environment_context> of a new working directory, sent in a later turn
// of the thread (a `codex exec resume` from elsewhere), is pinned when
// the gateway appends it, so that the next compaction's request does not
// hold it while the compacted session keeps it verbatim, after the ones
// of the first turn. On the main of 9b330d7 only the session's first
// messages were pinned: the later one went to kompact's LLM as the user's
// words.
func TestResponsesLaterContextPinned(t *testing.T) {
	c := &fakeresponses.Codex{Text: "ok"}
	fake := fakeresponses.New(t, func(r fakeresponses.Request) fakeresponses.Answer {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			return fakeresponses.Answer{Events: []string{
				`data: {"id":"c1","object":"chat.completion.chunk","model":"fake-model","choices":[{"index":0,"delta":{"role":"assistant","content":"SUMMARY: parse.go fixed."},"finish_reason":"stop"}]}` + "\n\n",
				"data: [DONE]\n\n"}}
		}
		return c.Answer(r)
	})
	srv := responsesServer(t, fake, "}\n    compaction: {enabled: true, type: kimi")
	hist := []string{
		cxMessage("developer", "BASE-INSTRUCTIONS-XYZ: you are a test agent."),
		cxMessage("developer", "SKILLS-AND-PERMISSIONS-XYZ: sandbox read-only."),
		cxEnvironment("/w/cwd-xyz"),
		cxMessage("user", "Please fix the parser in parse.go."),
	}
	post := func(items ...string) {
		t.Helper()
		hist = append(hist, items...)
		resp, got, err := postResponses(t, srv.URL, "", cxBody(hist...), codexHeaders())
		if err != nil || resp.StatusCode != 200 || resp.Header.Get("X-Kompact-Session") != "th-1" {
			t.Fatalf("turn %d: %v %v %s", len(hist), err, resp, got)
		}
	}
	post()
	post(cxMessage("assistant", "I fixed parse.go line 12."), cxEnvironment("/w/CWD-NEW-XYZ"), cxMessage("user", "Now update the docs in docs/parse.md."))
	post(cxMessage("assistant", "Docs updated."), cxMessage("user", "Run the linter."), cxMessage("assistant", "Lint is clean."), cxMessage("user", "Thanks."))
	session := getJSON(t, srv.URL+"/v1/sessions/th-1")
	if texts := pinnedTexts(t, session); len(texts) != 4 || !strings.Contains(texts[3], "/w/CWD-NEW-XYZ") {
		t.Fatalf("the session pins %q, want Codex's three context messages and the later <environment_context>", texts)
	}

	sent := compactSent(t, srv.URL, fake, "th-1")
	if !strings.Contains(sent, "update the docs") {
		t.Fatalf("the compaction request holds no words of the user's after the later context: %q", sent)
	}
	if strings.Contains(sent, "CWD-NEW-XYZ") {
		t.Errorf("the compaction request holds the later <environment_context>: %s", sent)
	}
	after := getJSON(t, srv.URL+"/v1/sessions/th-1")
	texts := pinnedTexts(t, after)
	if len(texts) != 4 || !strings.Contains(texts[2], "/w/cwd-xyz") || !strings.Contains(texts[3], "/w/CWD-NEW-XYZ") {
		t.Errorf("after the compaction the session pins %q", texts)
	}
	if b, _ := json.Marshal(after["messages"]); !strings.Contains(string(b), "/w/CWD-NEW-XYZ") {
		t.Errorf("the compacted session lost the later <environment_context>: %s", b)
	}
}

// TestResponsesContinuedContextPinned (issue 42 §2): in the turn that
// continues a compaction the gateway answered, the context Codex sends
// after its compaction item (an <environment_context> of a new working
// directory) is appended to the compacted session pinned, and stays out
// of the next compaction's request. On the main of 9b330d7 it was
// appended unpinned.
func TestResponsesContinuedContextPinned(t *testing.T) {
	x := newCxThread(t, cxEnvironment("/w"))
	x.firstTurns("")
	item := x.compact("")
	pinnedBefore := len(pinnedTexts(t, getJSON(t, x.srv.URL+"/v1/sessions/th-1")))
	next := []string{x.base[0], cxMessage("user", "Hello there."), cxMessage("user", "Second question."), x.base[1], item,
		cxEnvironment("/w/CWD-NEW-XYZ"), cxMessage("user", "Next question, about docs/parse.md.")}
	for _, more := range [][]string{nil, {cxMessage("assistant", "ok"), cxMessage("user", "And the linter.")}, {cxMessage("assistant", "ok"), cxMessage("user", "Thanks.")}} {
		next = append(next, more...)
		x.post("a turn after the answered compaction", next, "th-1")
	}
	texts := pinnedTexts(t, getJSON(t, x.srv.URL+"/v1/sessions/th-1"))
	if len(texts) != pinnedBefore+1 || !strings.Contains(texts[len(texts)-1], "/w/CWD-NEW-XYZ") {
		t.Fatalf("the continued session pins %q (%d before the turn), want the later <environment_context> added", texts, pinnedBefore)
	}
	sent := compactSent(t, x.srv.URL, x.fake, "th-1")
	if !strings.Contains(sent, "about docs/parse.md") {
		t.Fatalf("the compaction request holds no words of the user's after the later context: %q", sent)
	}
	if strings.Contains(sent, "CWD-NEW-XYZ") {
		t.Errorf("the compaction request holds the later <environment_context>: %s", sent)
	}
}

// pinnedTexts is the text of each of session's pinned messages, in the
// pinned list's order.
func pinnedTexts(t *testing.T, session map[string]any) []string {
	t.Helper()
	byID := map[string]string{}
	msgs, _ := session["messages"].([]any)
	for _, m := range msgs {
		m := m.(map[string]any)
		b, _ := json.Marshal(m["content"])
		id, _ := m["id"].(string)
		byID[id] = string(b)
	}
	var out []string
	pins, _ := session["pinned"].([]any)
	for _, p := range pins {
		text, ok := byID[p.(string)]
		if !ok {
			t.Fatalf("the session pins %v, which is none of its messages", p)
		}
		out = append(out, text)
	}
	return out
}

// compactSent compacts session id (compact_conversation) and returns the
// compaction request the fake LLM got for it.
func compactSent(t *testing.T, base string, fake *fakeresponses.Server, id string) string {
	t.Helper()
	seen := len(fake.Requests())
	cr, err := http.Post(base+"/v1/sessions/"+id+"/actions/compact_conversation", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(cr.Body)
	cr.Body.Close()
	if cr.StatusCode != 200 {
		t.Fatalf("compact: %d %s", cr.StatusCode, out)
	}
	reqs := fake.Requests()[seen:]
	i := slices.IndexFunc(reqs, func(q fakeresponses.Request) bool { return strings.HasSuffix(q.Path, "/chat/completions") })
	if i < 0 {
		t.Fatalf("the compaction sent nothing to the fake LLM: %s", out)
	}
	return string(reqs[i].Body)
}
