package httpapi_test

import (
	"strings"
	"testing"

	"kompact/internal/fakellm"
	"kompact/internal/kcvectors"
	"kompact/kimicode"
)

// kimiCodeAgents: "kc" compacts the Kimi Code way.
const kimiCodeAgents = `default_agent: kc
agents:
  kc:
    llm:
      base_url: %s
      model: chat-model
      max_context_size: 100000
    compaction:
      enabled: true
      type: kimi-code
  other:
    llm:
      base_url: %s
      model: chat-model
    compaction:
      enabled: true
      type: kimi
`

// TestKimiCodeTypeThroughTheAPI (issue 31 §2): an agent of compaction.type kimi-code
// compacts a stored session the Kimi Code way through /v1: its request holds the leading
// system message, the structured history (tool calls and results) and Kimi Code's
// instruction last, with max_tokens = min(window, 131072); the preview, once applied,
// leaves the system message, the user's own messages merged, the summary (Kimi Code's
// prefix) and the continuation note; undo refuses (restore brings the session back). A
// range is refused.
func TestKimiCodeTypeThroughTheAPI(t *testing.T) {
	raw := kcvectors.Texts(t)
	texts := kimicode.NewTexts(raw, "shared")
	kimicode.UseTexts(texts)
	e := newAPIEnv(t, apiOptions{agents: kimiCodeAgents})
	args := `{"path":"a.txt"}`
	orig := e.must(201, "POST", "/v1/sessions", map[string]any{"id": "s", "messages": []any{
		map[string]any{"role": "system", "content": "You are a coder."},
		map[string]any{"role": "user", "content": "Read a.txt."},
		map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{"type": "function", "id": "c1", "function": map[string]any{"name": "Read", "arguments": args}}}},
		map[string]any{"role": "tool", "tool_call_id": "c1", "content": "hello"},
		map[string]any{"role": "assistant", "content": "It says hello."},
		map[string]any{"role": "user", "content": "Thanks."},
	}})
	wantError(t, e.do("POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"start": "#2", "preview": true}), 400, "invalid_request", "whole session")
	e.llm.Enqueue(fakellm.Answer(fakellm.Text("Read a.txt: it says hello.")))
	pv := e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"preview": true, "instructions": "Keep a.txt."})
	reqs := e.llm.Requests()
	msgs := reqs[len(reqs)-1].Messages()
	last, _ := msgs[len(msgs)-1]["content"].(string)
	if len(msgs) != 7 || msgs[0]["role"] != "system" || msgs[2]["tool_calls"] == nil || msgs[3]["tool_call_id"] != "c1" ||
		last != texts.InstructionText("Keep a.txt.") {
		t.Fatalf("the compaction request: %v", msgs)
	}
	if mt := reqs[len(reqs)-1].JSON["max_tokens"]; mt != 100000.0 {
		t.Errorf("max_tokens %v", mt)
	}
	e.must(200, "POST", "/v1/sessions/s/previews/"+pv["preview_id"].(string)+"/apply", nil)
	got := e.must(200, "GET", "/v1/sessions/s", nil)["messages"].([]any)
	want := []string{"You are a coder.", "Read a.txt.\n\nThanks.", texts.Prefix() + "\nRead a.txt: it says hello.", texts.ContinuationText()}
	if len(got) != len(want) {
		t.Fatalf("the compacted session has %d messages: %v", len(got), got)
	}
	for i, w := range want {
		if c := jsonText(t, got[i].(map[string]any)["content"]); !strings.Contains(c, jsonText(t, w)[1:len(jsonText(t, w))-1]) {
			t.Errorf("message %d: %s, want %q", i, c, w)
		}
	}
	// Undo cannot tell the new messages apart and refuses (nothing changes); restoring the
	// revision before the compaction brings the session back.
	wantError(t, e.do("POST", "/v1/sessions/s/revisions/1/undo", nil), 400, "invalid_request", "cannot be undone")
	restored := e.must(200, "POST", "/v1/sessions/s/revisions/1/restore", nil)
	if jsonText(t, restored["session"].(map[string]any)["messages"]) != jsonText(t, orig["messages"]) {
		t.Errorf("restore: %v", restored)
	}
}
