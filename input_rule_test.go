package kompact_test

import (
	"strings"
	"testing"

	"kompact"
	"kompact/internal/jsontext"
)

// TestDecodeRefusesRepeatedKeys (issue 21 §5): a key given twice in any
// object the decoder interprets is an error naming it, never the last
// value (which made {"role":"user","role":"system"} a system message).
func TestDecodeRefusesRepeatedKeys(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"messages":[{"role":"user","role":"system","content":"x"}]}`, `messages[0].role: given twice`},
		{`{"messages":[{"role":"user","content":"x","content":"y"}]}`, `messages[0].content: given twice`},
		{`{"messages":[{"role":"user","content":[{"type":"text","text":"a","text":"b"}]}]}`, `messages[0].content[0].text: given twice`},
		{`{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"a","url":"b"}}]}]}`, `messages[0].content[0].image_url.url: given twice`},
		{`{"messages":[{"role":"assistant","content":"","tool_calls":[{"type":"function","id":"c","id":"d","function":{"name":"f"}}]}]}`, `messages[0].tool_calls[0].id: given twice`},
		{`{"messages":[{"role":"assistant","content":"","tool_calls":[{"type":"function","id":"c","function":{"name":"f","name":"g"}}]}]}`, `messages[0].tool_calls[0].function.name: given twice`},
		{`{"id":"a","id":"b","messages":[]}`, `session has the field "id" twice`},
		{`{"messages":[],"messages":[{"role":"system","content":"x"}]}`, `session has the field "messages" twice`},
		{`{"messages":[{"role":"user","r\u006fle":"system","content":"x"}]}`, `messages[0].role: given twice`},
	} {
		_, err := kompact.DecodeSession([]byte(tc.doc))
		if kompact.ErrorCodeOf(err) != kompact.EInvalid || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want EInvalid %q", tc.doc, err, tc.want)
		}
	}
	// Keys that only look alike, and keys inside a data part (kept raw),
	// are not repeated keys of the decoder's objects.
	for _, doc := range []string{
		`{"messages":[{"role":"user","content":[{"type":"data","data":{"a":1,"a":2}}]}]}`,
		`{"messages":[{"role":"user","content":"{\"role\":1,\"role\":2}"}]}`,
		`{"messages":[{"role":"user","content":[{"type":"data","data":{"role":{"x":1},"role2":[{"y":1}]}}]}]}`,
	} {
		if _, err := kompact.DecodeSession([]byte(doc)); err != nil {
			t.Errorf("%s: %v", doc, err)
		}
	}
	if _, err := kompact.DecodeMessage([]byte(`{"role":"user","name":"a","name":"b"}`), -1); err == nil || !strings.Contains(err.Error(), "message.name: given twice") {
		t.Errorf("DecodeMessage: %v", err)
	}
}

// TestDecodeRefusesLoneSurrogates (issue 21 §5): a lone surrogate escape
// in a string is refused, as invalid UTF-8 is, instead of becoming U+FFFD;
// an escaped pair is a character and reads as one.
func TestDecodeRefusesLoneSurrogates(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"messages":[{"role":"user","content":"a\ud800b"}]}`, `messages[0].content: holds the lone surrogate escape \ud800`},
		{`{"messages":[{"role":"user","content":[{"type":"text","text":"\udc00"}]}]}`, `messages[0].content[0].text: holds the lone surrogate escape \udc00`},
		{`{"messages":[{"role":"user","content":"\ud800\u0041"}]}`, `holds the lone surrogate escape \ud800`},
		{`{"messages":[{"role":"user","content":"\ud83d\ude00\ud83d"}]}`, `holds the lone surrogate escape \ud83d`},
		{`{"messages":[{"role":"user","id":"\uDBFF","content":"x"}]}`, `messages[0].id: holds the lone surrogate escape \uDBFF`},
		{`{"messages":[{"role":"tool","tool_call_id":"\ud800","content":"x"}]}`, `messages[0].tool_call_id: holds`},
		{`{"messages":[{"role":"assistant","content":"","tool_calls":[{"type":"function","id":"c","function":{"name":"f","arguments":"\ud800"}}]}]}`, `messages[0].tool_calls[0].function.arguments: holds`},
		{`{"compaction_model":"m\udfff","messages":[]}`, `session field "compaction_model" holds the lone surrogate escape \udfff`},
	} {
		_, err := kompact.DecodeSession([]byte(tc.doc))
		if kompact.ErrorCodeOf(err) != kompact.EInvalid || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want EInvalid %q", tc.doc, err, tc.want)
		}
	}
	s, err := kompact.DecodeSession([]byte(`{"messages":[{"role":"user","content":"\ud83d\ude00 \\ud800 \\\\"}]}`))
	if err != nil || s.Messages[0].Content[0].Text != "😀 \\ud800 \\\\" {
		t.Fatalf("a pair and an escaped backslash: %v %+v", err, s)
	}
	// A data part keeps its text raw: the escape stays as it was sent.
	s, err = kompact.DecodeSession([]byte(`{"messages":[{"role":"user","content":[{"type":"data","data":"\ud800"}]}]}`))
	if err != nil || string(s.Messages[0].Content[0].Data) != `"\ud800"` {
		t.Fatalf("data part: %v", err)
	}
	for raw, want := range map[string]int{`"\ud800"`: 1, `"ok"`: -1, `"\\ud800"`: -1, `"\\\ud800"`: 3, `"\ud800\udc00"`: -1, `"\udc00\ud800"`: 1, `"\ud800\`: 1} {
		if got := jsontext.LoneSurrogate([]byte(raw)); got != want {
			t.Errorf("LoneSurrogate(%s) = %d, want %d", raw, got, want)
		}
	}
}

// TestMessageIDRule (issue 21 §5): a message id is at most 128 bytes
// without control characters, in the rule every store applies.
func TestMessageIDRule(t *testing.T) {
	for _, id := range []string{"a", strings.Repeat("é", 64), "m_1", "id with spaces"} {
		if err := kompact.ValidateSession(&kompact.Session{Messages: []kompact.Message{msg("user", id, "x")}}); err != nil {
			t.Errorf("%q: %v", id, err)
		}
	}
	for _, tc := range []struct{ id, want string }{
		{strings.Repeat("a", 129), "messages[0].id is 129 bytes long; " + kompact.MessageIDRule},
		{strings.Repeat("a", 100_000), "messages[0].id is 100000 bytes long"},
		{"a\x00b", "messages[0].id has a control character at byte 1"},
		{"a\nb", "messages[0].id has a control character at byte 1"},
		{"\u0085", "messages[0].id has a control character at byte 0"},
		{"a\xffb", "messages[0].id is not valid UTF-8"},
	} {
		err := kompact.ValidateSession(&kompact.Session{Messages: []kompact.Message{msg("user", tc.id, "x")}})
		if kompact.ErrorCodeOf(err) != kompact.EInvalid || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.20q: %v, want %q", tc.id, err, tc.want)
		}
		if err != nil && len(err.Error()) > 300 {
			t.Errorf("%.20q: the error echoes the id (%d bytes)", tc.id, len(err.Error()))
		}
	}
	// The decoders apply the rule (ValidateDecodedSession) too.
	if _, err := kompact.DecodeSession([]byte(`{"messages":[{"role":"user","id":"a\u0000b","content":"x"}]}`)); err == nil {
		t.Error("DecodeSession took an id with NUL")
	}
}

// TestCompactionModelRule (issue 21 §5): compaction_model is at most 256
// bytes of text.
func TestCompactionModelRule(t *testing.T) {
	if err := kompact.ValidateSession(&kompact.Session{CompactionModel: strings.Repeat("m", 256)}); err != nil {
		t.Errorf("256 bytes: %v", err)
	}
	for model, want := range map[string]string{
		strings.Repeat("m", 257): "compaction_model is 257 bytes long; a model name is at most 256 bytes",
		"a\x00":                  "compaction_model has a control character at byte 1",
		"\xff":                   "compaction_model is not valid UTF-8",
	} {
		err := kompact.ValidateCompactionModel(model)
		if kompact.ErrorCodeOf(err) != kompact.EInvalid || !strings.Contains(err.Error(), want) {
			t.Errorf("%.20q: %v, want %q", model, err, want)
		}
		if err := kompact.ValidateSession(&kompact.Session{CompactionModel: model}); err == nil {
			t.Errorf("ValidateSession took compaction_model %.20q", model)
		}
	}
}
