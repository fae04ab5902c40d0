package openai_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"kompact"
	"kompact/internal/jsonscan"
	"kompact/openai"
)

// FuzzParseResponsesRequest: whatever the body, the parser does not
// panic; a body it takes is valid JSON, each item reads or fails with
// EInvalid, a message it reads passes kompact's validation, and Expand
// keeps the body when it holds no kompact handle, and otherwise writes
// a body that parses again with as many items.
func FuzzParseResponsesRequest(f *testing.F) {
	f.Add([]byte(`{"model":"m","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}],"tools":[]}`))
	f.Add([]byte(`{"input":"hello"}`))
	f.Add([]byte(`{"input":[{"type":"function_call","call_id":"c","name":"n","arguments":"{}"},{"type":"function_call_output","call_id":"c","output":[{"type":"input_text","text":"x"}]}]}`))
	f.Add([]byte(`{"input":[{"type":"compaction","encrypted_content":"kompact:s:1"},{"type":"reasoning","encrypted_content":"x"},{"type":"compaction_trigger"}]}`))
	f.Add([]byte(`{"input":[{"role":"developer","content":"<environment_context>"},{"type":"web_search_call"},{"type":"custom_tool_call_output","call_id":"z"}]}`))
	f.Add([]byte(` { "input" : [ { "type" : "message" , "role" : "assistant" , "content" : null } ] } `))
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := openai.ParseResponsesRequestBounded(body, 64, jsonscan.PartLimits{Message: 64, Request: 256})
		if err != nil {
			return
		}
		if !json.Valid(body) {
			t.Fatalf("took invalid JSON %q", body)
		}
		for i := range r.Len() {
			_ = r.Digest(i)
			_ = r.Context(i)
			_, _ = r.CodexSummary(i)
			m, err := r.Message(i)
			if err != nil {
				if kompact.ErrorCodeOf(err) != kompact.EInvalid {
					t.Fatalf("Message(%d): %v", i, err)
				}
				continue
			}
			if err := kompact.ValidateMessages([]kompact.Message{m}); err != nil {
				t.Fatalf("Message(%d) = %+v: %v", i, m, err)
			}
		}
		_ = r.Compaction(openai.TurnMetadata{RequestKind: "compaction"})
		out, err := r.Expand(func(openai.CompactionHandle) (string, bool) { return "S", true })
		if err != nil {
			t.Fatal(err)
		}
		if idx, _ := r.Handles(); len(idx) == 0 {
			if !bytes.Equal(out, body) {
				t.Fatal("Expand changed a body with no kompact handle")
			}
			return
		}
		again, err := openai.ParseResponsesRequest(out)
		if err != nil || again.Len() != r.Len() {
			t.Fatalf("Expand wrote %q: %v", out, err)
		}
	})
}
