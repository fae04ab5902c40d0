package kimicli_test

import (
	"fmt"
	"strings"
	"testing"

	"kompact"
	"kompact/kimicli"
)

// benchContext returns a context.jsonl of n messages in kimi-cli's form:
// a system prompt, a checkpoint, user questions, assistant answers with
// a tool call, tool results with several parts, non-ASCII text, escapes
// in one message in ten, and a usage record.
func benchContext(n int) []byte {
	words := strings.Fields("retry ошибка 🚀 tool path émoji request 数据 result timeout value сессия handler")
	text := func(i, k int) string {
		var b strings.Builder
		if i%10 == 0 {
			b.WriteString("\"quoted\"\n")
		}
		for j := range k {
			b.WriteString(words[(i*7+j)%len(words)])
			b.WriteByte(' ')
		}
		return b.String()
	}
	prompt := "You are a coding agent."
	msgs := make([]kompact.Message, n)
	for i := range msgs {
		switch i % 3 {
		case 0:
			msgs[i] = kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(text(i, 300))}}
		case 1:
			args := fmt.Sprintf(`{"path": "src/file_%d.go"}`, i)
			msgs[i] = kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.ThinkPart(text(i, 40)), kompact.TextPart(text(i, 200))},
				ToolCalls: []kompact.ToolCall{{ID: fmt.Sprint("call_", i), Name: "read_file", Arguments: &args}}}
		default:
			msgs[i] = kompact.Message{Role: kompact.RoleTool, ToolCallID: fmt.Sprint("call_", i-1), HasToolCallID: true,
				Content: []kompact.Part{kompact.TextPart(text(i, 250)), kompact.TextPart("<system>done</system>")}}
		}
	}
	return kimicli.CompactedFile(&prompt, msgs, 123)
}

// BenchmarkParseContext reads a 10k-message context.jsonl in one go
// (GOMAXPROCS 1 does the same) and in two halves at once.
func BenchmarkParseContext(b *testing.B) {
	data := benchContext(10000)
	mid := kimicli.MiddleLine(data)
	for _, c := range []struct {
		name string
		mid  int
	}{{"one", 0}, {"halves", mid}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				f := kimicli.ParseContextSplit(data, c.mid)
				if len(f.Skipped) > 0 || len(f.Records) != 10003 {
					b.Fatalf("%d records, skipped %s", len(f.Records), f.SkippedSummary())
				}
			}
		})
	}
}
