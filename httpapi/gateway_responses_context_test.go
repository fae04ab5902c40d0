package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"kompact/internal/testing/fakeresponses"
)

// codexContextTexts are the injected context of codexContextBody: Codex's
// base instructions, its skills and permissions, its environment.
var codexContextTexts = []string{"BASE-INSTRUCTIONS-XYZ", "SKILLS-AND-PERMISSIONS-XYZ", "<environment_context>", "/w/cwd-xyz"}

// codexPinnedTexts are those of them a compaction request leaves out: all
// but the base instructions, the session's leading system message, which
// the kimi type keeps and shows in its transcript as kimi-cli does (a pin
// on it changes nothing: docs/compaction.md, "Pinned messages").
var codexPinnedTexts = codexContextTexts[1:]

// codexContextBody is a Codex-shaped turn (synthetic texts) whose history
// has enough of the user's own turns to compact.
func codexContextBody() string {
	msg := func(id, role, text string) string {
		part := "input_text"
		if role == "assistant" {
			part = "output_text"
		}
		b, _ := json.Marshal(map[string]any{"type": "message", "id": id, "role": role,
			"content": []any{map[string]any{"type": part, "text": text}}})
		return string(b)
	}
	items := []string{
		msg("msg_1", "developer", "BASE-INSTRUCTIONS-XYZ: you are a test agent."),
		msg("msg_2", "developer", "SKILLS-AND-PERMISSIONS-XYZ: sandbox read-only."),
		msg("msg_3", "user", "<environment_context>\n  <cwd>/w/cwd-xyz</cwd>\n</environment_context>"),
		msg("msg_4", "user", "Please fix the parser in parse.go."),
		msg("msg_5", "assistant", "I fixed parse.go line 12."),
		msg("msg_6", "user", "Now run the tests."),
		msg("msg_7", "assistant", "All tests pass."),
		msg("msg_8", "user", "Thanks, one more thing."),
	}
	return `{"model":"fake-model","stream":true,"input":[` + strings.Join(items, ",") + `],"tools":[{"type":"function","name":"exec_command"}],"store":false}`
}

// TestResponsesContextStaysOutOfSummary (issue 42 §2): a Codex
// session's injected context (base instructions, skills and permissions,
// <environment_context>) is stored and pinned, so that kompact's
// compaction request holds none of the pinned text (codexPinnedTexts)
// while it holds the user's words, the compacted session keeps all of it
// verbatim, and the session's title is the user's first own words.
func TestResponsesContextStaysOutOfSummary(t *testing.T) {
	c := &fakeresponses.Codex{Text: "ok"}
	fake := fakeresponses.New(t, func(r fakeresponses.Request) fakeresponses.Answer {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			return fakeresponses.Answer{Events: []string{
				`data: {"id":"c1","object":"chat.completion.chunk","model":"fake-model","choices":[{"index":0,"delta":{"role":"assistant","content":"SUMMARY: parse.go fixed, tests pass."},"finish_reason":"stop"}]}` + "\n\n",
				"data: [DONE]\n\n"}}
		}
		return c.Answer(r)
	})
	// The agent compacts (the kimi type): responsesServer's gateway block
	// closed, and a compaction block after it.
	srv := responsesServer(t, fake, "}\n    compaction: {enabled: true, type: kimi")
	resp, got, err := postResponses(t, srv.URL, "", codexContextBody(), codexHeaders())
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("the turn: %v %v %s", err, resp, got)
	}
	session := getJSON(t, srv.URL+"/v1/sessions/th-1")
	if pins, _ := session["pinned"].([]any); len(pins) != 3 {
		t.Errorf("the session pins %v, want Codex's three context messages", session["pinned"])
	}
	if title := listedTitle(t, srv.URL, "th-1"); title != "Please fix the parser in parse.go." {
		t.Errorf("the title is %q, want the user's first own words", title)
	}
	cr, err := http.Post(srv.URL+"/v1/sessions/th-1/actions/compact_conversation", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(cr.Body)
	cr.Body.Close()
	if cr.StatusCode != 200 {
		t.Fatalf("compact: %d %s", cr.StatusCode, out)
	}
	var sent string
	for _, q := range fake.Requests() {
		if strings.HasSuffix(q.Path, "/chat/completions") {
			sent = string(q.Body)
		}
	}
	if !strings.Contains(sent, "Please fix the parser") {
		t.Fatalf("no compaction request with the user's words reached the fake LLM: %q", sent)
	}
	for _, s := range codexPinnedTexts {
		if strings.Contains(sent, strings.ReplaceAll(s, "<", `\u003c`)) || strings.Contains(sent, s) {
			t.Errorf("the compaction request holds Codex's injected context %q: %s", s, sent)
		}
	}
	after := getJSON(t, srv.URL+"/v1/sessions/th-1")
	b, _ := json.Marshal(after["messages"])
	for _, s := range codexContextTexts {
		if !strings.Contains(string(b), strings.NewReplacer("<", `\u003c`, ">", `\u003e`).Replace(s)) {
			t.Errorf("the compacted session lost Codex's context %q: %s", s, b)
		}
	}
}

func getJSON(t *testing.T, url string) map[string]any {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return m
}

// listedTitle is session id's title in GET /v1/sessions.
func listedTitle(t *testing.T, base, id string) string {
	t.Helper()
	for _, s := range getJSON(t, base+"/v1/sessions")["sessions"].([]any) {
		if m := s.(map[string]any); m["id"] == id {
			title, _ := m["title"].(string)
			return title
		}
	}
	t.Fatalf("no session %s in the list", id)
	return ""
}
