package openai_test

import (
	"fmt"
	"strings"
	"testing"

	"kompact"
	"kompact/openai"
)

// realisticBody is an agent's chat-completions request of n messages: a
// system prompt, then turns of a user's ask, an assistant's reasoning and
// tool call, the tool's result and the assistant's answer. spaced writes
// it as Python's json.dumps does by default (", " and ": "), else compact.
func realisticBody(n int, spaced bool) []byte {
	comma, colon := ",", ":"
	if spaced {
		comma, colon = ", ", ": "
	}
	obj := func(kv ...string) string {
		var b strings.Builder
		b.WriteByte('{')
		for i := 0; i < len(kv); i += 2 {
			if i > 0 {
				b.WriteString(comma)
			}
			fmt.Fprintf(&b, "%q%s%s", kv[i], colon, kv[i+1])
		}
		b.WriteByte('}')
		return b.String()
	}
	q := func(s string) string { return fmt.Sprintf("%q", s) }
	text := "The function reads the configuration file, validates each section against the schema and returns the first error it meets. "
	msgs := []string{obj("role", q("system"), "content", q("You are a careful coding agent. Use the tools to read and edit files; explain what you change."))}
	for i := 0; len(msgs) < n; i++ {
		id := fmt.Sprintf("call_%04d", i)
		args := fmt.Sprintf(`{"path": "src/module_%d.go", "start": %d, "end": %d}`, i, i*10, i*10+80)
		call := obj("id", q(id), "type", q("function"), "function", obj("name", q("read_file"), "arguments", q(args)))
		msgs = append(msgs,
			obj("role", q("user"), "content", q(fmt.Sprintf("Step %d: look at module %d and tell me why the tests fail. ", i, i)+text[:60])),
			obj("role", q("assistant"), "content", q(""), "reasoning_content", q("I should read the file first. "+text[:80]), "tool_calls", "["+call+"]"),
			obj("role", q("tool"), "tool_call_id", q(id), "content", q(strings.Repeat(fmt.Sprintf("line %d: %s\n", i, text), 6))),
			obj("role", q("assistant"), "content", q(strings.Repeat(text, 3))),
		)
	}
	msgs = msgs[:n]
	return []byte(obj("model", q("kimi-k2-0905-preview"), "messages", "["+strings.Join(msgs, comma)+"]",
		"temperature", "0.6", "stream", "true", "tools", `[{"type":"function","function":{"name":"read_file","parameters":{"type":"object"}}}]`))
}

// BenchmarkParseChatRequest: parsing a body and digesting every message,
// as the gateway does for each request (MB/s of body).
func BenchmarkParseChatRequest(b *testing.B) {
	for _, n := range []int{100, 10000} {
		for _, spaced := range []bool{false, true} {
			body := realisticBody(n, spaced)
			name := fmt.Sprintf("msgs=%d/compact", n)
			if spaced {
				name = fmt.Sprintf("msgs=%d/spaced", n)
			}
			b.Run(name+"/parse", func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := openai.ParseChatRequest(body); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(name+"/parse+digests", func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					r, err := openai.ParseChatRequest(body)
					if err != nil {
						b.Fatal(err)
					}
					for i := 0; i < r.Len(); i++ {
						_ = r.Digest(i)
					}
				}
			})
		}
	}
}

// BenchmarkChatMessages: converting every message to kompact's form (the
// first request of a conversation the gateway has not seen).
func BenchmarkChatMessages(b *testing.B) {
	benchParsed(b, func(b *testing.B, r *openai.ChatRequest, _ int) {
		for i := 0; i < r.Len(); i++ {
			if _, err := r.Message(i); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkForward: the body of a compacted request: head, summary, tail.
func BenchmarkForward(b *testing.B) {
	summary := []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(strings.Repeat("The summary of the work so far. ", 200))}}}
	benchParsed(b, func(_ *testing.B, r *openai.ChatRequest, n int) {
		_ = r.Forward(1, summary, n/2, true)
	})
}

// benchParsed runs op as a benchmark over a parsed realistic request of
// 100 and of 10k messages (n; MB/s of its body).
func benchParsed(b *testing.B, op func(b *testing.B, r *openai.ChatRequest, n int)) {
	for _, n := range []int{100, 10000} {
		body := realisticBody(n, false)
		r, err := openai.ParseChatRequest(body)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("msgs=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				op(b, r, n)
			}
		})
	}
}
