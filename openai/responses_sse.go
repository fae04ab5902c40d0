package openai

// This file reads what a Responses answer reports (its usage, and whether
// a stream completed) and writes kompact's own Responses answers: the
// compaction item of a remote compaction, the summary as the assistant's
// text for a local one, each as the minimal event sequence Codex accepts
// (one response.output_item.done per item, then response.completed with
// the usage) or as a non-streamed response object.

import (
	"bytes"
	"encoding/json"
	"strconv"

	"kompact"
	"kompact/internal/jsonwrite"
)

// responsesUsage is a Responses usage report.
type responsesUsage struct {
	InputTokens  *int64 `json:"input_tokens"`
	OutputTokens *int64 `json:"output_tokens"`
	InputDetails *struct {
		CachedTokens *int64 `json:"cached_tokens"`
	} `json:"input_tokens_details"`
}

// usage maps a report to kompact's Usage (input_tokens counts the cached
// tokens too); nil for a report of no tokens.
func (w *responsesUsage) usage() *kompact.Usage {
	if w == nil || (w.InputTokens == nil && w.OutputTokens == nil) {
		return nil
	}
	var in, out int64
	var cached *int64
	if w.InputTokens != nil {
		in = *w.InputTokens
	}
	if w.OutputTokens != nil {
		out = *w.OutputTokens
	}
	if w.InputDetails != nil {
		cached = w.InputDetails.CachedTokens
	}
	u := UsageFrom(in, out, nil, cached)
	if u.Input() == 0 && u.Output == 0 {
		return nil
	}
	return &u
}

// ResponsesStream reads a streamed Responses answer event by event, for
// openai.RelayEvents: Event takes each event's data, never stripping one.
// It notes the usage response.completed reports and whether the stream
// completed: a stream that ends without response.completed, or that
// reports response.failed, response.incomplete or an error event, is not
// a clean turn (Codex retries it).
type ResponsesStream struct {
	usage     *kompact.Usage
	completed bool
	failed    string
}

// Event reads one event's data.
func (s *ResponsesStream) Event(data []byte) bool {
	if len(data) == 0 || data[0] != '{' || !bytes.Contains(data, []byte(`"type"`)) {
		return false
	}
	var ev struct {
		Type     string `json:"type"`
		Response *struct {
			Usage *responsesUsage `json:"usage"`
		} `json:"response"`
	}
	if json.Unmarshal(data, &ev) != nil {
		return false
	}
	switch ev.Type {
	case "response.completed":
		s.completed = true
		if ev.Response != nil {
			s.usage = ev.Response.Usage.usage()
		}
	case "response.failed", "response.incomplete", "error":
		s.failed = ev.Type
	}
	return false
}

// Usage is the usage response.completed reported, nil for none.
func (s *ResponsesStream) Usage() *kompact.Usage { return s.usage }

// Completed reports whether the stream held response.completed and no
// failure event.
func (s *ResponsesStream) Completed() bool { return s.completed && s.failed == "" }

// Failure names the failure event the stream held ("" for none).
func (s *ResponsesStream) Failure() string { return s.failed }

// ResponsesBodyUsage is the usage of a non-streamed answer (a response
// object); nil when it reports none.
func ResponsesBodyUsage(body []byte) *kompact.Usage {
	var r struct {
		Usage *responsesUsage `json:"usage"`
	}
	if json.Unmarshal(body, &r) != nil {
		return nil
	}
	return r.Usage.usage()
}

// ResponsesAnswer is an answer kompact writes itself.
type ResponsesAnswer struct {
	// ID is the response's id ("resp_…"), Model its model, CreatedAt its
	// Unix time.
	ID, Model string
	CreatedAt int64
	// Items are the output items, each one JSON object (CompactionItem,
	// AssistantItem).
	Items [][]byte
	// Usage is the usage the answer reports: that of the context the
	// client holds after it, so that its trigger does not fire again.
	Usage kompact.Usage
}

// CompactionItem is the one output item of a remote compaction's answer:
// {"type":"compaction","id":ID,"encrypted_content":HANDLE}.
func CompactionItem(id string, h CompactionHandle) []byte {
	dst := append([]byte(nil), `{"type":"compaction","id":`...)
	dst = jsonwrite.AppendString(dst, id)
	dst = append(dst, `,"encrypted_content":`...)
	dst = jsonwrite.AppendString(dst, h.String())
	return append(dst, '}')
}

// AssistantItem is an assistant message of one output_text part: a local
// compaction's answer holds the summary so.
func AssistantItem(id, text string) []byte {
	dst := append([]byte(nil), `{"type":"message","id":`...)
	dst = jsonwrite.AppendString(dst, id)
	dst = append(dst, `,"role":"assistant","status":"completed","content":[{"type":"output_text","text":`...)
	dst = jsonwrite.AppendString(dst, text)
	return append(dst, `,"annotations":[]}]}`...)
}

// AppendResponsesEvents appends the answer as server-sent events: one
// response.output_item.done per item, then response.completed holding the
// response object (AppendResponseObject), each "event: TYPE\ndata: JSON\n\n".
func AppendResponsesEvents(dst []byte, a *ResponsesAnswer) []byte {
	seq := 0
	for i, item := range a.Items {
		dst = append(dst, "event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"sequence_number\":"...)
		dst = strconv.AppendInt(dst, int64(seq), 10)
		dst = append(dst, `,"output_index":`...)
		dst = strconv.AppendInt(dst, int64(i), 10)
		dst = append(dst, `,"item":`...)
		dst = append(dst, item...)
		dst = append(dst, "}\n\n"...)
		seq++
	}
	dst = append(dst, "event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":"...)
	dst = strconv.AppendInt(dst, int64(seq), 10)
	dst = append(dst, `,"response":`...)
	dst = AppendResponseObject(dst, a)
	return append(dst, "}\n\n"...)
}

// AppendResponseObject appends the answer as a response object, the body
// of a non-streamed answer: id, object, created_at, status "completed",
// model, output (the items) and usage (input_tokens with
// input_tokens_details.cached_tokens, output_tokens with
// output_tokens_details.reasoning_tokens, total_tokens).
func AppendResponseObject(dst []byte, a *ResponsesAnswer) []byte {
	dst = append(dst, `{"id":`...)
	dst = jsonwrite.AppendString(dst, a.ID)
	dst = append(dst, `,"object":"response","created_at":`...)
	dst = strconv.AppendInt(dst, a.CreatedAt, 10)
	dst = append(dst, `,"status":"completed","model":`...)
	dst = jsonwrite.AppendString(dst, a.Model)
	dst = append(dst, `,"output":[`...)
	for i, item := range a.Items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, item...)
	}
	u := a.Usage
	dst = append(dst, `],"usage":{"input_tokens":`...)
	dst = strconv.AppendInt(dst, u.Input(), 10)
	dst = append(dst, `,"input_tokens_details":{"cached_tokens":`...)
	dst = strconv.AppendInt(dst, u.InputCacheRead, 10)
	dst = append(dst, `},"output_tokens":`...)
	dst = strconv.AppendInt(dst, u.Output, 10)
	dst = append(dst, `,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":`...)
	dst = strconv.AppendInt(dst, u.Input()+u.Output, 10)
	return append(dst, `}}`...)
}
