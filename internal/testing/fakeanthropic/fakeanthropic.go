// Package fakeanthropic is an in-process fake of Anthropic's Messages API
// for tests: it records every request (path, query, headers, body bytes)
// and answers each with what the test's script says, a stream event by
// event (flushed one at a time) or a JSON body, errors included.
package fakeanthropic

import (
	"fmt"
	"strings"
	"testing"

	"kompact/internal/testing/fakesse"
)

// Request is one request the server received.
type Request = fakesse.Request

// Answer is what the server sends for one request.
type Answer = fakesse.Answer

// Server is the fake Messages API.
type Server = fakesse.Server

// New starts a fake whose answers script gives, closed when t ends.
func New(t testing.TB, script func(Request) Answer) *Server {
	return fakesse.New(t, "text/event-stream; charset=utf-8", script)
}

// Usage is an answer's usage report.
type Usage struct {
	Input, Output, CacheRead, CacheCreation int64
}

func (u Usage) json(withInput bool) string {
	if !withInput {
		return fmt.Sprintf(`{"output_tokens":%d}`, u.Output)
	}
	return fmt.Sprintf(`{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"output_tokens":1}`,
		u.Input, u.CacheCreation, u.CacheRead)
}

// Event is one server-sent event of type typ with data.
func Event(typ, data string) string { return fakesse.Event(typ, data) }

// quote is s as a JSON string.
func quote(s string) string { return fakesse.Quote(s) }

// Start is a stream's message_start and its first ping.
func Start(model string, u Usage) []string {
	return []string{
		Event("message_start", `{"type":"message_start","message":{"id":"msg_fake","type":"message","role":"assistant","model":`+quote(model)+`,"content":[],"stop_reason":null,"stop_sequence":null,"usage":`+u.json(true)+`}}`),
		Event("ping", `{"type": "ping"}`),
	}
}

// Stop is a stream's message_delta (with stop reason and usage) and
// message_stop.
func Stop(reason string, u Usage) []string {
	return []string{
		Event("message_delta", `{"type":"message_delta","delta":{"stop_reason":`+quote(reason)+`,"stop_sequence":null},"usage":`+u.json(false)+`}`),
		Event("message_stop", `{"type":"message_stop"}`),
	}
}

// TextBlock is the events of text block index, its text sent in pieces
// of at most 16 bytes, a ping among them.
func TextBlock(index int, text string) []string {
	evs := []string{Event("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, index))}
	for i, piece := range pieces(text, 16) {
		evs = append(evs, Event("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%s}}`, index, quote(piece))))
		if i == 0 {
			evs = append(evs, Event("ping", `{"type": "ping"}`))
		}
	}
	return append(evs, Event("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, index)))
}

// ThinkingBlock is the events of a thinking block with its signature
// (signature_delta).
func ThinkingBlock(index int, thinking, signature string) []string {
	return []string{
		Event("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"thinking","thinking":"","signature":""}}`, index)),
		Event("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"thinking_delta","thinking":%s}}`, index, quote(thinking))),
		Event("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"signature_delta","signature":%s}}`, index, quote(signature))),
		Event("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, index)),
	}
}

// ToolUseBlock is the events of a tool_use block, its input sent as
// input_json_delta pieces.
func ToolUseBlock(index int, id, name, inputJSON string) []string {
	evs := []string{Event("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%s,"name":%s,"input":{}}}`, index, quote(id), quote(name)))}
	for _, piece := range pieces(inputJSON, 10) {
		evs = append(evs, Event("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, index, quote(piece))))
	}
	return append(evs, Event("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, index)))
}

// TextStream is a whole streamed answer of one text block.
func TextStream(model, text string, u Usage) []string {
	evs := Start(model, u)
	evs = append(evs, TextBlock(0, text)...)
	return append(evs, Stop("end_turn", u)...)
}

// TextMessage is a whole non-streamed answer of one text block.
func TextMessage(model, text string, u Usage) string {
	return `{"id":"msg_fake","type":"message","role":"assistant","model":` + quote(model) +
		`,"content":[{"type":"text","text":` + quote(text) + `}],"stop_reason":"end_turn","stop_sequence":null,"usage":` +
		strings.Replace(u.json(true), `"output_tokens":1`, fmt.Sprintf(`"output_tokens":%d`, u.Output), 1) + `}`
}

// Error is an error answer in Anthropic's form.
func Error(status int, typ, message string) Answer {
	return Answer{Status: status, Header: map[string]string{"Request-Id": "req_fake_error"},
		Body: `{"type":"error","error":{"type":` + quote(typ) + `,"message":` + quote(message) + `},"request_id":"req_fake_error"}`}
}

// pieces cuts s into pieces of at most n bytes (whole runes).
func pieces(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut := n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}
