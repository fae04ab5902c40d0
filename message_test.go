package kompact_test

import (
	"encoding/json"
	"strings"
	"testing"

	"kompact"
)

func TestDecodeSessionForms(t *testing.T) {
	doc := `{"id":"s1","agent":"kimi","compaction_model":"m2","messages":[
	 {"id":"a","role":"system","content":"be brief"},
	 {"role":"user","name":"bob","content":[{"type":"text","text":"hi"},{"type":"image_url","image_url":{"url":"u","id":null}}]},
	 {"role":"assistant","content":[{"type":"think","think":"hm","encrypted":"sig"},{"type":"text","text":"ok"}],
	  "tool_calls":[{"type":"function","id":"c1","function":{"name":"f","arguments":"{}"},"extras":{"k": 1}},
	                {"id":"c2","function":{"name":"g"}}]},
	 {"role":"tool","tool_call_id":"c1","content":[{"type":"data","data":{"asset": "x",  "n": [1, 2]}}]},
	 {"role":"user","content":null},
	 {"role":"user","content":""}
	]}`
	s, err := kompact.DecodeSession([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "s1" || s.Agent != "kimi" || s.CompactionModel != "m2" || len(s.Messages) != 6 {
		t.Fatalf("session fields: %+v", s)
	}
	m := s.Messages
	if m[0].ID != "a" || len(m[0].Content) != 1 || m[0].Content[0].Text != "be brief" {
		t.Errorf("string content not read as one text part: %+v", m[0])
	}
	if m[1].Name != "bob" || m[1].Content[1].Type != kompact.PartImage || m[1].Content[1].MediaID != nil {
		t.Errorf("media part: %+v", m[1].Content)
	}
	if *m[2].Content[0].Encrypted != "sig" || m[2].ToolCalls[1].Arguments != nil || string(m[2].ToolCalls[0].Extras) != `{"k":1}` {
		t.Errorf("think/tool calls: %+v", m[2])
	}
	if string(m[3].Content[0].Data) != `{"asset":"x","n":[1,2]}` || m[3].ToolCallID != "c1" {
		t.Errorf("data part: %q", m[3].Content[0].Data)
	}
	if m[4].Content == nil || len(m[4].Content) != 0 {
		t.Errorf("null content should be an empty list: %#v", m[4].Content)
	}
	if len(m[5].Content) != 1 || m[5].Content[0].Text != "" {
		t.Errorf("empty string content should be one empty text part: %#v", m[5].Content)
	}
	// A round trip through the neutral form gives the same session.
	out, _ := json.Marshal(s)
	s2, err := kompact.DecodeSession(out)
	if err != nil {
		t.Fatalf("re-decode: %v\n%s", err, out)
	}
	out2, _ := json.Marshal(s2)
	if string(out) != string(out2) {
		t.Fatalf("round trip differs:\n%s\n%s", out, out2)
	}
	if !strings.Contains(string(out), `"tool_calls":[{"type":"function","id":"c1","function":{"name":"f","arguments":"{}"},"extras":{"k":1}},{"type":"function","id":"c2","function":{"name":"g"}}]`) {
		t.Errorf("tool calls written wrongly: %s", out)
	}
}

// TestDecodeSessionCopies: the reference decoders share no memory with
// their input; writing over it afterwards changes nothing decoded.
func TestDecodeSessionCopies(t *testing.T) {
	doc := `{"id":"s","agent":"a","messages":[{"id":"m","role":"user","name":"n","content":[{"type":"text","text":"plain"},` +
		`{"type":"think","think":"t","encrypted":"e"},{"type":"image_url","image_url":{"url":"u","id":"i"}},{"type":"data","data":{"k":"v"}}],` +
		`"tool_calls":[{"type":"function","id":"c","function":{"name":"f","arguments":"{}"},"extras":{"x":1}}],"tool_call_id":"c0"}]}`
	data := []byte(doc)
	s, err := kompact.DecodeSession(data)
	if err != nil {
		t.Fatal(err)
	}
	m, err := kompact.DecodeMessage([]byte(doc[strings.Index(doc, `{"id":"m"`):len(doc)-2]), 0)
	if err != nil {
		t.Fatal(err)
	}
	want, wantMsg := s.AppendJSON(nil), m.AppendJSON(nil)
	for i := range data {
		data[i] = 'X'
	}
	if got := s.AppendJSON(nil); string(got) != string(want) {
		t.Fatalf("the session changed with its input:\n%s\nwas\n%s", got, want)
	}
	if got := m.AppendJSON(nil); string(got) != string(wantMsg) {
		t.Fatalf("the message changed with its input:\n%s\nwas\n%s", got, wantMsg)
	}
}

func TestDecodeSessionErrors(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"not json", `{`, "not valid JSON"},
		{"null", `null`, "must be a JSON object"},
		{"no messages", `{"id":"x"}`, `no "messages"`},
		{"unknown top field", `{"messages":[],"msgs":[]}`, `unknown field "msgs"`},
		{"messages not list", `{"messages":{}}`, `"messages" must be a list`},
		{"message not object", `{"messages":[1]}`, "messages[0]: must be a JSON object"},
		{"unknown role", `{"messages":[{"role":"user","content":"a"},{"role":"bot","content":"x"}]}`, `messages[1].role: unknown role "bot"`},
		{"missing role", `{"messages":[{"content":"x"}]}`, "messages[0].role: missing"},
		{"unknown message field", `{"messages":[{"role":"user","content":"x","extra":1}]}`, "messages[0].extra: unknown field"},
		{"unknown part type", `{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"file","file":"x"}]}]}`, `messages[0].content[1].type: unknown part type "file"`},
		{"part missing type", `{"messages":[{"role":"user","content":[{"text":"a"}]}]}`, "messages[0].content[0].type: missing"},
		{"part unknown field", `{"messages":[{"role":"user","content":[{"type":"text","text":"a","x":1}]}]}`, "messages[0].content[0].x: unknown field"},
		{"text not string", `{"messages":[{"role":"user","content":[{"type":"text","text":5}]}]}`, "messages[0].content[0].text: must be a string"},
		{"media without url", `{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{}}]}]}`, "messages[0].content[0].image_url.url: missing"},
		{"content number", `{"messages":[{"role":"user","content":7}]}`, "messages[0].content: must be a string or a list"},
		{"tool call without id", `{"messages":[{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f"}}]}]}`, "messages[0].tool_calls[0].id: missing"},
		{"tool calls not a list", `{"messages":[{"role":"assistant","content":"","tool_calls":{"id":"1"}}]}`, "messages[0].tool_calls: must be a list of tool calls"},
		{"second tool call bad", `{"messages":[{"role":"assistant","content":"","tool_calls":[{"id":"1","function":{"name":"f"}},{"id":"2","function":{}}]}]}`, "messages[0].tool_calls[1].function.name: missing"},
		{"tool call bad args", `{"messages":[{"role":"assistant","content":"","tool_calls":[{"id":"1","function":{"name":"f","arguments":{}}}]}]}`, "messages[0].tool_calls[0].function.arguments: must be a string"},
		{"duplicate ids", `{"messages":[{"id":"a","role":"user","content":"x"},{"id":"a","role":"user","content":"y"}]}`, `messages[1].id: "a" is already the id of messages[0]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := kompact.DecodeSession([]byte(tc.doc))
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not say %q", err, tc.want)
			}
			if kompact.ErrorCodeOf(err) != kompact.EInvalid {
				t.Fatalf("code %s, want %s", kompact.ErrorCodeOf(err), kompact.EInvalid)
			}
			if len(kompact.ErrorFixes(err)) == 0 && !strings.HasPrefix(tc.name, "session field") {
				t.Logf("no fix offered for %q", err)
			}
		})
	}
}

func TestLocate(t *testing.T) {
	s := &kompact.Session{Messages: []kompact.Message{
		{ID: "x", Role: kompact.RoleUser}, {Role: kompact.RoleAssistant}, {ID: "#1", Role: kompact.RoleUser},
	}}
	for ref, want := range map[string]int{"x": 0, "#2": 1, "#1": 2, "#3": 2} {
		if got, err := s.Locate(ref); err != nil || got != want {
			t.Errorf("Locate(%q) = %d, %v; want %d", ref, got, err, want)
		}
	}
	for _, ref := range []string{"y", "#0", "#4", "#x", ""} {
		if _, err := s.Locate(ref); kompact.ErrorCodeOf(err) != kompact.ENotFound {
			t.Errorf("Locate(%q) error %v, want not_found", ref, err)
		}
	}
}
