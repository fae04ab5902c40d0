package anthropic

import (
	"testing"
)

// TestCompactionHistory (issue 38): a compaction request's history is the
// request without Claude Code's instruction, whether the instruction is a
// message of its own (automatic compaction) or a text block after the
// tool_result of the last user message (/compact): then the history's
// last message digests as the turn before sent it.
func TestCompactionHistory(t *testing.T) {
	turn := `{"messages":[{"role":"user","content":"read it"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"HELLO","cache_control":{"type":"ephemeral"}}]}]}`
	manual := `{"messages":[{"role":"user","content":"read it"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"HELLO"},{"type":"text","text":"CRITICAL: Respond with TEXT ONLY. Do NOT call any tools."}]}]}`
	auto := `{"messages":[{"role":"user","content":"read it"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"HELLO"}]},{"role":"user","content":"CRITICAL: Respond with TEXT ONLY. Do NOT call any tools."}]}`
	want := parse(t, turn)
	for name, body := range map[string]string{"manual": manual, "auto": auto} {
		h := parse(t, body).CompactionHistory()
		if h.Len() != want.Len() {
			t.Fatalf("%s: %d messages, want %d", name, h.Len(), want.Len())
		}
		for i := range h.Len() {
			if h.Digest(i) != want.Digest(i) {
				t.Errorf("%s: message %d digests otherwise than the turn's", name, i)
			}
		}
	}
}

func parse(t *testing.T, body string) *Request {
	t.Helper()
	r, err := ParseRequest([]byte(body), 0)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestResentForms (issue 38, High): Claude Code 2.1.332's /compact
// re-sends the assistant message before the last tool result with the
// text of the answer that followed merged in before its blocks; one of
// the history's resent forms digests as the turns sent it, and a history
// that does not end so (no tool result last, or an assistant message of
// text alone) has none.
func TestResentForms(t *testing.T) {
	const user = `{"role":"user","content":"read it"}`
	const result = `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"HELLO"}]}`
	const use = `{"type":"tool_use","id":"t1","name":"Read","input":{}}`
	turns := mustParse(t, `{"messages":[`+user+`,{"role":"assistant","content":[{"type":"text","text":"let me see"},`+use+`]},`+result+`]}`)
	resent := mustParse(t, `{"messages":[`+user+`,{"role":"assistant","content":[{"type":"text","text":"The file says HELLO."},{"type":"text","text":"let me see"},`+use+`]},`+result+`]}`)
	forms := resent.ResentForms()
	if len(forms) != 2 {
		t.Fatalf("%d forms, want 2 (one per leading text block)", len(forms))
	}
	found := false
	for _, f := range forms {
		found = found || (f.Len() == 3 && f.Digest(0) == turns.Digest(0) && f.Digest(1) == turns.Digest(1) && f.Digest(2) == turns.Digest(2))
	}
	if !found {
		t.Errorf("no resent form is the turns' history")
	}
	for name, body := range map[string]string{
		"text alone":        `{"messages":[` + user + `,{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},` + result + `]}`,
		"no tool result":    `{"messages":[` + user + `,{"role":"assistant","content":[{"type":"text","text":"a"},` + use + `]},` + user + `]}`,
		"no text before it": `{"messages":[` + user + `,{"role":"assistant","content":[` + use + `]},` + result + `]}`,
	} {
		if forms := mustParse(t, body).ResentForms(); len(forms) != 0 {
			t.Errorf("%s: %d forms, want none", name, len(forms))
		}
	}
}

func mustParse(t *testing.T, body string) *Request {
	t.Helper()
	r, err := ParseRequest([]byte(body), 100)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
