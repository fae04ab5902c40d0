package kimicode_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/kimicode"
)

// TestExport: a kompact session's Kimi Code folder: the leading system message is the
// profile's system prompt, a turn per user message, every message a
// context.append_message with Kimi Code's fields, and a session id of Kimi Code's form
// (the session's own when it is one, else the same one made from it each time).
func TestExport(t *testing.T) {
	args := `{"path":"a.txt"}`
	s := &kompact.Session{ID: "demo", Messages: []kompact.Message{
		{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart("You are an agent.")}},
		{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("Read a.txt.")}},
		{Role: kompact.RoleAssistant, ToolCalls: []kompact.ToolCall{{ID: "c1", Name: "Read", Arguments: &args}}},
		{Role: kompact.RoleTool, ToolCallID: "c1", Content: []kompact.Part{kompact.TextPart("hello")}},
		{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart("Be brief.")}},
		{Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart("It says hello.")}},
	}}
	e := kimicode.Export(s, "/h/sessions/w/x", "/work", "mock", time.UnixMilli(1000), kimicode.NewTexts(nil, ""))
	if e.ID != kimicode.ExportID("demo") || !strings.HasPrefix(e.ID, "session_") || len(e.ID) != len("session_")+36 {
		t.Fatalf("id %q", e.ID)
	}
	if id := "session_7f3c1b2a-5d4e-4f60-8a71-92b3c4d5e6f7"; kimicode.ExportID(id) != id {
		t.Errorf("a Kimi Code id is not kept")
	}
	var types []string
	var msgs []string
	for _, line := range strings.Split(strings.TrimSpace(string(e.Wire)), "\n") {
		var r struct {
			Type         string          `json:"type"`
			SystemPrompt string          `json:"systemPrompt"`
			ModelAlias   string          `json:"modelAlias"`
			Message      json.RawMessage `json:"message"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		types = append(types, r.Type)
		if r.Type == "profile.bind" && (r.SystemPrompt != "You are an agent." || r.ModelAlias != "mock") {
			t.Errorf("profile.bind: %s", line)
		}
		if r.Message != nil {
			msgs = append(msgs, string(r.Message))
		}
	}
	want := "metadata profile.bind turn.prompt context.append_message context.append_message context.append_message turn.ended turn.prompt context.append_message context.append_message turn.ended"
	if got := strings.Join(types, " "); got != want {
		t.Errorf("records %s\nwant    %s", got, want)
	}
	wantMsgs := []string{
		`{"role":"user","content":[{"type":"text","text":"Read a.txt."}],"toolCalls":[],"origin":{"kind":"user"}}`,
		`{"role":"assistant","content":[],"toolCalls":[{"type":"function","id":"c1","name":"Read","arguments":"{\"path\":\"a.txt\"}"}]}`,
		`{"role":"tool","content":[{"type":"text","text":"hello"}],"toolCalls":[],"toolCallId":"c1"}`,
		`{"role":"user","content":[{"type":"text","text":"Be brief."}],"toolCalls":[],"origin":{"kind":"injection"}}`,
		`{"role":"assistant","content":[{"type":"text","text":"It says hello."}],"toolCalls":[]}`,
	}
	if strings.Join(msgs, "\n") != strings.Join(wantMsgs, "\n") {
		t.Errorf("messages:\n%s", strings.Join(msgs, "\n"))
	}
	if !strings.Contains(string(e.State), `"id":"`+e.ID+`","version":2,"cwd":"/work"`) {
		t.Errorf("state.json %s", e.State)
	}
}
