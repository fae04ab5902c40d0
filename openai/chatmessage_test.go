package openai_test

import (
	"strings"
	"testing"

	"kompact"
	"kompact/openai"
)

// message1 reads the one message of a request holding wire.
func message1(t *testing.T, wire string) (kompact.Message, error) {
	t.Helper()
	r := parseOK(t, `{"messages":[`+wire+`]}`)
	return r.Message(0)
}

// sameMessage compares two messages by their neutral JSON form (nil and
// empty content alike).
func sameMessage(a, b *kompact.Message) bool {
	return string(a.AppendJSON(nil)) == string(b.AppendJSON(nil))
}

func text(s string) kompact.Part { return kompact.TextPart(s) }

func data(s string) kompact.Part { return kompact.Part{Type: kompact.PartData, Data: []byte(s)} }

// TestMessageForms: each rule of Message, on the wire forms clients send.
func TestMessageForms(t *testing.T) {
	args := `{"q": 1}`
	for _, tc := range []struct {
		name, wire string
		want       kompact.Message
	}{
		{"developer is system", `{"role":"developer","content":"rules"}`,
			kompact.Message{Role: kompact.RoleSystem, Content: []kompact.Part{text("rules")}}},
		{"null content", `{"role":"assistant","content":null}`, kompact.Message{Role: kompact.RoleAssistant}},
		{"absent content", `{"role":"user"}`, kompact.Message{Role: kompact.RoleUser}},
		{"empty string", `{"role":"user","content":""}`, kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{text("")}}},
		{"text parts", `{"role":"user","content":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}},{"text":"b","type":"text"}]}`,
			kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{text("a"), text("b")}}},
		{"image", `{"role":"user","content":[{"type":"image_url","image_url":{"url":"https://x/a.png","detail":"high"}}]}`,
			kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{{Type: kompact.PartImage, URL: "https://x/a.png"}}}},
		{"image with id", `{"role":"user","content":[{"type":"image_url","image_url":{"url":"u","id":"i1"}},{"type":"video_url","video_url":{"url":"v","id":null}}]}`,
			kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{{Type: kompact.PartImage, URL: "u", MediaID: strp("i1")}, {Type: kompact.PartVideo, URL: "v"}}}},
		{"other parts are data", `{"role":"user","content":[{"type":"input_audio", "input_audio":{"data":"AAA=","format":"wav"}},{"type":"file","file":{"file_id":"f"}},{"x":1}]}`,
			kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{
				data(`{"type":"input_audio","input_audio":{"data":"AAA=","format":"wav"}}`), data(`{"type":"file","file":{"file_id":"f"}}`), data(`{"x":1}`)}}},
		{"reasoning first", `{"content":"answer","reasoning_content":"thinking","role":"assistant"}`,
			kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.ThinkPart("thinking"), text("answer")}}},
		{"empty reasoning", `{"role":"assistant","content":"a","reasoning_content":""}`,
			kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{text("a")}}},
		{"refusal", `{"role":"assistant","content":null,"refusal":"I can't"}`,
			kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{data(`{"type":"refusal","refusal":"I can't"}`)}}},
		{"tool calls", `{"role":"assistant","tool_calls":[{"id":"c1","type":"function","index":0,"function":{"name":"f","arguments":"{\"q\": 1}"}},
			{"id":"c2","function":{"name":"g"},"extras":{"k": [1, 2]}},{"id":"c3","type":"function","function":{"name":"h","arguments":{"q": 1}}}]}`,
			kompact.Message{Role: kompact.RoleAssistant, ToolCalls: []kompact.ToolCall{{ID: "c1", Name: "f", Arguments: &args},
				{ID: "c2", Name: "g", Extras: []byte(`{"k":[1,2]}`)}, {ID: "c3", Name: "h", Arguments: strp(`{"q":1}`)}}}},
		{"empty tool calls", `{"role":"assistant","content":"x","tool_calls":[]}`,
			kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{text("x")}, ToolCalls: []kompact.ToolCall{}}},
		{"tool result", `{"role":"tool","tool_call_id":"c1","content":"42"}`,
			kompact.Message{Role: kompact.RoleTool, ToolCallID: "c1", HasToolCallID: true, Content: []kompact.Part{text("42")}}},
		{"empty call id", `{"role":"tool","tool_call_id":"","content":"42"}`,
			kompact.Message{Role: kompact.RoleTool, HasToolCallID: true, Content: []kompact.Part{text("42")}}},
		{"name kept, other fields left out", `{"role":"user","name":"ann","content":"hi","audio":{"id":"a"},"function_call":null,"x":[1]}`,
			kompact.Message{Role: kompact.RoleUser, Name: "ann", Content: []kompact.Part{text("hi")}}},
		{"last of a repeated field", `{"role":"user","content":"one","content":"two"}`,
			kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{text("two")}}},
		{"escapes decoded", `{"r\u006fle":"user","content":"\u00e9\n\ud83d\ude00"}`,
			kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{text("é\n😀")}}},
		{"bad UTF-8 and lone surrogates as encoding/json has them", "{\"role\":\"user\",\"content\":\"a\xffb\\ud800\"}",
			kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{text("a\uFFFDb\uFFFD")}}},
		{"bad UTF-8 in a data part's JSON", "{\"role\":\"user\",\"content\":[{\"type\":\"file\",\"file\":{\"name\":\"a\xffb\"}}]}",
			kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{data("{\"type\":\"file\",\"file\":{\"name\":\"a\uFFFDb\"}}")}}},
	} {
		got, err := message1(t, tc.wire)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !sameMessage(&got, &tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got.AppendJSON(nil), tc.want.AppendJSON(nil))
		}
		if c := (kompact.MessageCheck{Rules: kompact.AllMessageRules}); c.Check([]kompact.Message{got}) != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// TestMessageErrors: the shapes Message refuses, each an EInvalid naming
// the field.
func TestMessageErrors(t *testing.T) {
	for _, tc := range []struct{ wire, want string }{
		{`{"content":"x"}`, "messages[0].role: missing"},
		{`{"role":null}`, "messages[0].role: missing"},
		{`{"role":3}`, "messages[0].role: must be a string"},
		{`{"role":"function","content":"x"}`, `does not read the role "function"`},
		{`{"role":"user","content":3}`, "messages[0].content: must be"},
		{`{"role":"user","content":["x"]}`, "messages[0].content[0]: must be an object"},
		{`{"role":"user","content":[{"type":"text"}]}`, "messages[0].content[0].text: must be a string"},
		{`{"role":"user","content":[{"type":"text","text":1}]}`, "messages[0].content[0].text: must be a string"},
		{`{"role":"user","content":[{"type":"image_url","image_url":{}}]}`, "content[0].image_url.url: must be a string"},
		{`{"role":"user","content":[{"type":"image_url"}]}`, "content[0].image_url: must be an object"},
		{`{"role":"user","content":[{"type":"image_url","image_url":{"url":"u","id":1}}]}`, "content[0].image_url.id"},
		{`{"role":"assistant","reasoning_content":1}`, "reasoning_content: must be a string"},
		{`{"role":"assistant","refusal":1}`, "refusal: must be a string"},
		{`{"role":"assistant","tool_calls":{}}`, "tool_calls: must be a list"},
		{`{"role":"assistant","tool_calls":[1]}`, "tool_calls[0]: must be an object"},
		{`{"role":"assistant","tool_calls":[{"type":"custom","custom":{"name":"x"}}]}`, "tool_calls[0].type: the gateway reads function calls only"},
		{`{"role":"assistant","tool_calls":[{"id":1}]}`, "tool_calls[0].id: must be a string"},
		{`{"role":"assistant","tool_calls":[{"function":[]}]}`, "tool_calls[0].function: must be an object"},
		{`{"role":"assistant","tool_calls":[{"function":{"name":1}}]}`, "tool_calls[0].function.name: must be a string"},
		{`{"role":"assistant","tool_calls":[{"extras":[]}]}`, "tool_calls[0].extras: must be an object"},
		{`{"role":"tool","tool_call_id":5}`, "tool_call_id: must be a string"},
		{`{"role":"user","name":5}`, "name: must be a string"},
	} {
		_, err := message1(t, tc.wire)
		if err == nil || kompact.ErrorCodeOf(err) != kompact.EInvalid || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want EInvalid %q", tc.wire, err, tc.want)
		}
	}
}

// TestMessageRoundTrip: Message reads back what AppendWireMessage writes,
// exactly where the wire form holds everything, and as docs/gateway.md
// lists where it does not.
func TestMessageRoundTrip(t *testing.T) {
	args, empty := `{"a":1}`, ""
	user, asst := kompact.RoleUser, kompact.RoleAssistant
	lossless := []kompact.Message{
		{Role: kompact.RoleSystem, Content: []kompact.Part{text("be brief")}},
		{Role: user, Name: "ann", Content: []kompact.Part{text("")}},
		{Role: user, Content: []kompact.Part{}},
		{Role: user, Content: []kompact.Part{text("look"), {Type: kompact.PartImage, URL: "data:image/png;base64,AAAA"},
			{Type: kompact.PartAudio, URL: "https://x/a.mp3", MediaID: strp("a1")}, {Type: kompact.PartVideo, URL: "v"}}},
		{Role: user, Content: []kompact.Part{text("a \"quoted\"\n\ttext é 😀 \u2028")}},
		{Role: asst, Content: []kompact.Part{kompact.ThinkPart("let me see"), text("done")}},
		{Role: asst, Content: []kompact.Part{kompact.ThinkPart("plan"), text("calling")}, ToolCalls: []kompact.ToolCall{
			{ID: "c1", Name: "read", Arguments: &args}, {ID: "c2", Name: "list", Arguments: &empty}, {ID: "c3", Name: "now"},
			{ID: "c4", Name: "x", Arguments: &args, Extras: []byte(`{"k":"v"}`)}}},
		{Role: kompact.RoleTool, ToolCallID: "c1", HasToolCallID: true, Content: []kompact.Part{text("result")}},
		{Role: kompact.RoleTool, HasToolCallID: true, Content: []kompact.Part{text("a"), text("b")}},
	}
	for i := range lossless {
		m := &lossless[i]
		got, err := message1(t, string(openai.AppendWireMessage(nil, m)))
		if err != nil || !sameMessage(&got, m) {
			t.Errorf("round trip of %s\n gave %s (%v)", m.AppendJSON(nil), got.AppendJSON(nil), err)
		}
	}
	enc := "sig"
	for _, tc := range []struct {
		name   string
		in     kompact.Message
		wantRT kompact.Message
	}{
		{"a data part comes back as text", kompact.Message{Role: user, Content: []kompact.Part{data(`{"n":1}`)}},
			kompact.Message{Role: user, Content: []kompact.Part{text(`{"n":1}`)}}},
		{"think parts merge, go first, lose their signature; empty ones vanish",
			kompact.Message{Role: asst, Content: []kompact.Part{text("a"), kompact.ThinkPart("x"), {Type: kompact.PartThink, Think: "y", Encrypted: &enc}, kompact.ThinkPart("")}},
			kompact.Message{Role: asst, Content: []kompact.Part{kompact.ThinkPart("xy"), text("a")}}},
		{"blank text beside tool calls is left out",
			kompact.Message{Role: asst, Content: []kompact.Part{text(" ")}, ToolCalls: []kompact.ToolCall{{ID: "c", Name: "f"}}},
			kompact.Message{Role: asst, ToolCalls: []kompact.ToolCall{{ID: "c", Name: "f"}}}},
		{"an empty list of tool calls is none", kompact.Message{Role: asst, Content: []kompact.Part{text("x")}, ToolCalls: []kompact.ToolCall{}},
			kompact.Message{Role: asst, Content: []kompact.Part{text("x")}}},
		{"the id does not travel", kompact.Message{ID: "m1", Role: user, Content: []kompact.Part{text("x")}},
			kompact.Message{Role: user, Content: []kompact.Part{text("x")}}},
	} {
		got, err := message1(t, string(openai.AppendWireMessage(nil, &tc.in)))
		if err != nil || !sameMessage(&got, &tc.wantRT) {
			t.Errorf("%s: gave %s (%v), want %s", tc.name, got.AppendJSON(nil), err, tc.wantRT.AppendJSON(nil))
		}
	}
}

// TestMessagesOfRealisticBody: every message of an agent's request reads
// and passes kompact's checks.
func TestMessagesOfRealisticBody(t *testing.T) {
	for _, spaced := range []bool{false, true} {
		r := parseOK(t, string(realisticBody(200, spaced)))
		msgs := make([]kompact.Message, r.Len())
		for i := range msgs {
			var err error
			if msgs[i], err = r.Message(i); err != nil {
				t.Fatal(err)
			}
		}
		if err := kompact.ValidateMessages(msgs); err != nil {
			t.Fatal(err)
		}
		if msgs[2].ToolCalls[0].ID != "call_0000" || msgs[3].ToolCallID != "call_0000" || msgs[2].Content[0].Type != kompact.PartThink {
			t.Errorf("turn read wrong: %s %s", msgs[2].AppendJSON(nil), msgs[3].AppendJSON(nil))
		}
	}
}
