// Package fakeresponses is an in-process fake of OpenAI's Responses API
// (POST /v1/responses, the wire Codex CLI speaks) for tests: it records
// every request (path, query, headers, body bytes) and answers each with
// what the test's script says: a stream event by event (flushed one at a
// time), a JSON body, an error, or a stream cut before
// response.completed. Codex (Script) answers as Codex CLI 0.171.0 needs
// (../shared/codex/README.md): the minimal event sequence, tool calls on
// request, a compaction item for a compaction_trigger, a summary for a
// tool-less compaction turn, and the usage the test chooses, so that
// Codex's automatic compaction can be made to fire.
package fakeresponses

import (
	"fmt"
	"testing"

	"kompact/internal/testing/fakesse"
)

// Request is one request the server received.
type Request = fakesse.Request

// Answer is what the server sends for one request.
type Answer = fakesse.Answer

// Server is the fake Responses API; Codex's base_url is its URL + "/v1".
type Server = fakesse.Server

// New starts a fake whose answers script gives, closed when t ends.
func New(t testing.TB, script func(Request) Answer) *Server {
	return fakesse.New(t, "text/event-stream", script)
}

// Usage is an answer's usage report: Input counts every input token, the
// Cached ones among them.
type Usage struct {
	Input, Cached, Output int64
}

func (u Usage) json() string {
	return fmt.Sprintf(`{"input_tokens":%d,"input_tokens_details":{"cached_tokens":%d},"output_tokens":%d,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":%d}`,
		u.Input, u.Cached, u.Output, u.Input+u.Output)
}

// Event is one server-sent event of type typ with data.
func Event(typ, data string) string { return fakesse.Event(typ, data) }

// quote is s as a JSON string.
func quote(s string) string { return fakesse.Quote(s) }

// MessageItem is an assistant message item of one output_text part.
func MessageItem(id, text string) string {
	return `{"type":"message","id":` + quote(id) + `,"role":"assistant","status":"completed","content":[{"type":"output_text","text":` + quote(text) + `,"annotations":[]}]}`
}

// FunctionCallItem is a function_call item.
func FunctionCallItem(id, callID, name, arguments string) string {
	return `{"type":"function_call","id":` + quote(id) + `,"call_id":` + quote(callID) + `,"name":` + quote(name) + `,"arguments":` + quote(arguments) + `,"status":"completed"}`
}

// CompactionItem is a compaction item holding encrypted.
func CompactionItem(id, encrypted string) string {
	return `{"type":"compaction","id":` + quote(id) + `,"encrypted_content":` + quote(encrypted) + `}`
}

// Minimal is the shortest stream Codex accepts: one
// response.output_item.done per item, then response.completed with u.
func Minimal(u Usage, items ...string) []string {
	evs := make([]string, 0, len(items)+1)
	for i, item := range items {
		evs = append(evs, Event("response.output_item.done", fmt.Sprintf(`{"type":"response.output_item.done","sequence_number":%d,"output_index":%d,"item":%s}`, i, i, item)))
	}
	return append(evs, Completed(len(items), u, items...))
}

// Completed is the response.completed event (sequence number seq) of a
// response holding items.
func Completed(seq int, u Usage, items ...string) string {
	out := "["
	for i, item := range items {
		if i > 0 {
			out += ","
		}
		out += item
	}
	return Event("response.completed", fmt.Sprintf(`{"type":"response.completed","sequence_number":%d,"response":{"id":"resp_fake","object":"response","status":"completed","model":"fake-model","output":%s],"usage":%s}}`, seq, out, u.json()))
}

// TextStream is the whole event sequence of a text answer, as OpenAI
// streams it: created, in_progress, the item and its part added, the text
// in deltas of at most 16 bytes, done events, completed.
func TextStream(id, text string, u Usage) []string {
	n := 0
	ev := func(typ, rest string) string {
		n++
		return Event(typ, fmt.Sprintf(`{"type":%q,"sequence_number":%d,%s}`, typ, n-1, rest))
	}
	resp := `"response":{"id":"resp_fake","object":"response","status":"in_progress","model":"fake-model","output":[]}`
	evs := []string{ev("response.created", resp), ev("response.in_progress", resp),
		ev("response.output_item.added", `"output_index":0,"item":{"type":"message","id":`+quote(id)+`,"role":"assistant","status":"in_progress","content":[]}`),
		ev("response.content_part.added", `"output_index":0,"item_id":`+quote(id)+`,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}`)}
	for _, piece := range pieces(text, 16) {
		evs = append(evs, ev("response.output_text.delta", `"output_index":0,"item_id":`+quote(id)+`,"content_index":0,"delta":`+quote(piece)))
	}
	item := MessageItem(id, text)
	evs = append(evs, ev("response.output_text.done", `"output_index":0,"item_id":`+quote(id)+`,"content_index":0,"text":`+quote(text)),
		ev("response.content_part.done", `"output_index":0,"item_id":`+quote(id)+`,"content_index":0,"part":{"type":"output_text","text":`+quote(text)+`,"annotations":[]}`),
		ev("response.output_item.done", `"output_index":0,"item":`+item))
	return append(evs, Completed(n, u, item))
}

// Cut is evs without their response.completed (the last event): a stream
// that ends before it, which Codex takes for a failure. Answer.Abort cuts
// the connection too.
func Cut(evs []string) []string { return evs[:len(evs)-1] }

// Error is an error answer in OpenAI's form.
func Error(status int, typ, message string) Answer {
	return Answer{Status: status, Header: map[string]string{"X-Request-Id": "req_fake_error"},
		Body: `{"error":{"message":` + quote(message) + `,"type":` + quote(typ) + `,"param":null,"code":null}}`}
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
