package openai_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/jsonscan"
	"kompact/openai"
)

// These fixtures are synthetic requests in the shapes Codex CLI 0.171.0
// sends (../shared/codex/README.md, "What a normal turn sends"), with
// texts of our own.

// codexItem is one input item of a fixture.
func codexItem(t testing.TB, v map[string]any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func textContent(typ, text string) []any {
	return []any{map[string]any{"type": typ, "text": text}}
}

// codexMsg is a message item; kinds, when given, are its
// internal_chat_message_metadata_passthrough.content_item_kinds (sent
// when the provider is named OpenAI).
func codexMsg(t testing.TB, id, role, text string, kinds ...string) string {
	typ := "input_text"
	if role == "assistant" {
		typ = "output_text"
	}
	m := map[string]any{"type": "message", "id": id, "role": role, "content": textContent(typ, text)}
	if len(kinds) > 0 {
		m["internal_chat_message_metadata_passthrough"] = map[string]any{"turn_id": "t1", "create_time": 1, "content_item_kinds": kinds}
	}
	return codexItem(t, m)
}

// codexHistory is a first turn with a tool round trip: base
// instructions, skills and permissions, the environment context, the
// user's question, reasoning, a call, its output, the answer.
func codexHistory(t testing.TB, kinds bool) []string {
	k := func(s ...string) []string {
		if kinds {
			return s
		}
		return nil
	}
	return []string{
		codexMsg(t, "msg_1", "developer", "You are a test agent.", k("model.base_instructions")...),
		codexMsg(t, "msg_2", "developer", "Skills: none. Permissions: read-only.", k("host_skills.instructions", "permissions.instructions")...),
		codexMsg(t, "msg_3", "user", "<environment_context>\n  <cwd>/tmp/w</cwd>\n</environment_context>", k("environments.environment_context")...),
		codexMsg(t, "msg_4", "user", "List the files, please.", k("user.text")...),
		codexItem(t, map[string]any{"type": "reasoning", "id": "rs_1", "summary": []any{}, "encrypted_content": "gAAAA-opaque"}),
		codexItem(t, map[string]any{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "exec_command", "arguments": `{"cmd":"ls"}`, "status": "completed"}),
		codexItem(t, map[string]any{"type": "function_call_output", "id": "fco_1", "call_id": "call_1", "output": "a.go\nb.go"}),
		codexMsg(t, "msg_5", "assistant", "There are two files."),
	}
}

// codexBody is a request body in Codex's key order.
func codexBody(items []string, tools string) []byte {
	return []byte(`{"model":"fake-model","stream":true,"input":[` + strings.Join(items, ",") + `],"tools":` + tools +
		`,"tool_choice":"auto","parallel_tool_calls":true,"reasoning":{"summary":"auto"},"store":false,"include":["reasoning.encrypted_content"],"prompt_cache_key":"th_1","client_metadata":{"x":"y"}}`)
}

const someTools = `[{"type":"function","name":"exec_command","parameters":{"type":"object"}}]`

func parse(t *testing.T, body []byte) *openai.ResponsesRequest {
	t.Helper()
	r, err := openai.ParseResponsesRequest(body)
	if err != nil {
		t.Fatalf("ParseResponsesRequest: %v", err)
	}
	return r
}

func TestParseResponsesRequestCodexTurn(t *testing.T) {
	for _, kinds := range []bool{false, true} {
		r := parse(t, codexBody(codexHistory(t, kinds), someTools))
		if r.Len() != 8 || r.Model() != "fake-model" || !r.Stream() || !r.HasTools() || r.NoTools() {
			t.Fatalf("kinds %v: Len %d, Model %q, Stream %v, HasTools %v, NoTools %v", kinds, r.Len(), r.Model(), r.Stream(), r.HasTools(), r.NoTools())
		}
		wantKinds := []openai.ItemKind{openai.ItemMessage, openai.ItemMessage, openai.ItemMessage, openai.ItemMessage,
			openai.ItemReasoning, openai.ItemFunctionCall, openai.ItemFunctionCallOutput, openai.ItemMessage}
		wantRoles := []kompact.Role{kompact.RoleSystem, kompact.RoleSystem, kompact.RoleSystem, kompact.RoleUser,
			kompact.RoleAssistant, kompact.RoleAssistant, kompact.RoleTool, kompact.RoleAssistant}
		wantContext := []bool{true, true, true, false, false, false, false, false}
		for i := range r.Len() {
			m, err := r.Message(i)
			if err != nil {
				t.Fatalf("kinds %v: Message(%d): %v", kinds, i, err)
			}
			if r.Kind(i) != wantKinds[i] || m.Role != wantRoles[i] || r.Context(i) != wantContext[i] {
				t.Errorf("kinds %v: item %d: kind %v role %v context %v; want %v %v %v", kinds, i, r.Kind(i), m.Role, r.Context(i), wantKinds[i], wantRoles[i], wantContext[i])
			}
			if err := kompact.ValidateMessages([]kompact.Message{m}); err != nil {
				t.Errorf("item %d: %v", i, err)
			}
		}
		user, _ := r.Message(3)
		if len(user.Content) != 1 || user.Content[0].Text != "List the files, please." {
			t.Errorf("the user's message: %+v", user)
		}
		call, _ := r.Message(5)
		if len(call.ToolCalls) != 1 || call.ToolCalls[0].ID != "call_1" || call.ToolCalls[0].Name != "exec_command" || *call.ToolCalls[0].Arguments != `{"cmd":"ls"}` {
			t.Errorf("the call: %+v", call)
		}
		out, _ := r.Message(6)
		if out.ToolCallID != "call_1" || !out.HasToolCallID || len(out.Content) != 1 || out.Content[0].Text != "a.go\nb.go" {
			t.Errorf("the output: %+v", out)
		}
		// The reasoning is opaque: no text part, so kompact's own
		// compaction (which reads text parts) never sends it.
		rs, _ := r.Message(4)
		if len(rs.Content) != 1 || rs.Content[0].Type != kompact.PartData || !bytes.Contains(rs.Content[0].Data, []byte("gAAAA-opaque")) {
			t.Errorf("the reasoning: %+v", rs)
		}
	}
}

// TestResponsesContextByKinds: with the passthrough kinds, a user message
// is the user's when a kind says so, whatever its text; without them, the
// environment tag decides.
func TestResponsesContextByKinds(t *testing.T) {
	items := []string{
		codexMsg(t, "m1", "user", "<environment_context>x</environment_context> but mine", "user.text"),
		codexMsg(t, "m2", "user", "plain words", "environments.environment_context"),
		codexMsg(t, "m3", "user", "  \n<environment_context>y</environment_context>"),
		codexMsg(t, "m4", "user", "my own <environment_context>"),
	}
	r := parse(t, codexBody(items, someTools))
	for i, want := range []bool{false, true, true, false} {
		if r.Context(i) != want {
			t.Errorf("item %d: Context %v, want %v", i, r.Context(i), want)
		}
	}
}

func TestResponsesDigestIgnoresWhiteSpace(t *testing.T) {
	a := parse(t, []byte(`{"input":[{"type":"message","role":"user","content":"hi"}]}`))
	b := parse(t, []byte("{ \"input\" : [ {\"type\": \"message\", \"role\":\"user\",\n \"content\": \"hi\"} ] }"))
	c := parse(t, []byte(`{"input":[{"type":"message","role":"user","content":"hi!"}]}`))
	if a.Digest(0) != b.Digest(0) || a.Digest(0) == c.Digest(0) {
		t.Error("Digest: white space must not count, content must")
	}
}

func TestResponsesStringInput(t *testing.T) {
	r := parse(t, []byte(`{"model":"m","input":"hello"}`))
	m, err := r.Message(0)
	if err != nil || r.Len() != 1 || m.Role != kompact.RoleUser || m.Content[0].Text != "hello" || r.Kind(0) != openai.ItemMessage {
		t.Fatalf("%d %+v %v", r.Len(), m, err)
	}
	if r.Compaction(openai.TurnMetadata{RequestKind: "compaction"}) != openai.NoCompaction || r.Context(0) {
		t.Error("a string input is an ordinary user message")
	}
}

func TestParseResponsesRequestRefuses(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`[]`, "not a JSON object"},
		{`{"model":"m"}`, `no "input"`},
		{`{"input":[],"input":[]}`, `"input" twice`},
		{`{"input":{}}`, "neither a string nor a list"},
		{`{"input":[1]}`, "input[0] is not an object"},
		{`{"input":[{"type":1}]}`, "must be strings"},
		{`{"input":[{"type":"message"}`, "not valid JSON"},
		{`{"input":[]} x`, "not valid JSON"},
		{`{"model":1,"input":[]}`, `"model" is not a string`},
		{`{"stream":"yes","input":[]}`, `"stream" is not true or false`},
	} {
		_, err := openai.ParseResponsesRequest([]byte(tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) || kompact.ErrorCodeOf(err) != kompact.EInvalid {
			t.Errorf("%s: %v, want EInvalid %q", tc.body, err, tc.want)
		}
	}
	r := parse(t, []byte(`{"input":[{"type":"message","role":"critic","content":"x"}]}`))
	if _, err := r.Message(0); err == nil || !strings.Contains(err.Error(), `input[0]: the gateway does not read the role "critic"`) {
		t.Errorf("Message of an unknown role: %v", err)
	}
}

// TestParseResponsesRequestBounds: the item and part bounds stop the scan
// at the first item past them.
func TestParseResponsesRequestBounds(t *testing.T) {
	body := codexBody(codexHistory(t, false), someTools)
	_, err := openai.ParseResponsesRequestBounded(body, 7, jsonscan.PartLimits{})
	var tm *openai.TooManyMessagesError
	if !errors.As(err, &tm) || tm.Max != 7 {
		t.Errorf("8 items, at most 7: %v", err)
	}
	if _, err := openai.ParseResponsesRequestBounded(body, 8, jsonscan.PartLimits{}); err != nil {
		t.Errorf("8 items, at most 8: %v", err)
	}
	many := codexItem(t, map[string]any{"type": "message", "role": "user", "content": []any{
		map[string]any{"type": "input_text", "text": "a"}, map[string]any{"type": "input_text", "text": "b"}, map[string]any{"type": "input_text", "text": "c"}}})
	_, err = openai.ParseResponsesRequestBounded(codexBody([]string{many}, someTools), 0, jsonscan.PartLimits{Message: 2})
	var tp *jsonscan.TooManyPartsError
	if !errors.As(err, &tp) || tp.Index != 0 || tp.Max != 2 {
		t.Errorf("3 parts, at most 2: %v", err)
	}
}

func TestCompactionHandle(t *testing.T) {
	h := openai.CompactionHandle{Session: "gw:abc-1", Revision: 12}
	if h.String() != "kompact:gw:abc-1:12" {
		t.Fatal(h.String())
	}
	if got, ok := openai.ParseCompactionHandle(h.String()); !ok || got != h {
		t.Errorf("round trip: %+v %v", got, ok)
	}
	for _, s := range []string{"", "kompact:", "kompact:s", "kompact:s:0", "kompact:s:-1", "kompact:s:01", "kompact::3", "kompact:a/b:3", "gAAAAB-openai", "KOMPACT-PLAINTEXT:x"} {
		if _, ok := openai.ParseCompactionHandle(s); ok {
			t.Errorf("%q read as a handle", s)
		}
	}
}

// TestResponsesExpand: the kompact compaction item becomes the summary as
// a user message; every other byte stays the client's; a foreign
// compaction item is left alone; an unknown handle is refused.
func TestResponsesExpand(t *testing.T) {
	h := openai.CompactionHandle{Session: "s1", Revision: 3}
	summaries := func(got openai.CompactionHandle) (string, bool) { return "SUMMARY of s1", got == h }
	hist := codexHistory(t, true)
	ours := codexItem(t, map[string]any{"type": "compaction", "id": "cmp_1", "encrypted_content": h.String()})
	foreign := codexItem(t, map[string]any{"type": "compaction", "id": "cmp_0", "encrypted_content": "gAAAA-from-openai"})
	items := []string{hist[0], hist[1], hist[2], hist[3], foreign, ours, codexMsg(t, "msg_9", "user", "Next question.", "user.text")}
	body := codexBody(items, someTools)
	r := parse(t, body)
	out, err := r.Expand(summaries)
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Replace(body, []byte(ours), []byte(`{"type":"message","role":"user","content":[{"type":"input_text","text":"SUMMARY of s1"}]}`), 1)
	if !bytes.Equal(out, want) {
		t.Errorf("Expand:\n%s\nwant\n%s", out, want)
	}
	// What is forwarded reads as a request again, the summary a message.
	again := parse(t, out)
	if again.Kind(5) != openai.ItemMessage || again.Kind(4) != openai.ItemCompaction {
		t.Errorf("kinds after Expand: %v %v", again.Kind(4), again.Kind(5))
	}
	// Message reads our compaction item as its summary.
	m, err := r.WithSummaries(summaries).Message(5)
	if err != nil || m.Role != kompact.RoleUser || len(m.Content) != 1 || m.Content[0].Text != "SUMMARY of s1" {
		t.Errorf("Message of the compaction item: %+v %v", m, err)
	}
	if m, _ := r.Message(5); m.Content[0].Type != kompact.PartData {
		t.Errorf("a handle without its summary, and no WithSummaries: the item is opaque: %+v", m)
	}
	// A body with no kompact item is forwarded as it is, the same slice.
	plain := codexBody(hist, someTools)
	if out, err := parse(t, plain).Expand(summaries); err != nil || &out[0] != &plain[0] || len(out) != len(plain) {
		t.Errorf("Expand of a body with no kompact item: %v", err)
	}
	other := codexItem(t, map[string]any{"type": "compaction", "encrypted_content": "kompact:s2:1"})
	_, err = parse(t, codexBody([]string{other}, someTools)).Expand(summaries)
	var uh *openai.UnknownHandleError
	if !errors.As(err, &uh) || uh.Index != 0 || uh.Handle.Session != "s2" {
		t.Errorf("an unknown handle: %v", err)
	}
}

// TestResponsesExpandKeepsSpacing: a body with white space keeps it
// outside the replaced item.
func TestResponsesExpandKeepsSpacing(t *testing.T) {
	body := []byte("{\n  \"input\": [\n    {\"type\": \"compaction\", \"encrypted_content\": \"kompact:s:1\"},\n    {\"role\": \"user\", \"content\": \"next\"}\n  ],\n  \"stream\": true\n}\n")
	out, err := parse(t, body).Expand(func(openai.CompactionHandle) (string, bool) { return "S", true })
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"input\": [\n    {\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"S\"}]},\n    {\"role\": \"user\", \"content\": \"next\"}\n  ],\n  \"stream\": true\n}\n"
	if string(out) != want {
		t.Errorf("got\n%s", out)
	}
}

// TestCompactionHandleCarriesSummary: a handle may carry its summary, so
// that Expand and Message need no lookup.
func TestCompactionHandleCarriesSummary(t *testing.T) {
	h := openai.CompactionHandle{Session: "s", Revision: 2, Summary: "line one\nline: two"}
	got, ok := openai.ParseCompactionHandle(h.String())
	if !ok || got != h {
		t.Fatalf("%q read as %+v %v", h.String(), got, ok)
	}
	item := codexItem(t, map[string]any{"type": "compaction", "id": "cmp_1", "encrypted_content": h.String()})
	r := parse(t, codexBody([]string{item, codexMsg(t, "m", "user", "next")}, someTools))
	out, err := r.Expand(openai.EmbeddedSummary)
	if err != nil || !bytes.Contains(out, []byte(`{"type":"message","role":"user","content":[{"type":"input_text","text":"line one\nline: two"}]}`)) {
		t.Errorf("Expand: %s %v", out, err)
	}
	if m, err := r.Message(0); err != nil || m.Content[0].Text != h.Summary {
		t.Errorf("Message: %+v %v", m, err)
	}
	if _, err := r.Expand(func(openai.CompactionHandle) (string, bool) { return "", false }); err == nil {
		t.Error("an unresolved handle is refused")
	}
}

// TestCompactedSinceTurn: a compaction that no model output follows is
// one the gateway must not answer a second time.
func TestCompactedSinceTurn(t *testing.T) {
	cmp := codexItem(t, map[string]any{"type": "compaction", "encrypted_content": "kompact:s:1"})
	user := codexMsg(t, "u", "user", "q")
	answer := codexMsg(t, "a", "assistant", "a")
	for _, tc := range []struct {
		items []string
		want  bool
	}{
		{[]string{user, answer}, false},
		{[]string{user, cmp}, true},
		{[]string{cmp, user}, true},
		{[]string{cmp, user, answer}, false},
		{[]string{cmp, user, codexItem(t, map[string]any{"type": "function_call", "call_id": "c", "name": "n", "arguments": "{}"})}, false},
	} {
		r := parse(t, codexBody(append(tc.items, `{"type":"compaction_trigger"}`), someTools))
		if got := r.Head(r.Len() - 1).CompactedSinceTurn(); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.items, got, tc.want)
		}
		if r.Head(r.Len()-1).Len() != len(tc.items) {
			t.Error("Head")
		}
	}
}
