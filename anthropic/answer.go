package anthropic

import (
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

// This file writes the gateway's own answer in the Messages format, for a
// compaction request it answers from a ready summary: one text block, as
// a message object or, for a streamed request, as the events a Messages
// stream has.

// answerChunk is how much text one text_delta event carries at most.
const answerChunk = 4096

// Answer is a Messages answer of one text block.
type Answer struct {
	// ID is the message's id; Model the request's model.
	ID, Model, Text string
	// InputTokens and OutputTokens are the usage it reports.
	InputTokens, OutputTokens int
}

type answerUsage struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	OutputTokens             int `json:"output_tokens"`
}

type answerMessage struct {
	ID           string      `json:"id"`
	Type         string      `json:"type"`
	Role         string      `json:"role"`
	Model        string      `json:"model"`
	Content      []block     `json:"content"`
	StopReason   *string     `json:"stop_reason"`
	StopSequence *string     `json:"stop_sequence"`
	Usage        answerUsage `json:"usage"`
}

// JSON is the answer as a message object.
func (a *Answer) JSON() []byte {
	stop := "end_turn"
	b, _ := json.Marshal(answerMessage{ID: a.ID, Type: "message", Role: "assistant", Model: a.Model,
		Content: []block{{"type": "text", "text": a.Text}}, StopReason: &stop,
		Usage: answerUsage{InputTokens: a.InputTokens, OutputTokens: a.OutputTokens}})
	return b
}

// sseEvent is one event of a stream the gateway writes.
type sseEvent struct {
	typ  string
	data any
}

// Stream writes the answer as a Messages stream to w, calling flush after
// each event: message_start, a text block in text_delta pieces of at most
// 4 KiB, message_delta with the stop reason and usage, message_stop.
func (a *Answer) Stream(w io.Writer, flush func()) error {
	start := answerMessage{ID: a.ID, Type: "message", Role: "assistant", Model: a.Model, Content: []block{},
		Usage: answerUsage{InputTokens: a.InputTokens, OutputTokens: 1}}
	events := []sseEvent{
		{"message_start", map[string]any{"type": "message_start", "message": start}},
		{"content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": block{"type": "text", "text": ""}}},
	}
	for text := a.Text; text != ""; {
		n := min(len(text), answerChunk)
		for n < len(text) && !utf8.RuneStart(text[n]) {
			n--
		}
		events = append(events, sseEvent{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": block{"type": "text_delta", "text": text[:n]}}})
		text = text[n:]
	}
	events = append(events, []sseEvent{
		{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		{"message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil}, "usage": map[string]int{"output_tokens": a.OutputTokens}}},
		{"message_stop", map[string]any{"type": "message_stop"}},
	}...)
	for _, ev := range events {
		data, _ := json.Marshal(ev.data)
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.typ, data); err != nil {
			return err
		}
		if flush != nil {
			flush()
		}
	}
	return nil
}
