package fakeresponses

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// This file is a script that answers as Codex CLI needs: what a request
// is (a turn, a tool's output coming back, a remote or a local
// compaction) is read from its body, and each answer is the minimal
// stream (or, for a request that does not stream, a response object).

// Kind is what a request to the fake is, read from its body.
type Kind string

const (
	// KindTurn: the last input item is a user message (a new turn).
	KindTurn Kind = "turn"
	// KindToolOutput: the last input item is a function_call_output.
	KindToolOutput Kind = "tool_output"
	// KindRemoteCompaction: the last input item is a compaction_trigger.
	KindRemoteCompaction Kind = "remote_compaction"
	// KindLocalCompaction: "tools" is [] and the last item a user
	// message (Codex's summarisation turn).
	KindLocalCompaction Kind = "local_compaction"
	// KindOther: anything else (a body that does not read, say).
	KindOther Kind = "other"
)

// KindOf reads what a request body is.
func KindOf(body []byte) Kind {
	var b struct {
		Tools *[]json.RawMessage `json:"tools"`
		Input []struct {
			Type string `json:"type"`
			Role string `json:"role"`
		} `json:"input"`
	}
	if json.Unmarshal(body, &b) != nil || len(b.Input) == 0 {
		return KindOther
	}
	last := b.Input[len(b.Input)-1]
	switch {
	case last.Type == "compaction_trigger":
		return KindRemoteCompaction
	case last.Type == "function_call_output":
		return KindToolOutput
	case (last.Type == "message" || last.Type == "") && last.Role == "user":
		if b.Tools != nil && len(*b.Tools) == 0 {
			return KindLocalCompaction
		}
		return KindTurn
	}
	return KindOther
}

// Codex is a script for Codex CLI. Its zero value answers every turn
// with "ok" and every compaction with "SUMMARY", reporting 100 input
// tokens.
type Codex struct {
	// Text is a turn's answer ("ok" when empty).
	Text string
	// Summary is a compaction's answer: the compaction item's
	// encrypted_content, or the local summary's text ("SUMMARY" when
	// empty).
	Summary string
	// Tool, when its Name is set, is the call a turn is answered with
	// first: the tool's output coming back is answered with Text.
	Tool ToolCall
	// Usage gives the usage of the n-th answer (from 0) to a request of
	// kind k; nil reports {Input: 100, Output: 5}.
	Usage func(n int, k Kind) Usage
	// Full sends a text answer as OpenAI streams it (TextStream), not the
	// minimal sequence.
	Full bool

	mu sync.Mutex
	n  int
}

// ToolCall is a function call the fake answers with.
type ToolCall struct {
	Name, Arguments string
}

// Answer answers req (the method to pass to New: New(t, c.Answer)).
func (c *Codex) Answer(req Request) Answer {
	c.mu.Lock()
	n := c.n
	c.n++
	c.mu.Unlock()
	k := KindOf(req.Body)
	u := Usage{Input: 100, Output: 5}
	if c.Usage != nil {
		u = c.Usage(n, k)
	}
	item, full := c.item(n, k)
	if !streams(req.Body) {
		return Answer{Body: fmt.Sprintf(`{"id":"resp_fake","object":"response","status":"completed","model":"fake-model","output":[%s],"usage":%s}`, item, u.json())}
	}
	if full != "" && c.Full {
		return Answer{Events: TextStream(fmt.Sprintf("msg_fake_%d", n), full, u)}
	}
	return Answer{Events: Minimal(u, item)}
}

// item is the output item of the n-th answer, to a request of kind k, and
// its text when it is a text answer.
func (c *Codex) item(n int, k Kind) (item, text string) {
	summary := c.Summary
	if summary == "" {
		summary = "SUMMARY"
	}
	answer := c.Text
	if answer == "" {
		answer = "ok"
	}
	switch {
	case k == KindRemoteCompaction:
		return CompactionItem(fmt.Sprintf("cmp_fake_%d", n), summary), ""
	case k == KindLocalCompaction:
		return MessageItem(fmt.Sprintf("msg_fake_%d", n), summary), summary
	case k == KindTurn && c.Tool.Name != "":
		return FunctionCallItem(fmt.Sprintf("fc_fake_%d", n), fmt.Sprintf("call_fake_%d", n), c.Tool.Name, c.Tool.Arguments), ""
	}
	return MessageItem(fmt.Sprintf("msg_fake_%d", n), answer), answer
}

// streams reports whether a request body asks for a stream.
func streams(body []byte) bool {
	var b struct {
		Stream bool `json:"stream"`
	}
	_ = json.Unmarshal(body, &b)
	return b.Stream
}

// LastUserText is the text of the last user message of a request body
// ("" when there is none), its input_text parts joined.
func LastUserText(body []byte) string {
	items := Items(body)
	for i := len(items) - 1; i >= 0; i-- {
		if items[i].Role == "user" {
			return items[i].Text()
		}
	}
	return ""
}

// Item is an input item as the fake reads it.
type Item struct {
	Type             string `json:"type"`
	Role             string `json:"role"`
	CallID           string `json:"call_id"`
	Name             string `json:"name"`
	Output           any    `json:"output"`
	EncryptedContent string `json:"encrypted_content"`
	Content          any    `json:"content"`
}

// Text is a message item's text parts joined (a string content as it is).
func (it Item) Text() string {
	if s, ok := it.Content.(string); ok {
		return s
	}
	var b strings.Builder
	parts, _ := it.Content.([]any)
	for _, p := range parts {
		if m, ok := p.(map[string]any); ok {
			if s, ok := m["text"].(string); ok {
				b.WriteString(s)
			}
		}
	}
	return b.String()
}

// Items reads a request body's input items (nil when it does not read).
func Items(body []byte) []Item {
	var b struct {
		Input []Item `json:"input"`
	}
	_ = json.Unmarshal(body, &b)
	return b.Input
}

// StreamItems are the items of a Responses stream's
// response.output_item.done events, in order: what Codex keeps of an
// answer (a compaction answered by kompact: its one compaction item).
func StreamItems(stream string) []string {
	var out []string
	for _, line := range strings.Split(stream, "\n") {
		var ev struct {
			Type string          `json:"type"`
			Item json.RawMessage `json:"item"`
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok && json.Unmarshal([]byte(data), &ev) == nil && ev.Type == "response.output_item.done" {
			out = append(out, string(ev.Item))
		}
	}
	return out
}
