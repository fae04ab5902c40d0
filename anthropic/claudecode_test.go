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
