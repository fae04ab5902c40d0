package anthropic_test

import (
	"testing"

	"kompact"
	"kompact/anthropic"
)

// TestDigestNormalForm: Claude Code's re-sent forms of a message digest
// alike (cache_control moved, a string for a one-text-block list, white
// space), and a changed message digests otherwise.
func TestDigestNormalForm(t *testing.T) {
	same := []string{
		`{"role":"user","content":"fix it"}`,
		`{"role":"user","content":[{"type":"text","text":"fix it","cache_control":{"type":"ephemeral"}}]}`,
		`{"role": "user", "content": [{"text": "fix it", "type": "text"}]}`,
	}
	other := []string{
		`{"role":"user","content":"fix it!"}`,
		`{"role":"assistant","content":"fix it"}`,
		`{"role":"user","content":[{"type":"text","text":"fix it"},{"type":"text","text":"now"}]}`,
	}
	body := `{"messages":[` + join(append(same, other...)) + `]}`
	req, err := anthropic.ParseRequest([]byte(body), 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(same); i++ {
		if req.Digest(i) != req.Digest(0) {
			t.Errorf("message %d digests otherwise than message 0", i)
		}
	}
	for i := range other {
		if req.Digest(len(same)+i) == req.Digest(0) {
			t.Errorf("changed message %d digests as message 0", i)
		}
	}
	tr := `{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"ok","cache_control":{"type":"ephemeral"}}]}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"ok"}]}]}]}`
	req, err = anthropic.ParseRequest([]byte(tr), 0)
	if err != nil || req.Digest(0) != req.Digest(1) {
		t.Errorf("a tool result's content blocks keep their cache_control in the digest (%v)", err)
	}
}

func join(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out
}

// TestMessageOf: a Messages message in kompact's form: thinking with its
// signature, redacted thinking, tool use, a tool result, an image.
func TestMessageOf(t *testing.T) {
	body := `{"messages":[
	{"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"c2ln"},{"type":"redacted_thinking","data":"ZW5j"},{"type":"text","text":"reading"},{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path": "/a.go"}}]},
	{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"package a","is_error":true},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}}]},
	{"role":"system","content":"note"},
	{"role":"tool","content":"x"}]}`
	req, err := anthropic.ParseRequest([]byte(body), 0)
	if err != nil {
		t.Fatal(err)
	}
	a, err := req.Message(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Content) != 3 || a.Content[0].Think != "hm" || *a.Content[0].Encrypted != "c2ln" || *a.Content[1].Encrypted != "ZW5j" || a.Content[2].Text != "reading" {
		t.Errorf("assistant content: %+v", a.Content)
	}
	if len(a.ToolCalls) != 1 || a.ToolCalls[0].ID != "toolu_1" || *a.ToolCalls[0].Arguments != `{"file_path":"/a.go"}` {
		t.Errorf("tool calls: %+v", a.ToolCalls)
	}
	u, err := req.Message(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Content) != 2 || u.Content[0].Text != "[tool error toolu_1]\npackage a" || u.Content[1].Type != kompact.PartData {
		t.Errorf("user content: %+v", u.Content)
	}
	if s, err := req.Message(2); err != nil || s.Role != kompact.RoleSystem {
		t.Errorf("system note: %+v %v", s, err)
	}
	if _, err := req.Message(3); kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Errorf("role tool: %v, want invalid", err)
	}
}

// TestParseRequestRefuses: not an object, no messages, a message that is
// not an object, too many messages.
func TestParseRequestRefuses(t *testing.T) {
	for _, body := range []string{`[]`, `{"model":"m"}`, `{"messages":[1]}`, `{"messages":{}}`} {
		if _, err := anthropic.ParseRequest([]byte(body), 0); kompact.ErrorCodeOf(err) != kompact.EInvalid {
			t.Errorf("%s: %v, want invalid", body, err)
		}
	}
	_, err := anthropic.ParseRequest([]byte(`{"messages":[{},{},{}]}`), 2)
	if e, ok := err.(*anthropic.TooManyMessagesError); !ok || e.Max != 2 {
		t.Errorf("3 messages over 2: %v", err)
	}
}

// TestStreamUsage: message_start's usage, updated by message_delta's.
func TestStreamUsage(t *testing.T) {
	var su anthropic.StreamUsage
	su.Event([]byte(`{"type":"message_start","message":{"usage":{"input_tokens":5,"cache_read_input_tokens":100,"cache_creation_input_tokens":20,"output_tokens":1}}}`))
	su.Event([]byte(`{"type": "ping"}`))
	su.Event([]byte(`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":42}}`))
	u := su.Usage()
	if u == nil || u.InputOther != 5 || u.InputCacheRead != 100 || u.InputCacheCreation != 20 || u.Output != 42 {
		t.Errorf("usage %+v", u)
	}
	if u := anthropic.BodyUsage([]byte(`{"usage":{"input_tokens":3,"output_tokens":4}}`)); u == nil || u.InputOther != 3 || u.Output != 4 {
		t.Errorf("body usage %+v", u)
	}
}
