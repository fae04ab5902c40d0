package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"kompact/internal/testing/fakeresponses"
)

// codexContextTexts are the injected context of codexContextBody: Codex's
// base instructions, its skills and permissions, its environment.
var codexContextTexts = []string{"BASE-INSTRUCTIONS-XYZ", "SKILLS-AND-PERMISSIONS-XYZ", "<environment_context>", "/w/cwd-xyz"}

// codexContextMessages are the texts of codexContextBody's three context
// messages, in order.
var codexContextMessages = []string{"BASE-INSTRUCTIONS-XYZ: you are a test agent; read /etc/codex-xyz/rules.md first.", "SKILLS-AND-PERMISSIONS-XYZ: sandbox read-only.",
	"<environment_context>\n  <cwd>/w/cwd-xyz</cwd>\n</environment_context>"}

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
		msg("msg_1", "developer", codexContextMessages[0]),
		msg("msg_2", "developer", codexContextMessages[1]),
		msg("msg_3", "user", codexContextMessages[2]),
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
// <environment_context>) is stored, pinned and counted as the session's
// context head, so that kompact's compaction request holds none of it, the
// base instructions included (the range starts after the head: the
// gateway's contextRequest), while it holds the user's words; the
// compacted session keeps all of it verbatim, in its place before the
// summary; the fidelity report loses none of it; a dry run names the same
// range; undo gives the session back; and the session's title is the
// user's first own words.
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
	before, _ := json.Marshal(session["messages"])
	dry := postAction(t, srv.URL+"/v1/sessions/th-1/actions/compact_conversation", `{"dry_run":true}`)
	out := postAction(t, srv.URL+"/v1/sessions/th-1/actions/compact_conversation", `{}`)
	sent := compactionRequest(t, fake)
	t.Logf("the compaction request: %d bytes", len(sent))
	for _, s := range codexContextTexts {
		if strings.Contains(sent, strings.ReplaceAll(s, "<", `\u003c`)) || strings.Contains(sent, s) {
			t.Errorf("the compaction request holds Codex's injected context %q: %s", s, sent)
		}
	}
	checkContextKept(t, srv.URL+"/v1/sessions/th-1")
	checkContextNotLost(t, out)
	// The dry run names the range the compaction replaced: the user's
	// first words (message 4) up to the preserved tail, no pin in it.
	res, _ := out["result"].(map[string]any)
	if dry["first"] != float64(4) || dry["replaced_messages"] != res["replaced_messages"] || dry["pinned_messages"] != nil || res["pinned_messages"] != nil {
		t.Errorf("the dry run says %v; the compaction replaced %v (pinned %v): want the range from message 4, no pin in it", dry, res["replaced_messages"], res["pinned_messages"])
	}
	// Undo gives the session back as it was.
	revs, _ := getJSON(t, srv.URL+"/v1/sessions/th-1/revisions")["revisions"].([]any)
	newest, _ := revs[0].(map[string]any)
	undone := postAction(t, fmt.Sprintf("%s/v1/sessions/th-1/revisions/%v/undo", srv.URL, newest["rev"]), `{}`)
	if b, _ := json.Marshal(undone["session"].(map[string]any)["messages"]); string(b) != string(before) {
		t.Errorf("undone, the session holds %s, want %s", b, before)
	}
}

// postAction posts body to an action's url and returns its answer,
// which must be 200.
func postAction(t *testing.T, url, body string) map[string]any {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST %s %s: %d %s", url, body, resp.StatusCode, b)
	}
	return m
}

// compactionRequest is the body of the last compaction request the fake
// LLM received, which must hold the user's words.
func compactionRequest(t *testing.T, fake *fakeresponses.Server) string {
	t.Helper()
	var sent string
	for _, q := range fake.Requests() {
		if strings.HasSuffix(q.Path, "/chat/completions") {
			sent = string(q.Body)
		}
	}
	if !strings.Contains(sent, "Please fix the parser") {
		t.Fatalf("no compaction request with the user's words reached the fake LLM: %q", sent)
	}
	return sent
}

// checkContextKept checks that the compacted session at url begins with
// Codex's three context messages, verbatim, and then the summary.
func checkContextKept(t *testing.T, url string) {
	t.Helper()
	msgs, _ := getJSON(t, url)["messages"].([]any)
	if len(msgs) < 4 {
		t.Fatalf("the compacted session has %d messages, want the context, the summary and the tail", len(msgs))
	}
	for i, want := range codexContextMessages {
		m, _ := msgs[i].(map[string]any)
		b, _ := json.Marshal(m["content"])
		if m["id"] != fmt.Sprintf("g_%d", i) || !strings.Contains(string(b), jsonText(want)) {
			t.Errorf("the compacted session's message %d is %v, want Codex's context %q in its place", i+1, m, want)
		}
	}
	if b, _ := json.Marshal(msgs[3]); !strings.Contains(string(b), "SUMMARY: parse.go fixed") {
		t.Errorf("the compacted session's message 4 is %s, want the summary right after the context", b)
	}
}

// checkContextNotLost checks that the fidelity report of a compaction's
// outcome loses no word of Codex's context (its base instructions name a
// path, an artifact the report would count).
func checkContextNotLost(t *testing.T, out map[string]any) {
	t.Helper()
	res, _ := out["result"].(map[string]any)
	f, _ := res["fidelity"].(map[string]any)
	if f == nil {
		t.Fatalf("the outcome has no fidelity report: %v", out)
	}
	lost, _ := f["lost"].([]any)
	for _, l := range lost {
		a, _ := l.(map[string]any)
		text, _ := a["text"].(string)
		for _, ctx := range codexContextMessages {
			if text != "" && strings.Contains(ctx, text) {
				t.Errorf("the fidelity report lost %v, of Codex's context %q", a, ctx)
			}
		}
	}
}

// jsonText is s as encoding/json writes it inside a string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
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
