package apitest

import (
	"fmt"
	"kompact/internal/testing/kcvectors"
	"kompact/kimicode"
	"strings"
	"testing"
)

// KimiCodeWire returns the wire.jsonl of the recorded case todos_two_manual at its end (two
// compactions applied), its texts filled from ../shared and its placeholders given values,
// and the texts, which the kimi-code type is set to use.
func KimiCodeWire(t *testing.T) ([]byte, *kimicode.Texts) {
	t.Helper()
	raw := kcvectors.Texts(t)
	texts := kimicode.NewTexts(raw, "shared")
	kimicode.UseTexts(texts)
	for _, c := range kcvectors.Cases(t) {
		if c.Name == "todos_two_manual" {
			env := kcvectors.Env{Home: "/home/u/.kimi-code", Work: "/home/u/work", SessionID: "session_1", WorkspaceID: "ws", Date: "2026-01-01"}
			return env.Untemplate(c.Read(t, raw, "session_final/agents/main/wire.jsonl")), texts
		}
	}
	t.Fatal("no case todos_two_manual")
	return nil, nil
}

// WithoutIDs is the JSON of a stored session's messages without their ids.
func WithoutIDs(t *testing.T, s map[string]any) string {
	t.Helper()
	msgs := s["messages"].([]any)
	for _, m := range msgs {
		delete(m.(map[string]any), "id")
	}
	return JSONText(t, msgs)
}

// KimiContext is a kimi-cli context.jsonl: a system prompt, a checkpoint,
// two messages, a usage record and one line that cannot be read.
const KimiContext = `{"role":"_system_prompt","content":"You are Kimi."}
{"role":"_checkpoint","id":0}
{"role":"user","content":"fix the test"}
{"role":"assistant","content":"done"}
not json
{"role":"_usage","token_count":42}
`

// ToolExchanges is a session of agent with one tool exchange (a bash call
// and its result) per entry of sizes, the result that many characters
// long, naming a file and ending in an exit status.
func ToolExchanges(id, agent string, sizes ...int) map[string]any {
	msgs := []map[string]any{{"id": "u0", "role": "user", "content": "run the tests"}}
	for i, n := range sizes {
		out := fmt.Sprintf("p%d/a_test.go:3:5: undefined: x\n", i)
		out += strings.Repeat("x", n-len(out)-len("\nexit status 1")) + "\nexit status 1"
		msgs = append(msgs,
			map[string]any{"id": fmt.Sprintf("a%d", i), "role": "assistant", "content": "",
				"tool_calls": []any{map[string]any{"type": "function", "id": fmt.Sprintf("call_%d", i),
					"function": map[string]any{"name": "bash", "arguments": fmt.Sprintf(`{"command":"go test ./p%d"}`, i)}}}},
			map[string]any{"id": fmt.Sprintf("t%d", i), "role": "tool", "tool_call_id": fmt.Sprintf("call_%d", i), "content": out})
	}
	return map[string]any{"id": id, "agent": agent, "messages": msgs}
}
