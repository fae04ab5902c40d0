package kimicode_test

import (
	"strings"
	"testing"

	"kompact/kimicode"
)

// TestChatMessagesProjection: what Kimi Code 2.1.0's request projection does to a context
// that the recordings do not show (issue 39 §3): a tool result that answers no call goes,
// a call without a result is answered as interrupted, results follow their calls' order,
// blank text goes (a message left with nothing goes whole), a user message without an
// origin is not merged, merged messages keep their other parts after the joined text, an
// assistant's several text parts are sent as parts, thinking alone is an empty string.
func TestChatMessagesProjection(t *testing.T) {
	text := func(s string) kimicode.Part { return kimicode.Part{Type: "text", Text: s} }
	user := func(s string, kind string) kimicode.Message {
		return kimicode.Message{Role: "user", Parts: []kimicode.Part{text(s)}, Origin: kimicode.Origin{Kind: kind}}
	}
	result := func(id, s string) kimicode.Message {
		return kimicode.Message{Role: "tool", ToolCallID: id, Parts: []kimicode.Part{text(s)}}
	}
	image := kimicode.Part{Type: "image_url", Raw: []byte(`{"type":"image_url","image_url":{"url":"https://x/a.png"}}`)}
	calls := []kimicode.ToolCall{{ID: "a", Name: "Read", Arguments: `{"path":"a"}`}, {ID: "b", Name: "Read", Arguments: `{"path":"b"}`}}
	for _, tc := range []struct {
		name string
		ms   []kimicode.Message
		want []string
	}{
		{"results in the calls' order, a missing one interrupted, an orphan dropped", []kimicode.Message{
			user("go", "user"), {Role: "assistant", Parts: []kimicode.Part{text("  \n")}, ToolCalls: calls},
			result("zz", "orphan"), result("b", "B"),
		}, []string{
			`{"role":"user","content":"go"}`,
			`{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"Read","arguments":"{\"path\":\"a\"}"}},{"id":"b","type":"function","function":{"name":"Read","arguments":"{\"path\":\"b\"}"}}]}`,
			`{"role":"tool","tool_call_id":"a","content":"Tool result is not available in the current context. Do not assume the tool completed successfully."}`,
			`{"role":"tool","tool_call_id":"b","content":"B"}`,
		}},
		{"blank messages go; an origin-less user message is not merged", []kimicode.Message{
			user("one", "user"), user(" \n", "user"), user("two", "user"), user("three", ""),
			{Role: "assistant", Parts: []kimicode.Part{{Type: "think", Think: " "}}},
			{Role: "assistant", Parts: []kimicode.Part{{Type: "think", Think: "hm"}}},
		}, []string{
			`{"role":"user","content":"one\n\ntwo"}`, `{"role":"user","content":"three"}`, `{"role":"assistant","content":""}`,
		}},
		{"merged parts, several text parts", []kimicode.Message{
			{Role: "user", Parts: []kimicode.Part{text("look"), image}, Origin: kimicode.Origin{Kind: "user"}}, user("at this", "user"),
			{Role: "assistant", Parts: []kimicode.Part{text("a"), text("b")}},
		}, []string{
			`{"role":"user","content":[{"type":"text","text":"look\n\nat this"},{"type":"image_url","image_url":{"url":"https://x/a.png"}}]}`,
			`{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`,
		}},
		{"no assistant: tool results pass", []kimicode.Message{user("hi", "user"), result("x", "X")}, []string{
			`{"role":"user","content":"hi"}`, `{"role":"tool","tool_call_id":"x","content":"X"}`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, b := range kimicode.ChatMessageBytes(tc.ms) {
				got = append(got, string(b))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
