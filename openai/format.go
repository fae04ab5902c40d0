// Package openai talks to OpenAI-compatible chat-completions APIs (Moonshot's
// Kimi, OpenAI, Ollama, vLLM). This file holds the pure conversions between
// kompact's messages and the wire form; the transport lives apart from it.
package openai

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"kompact"
	"kompact/internal/jsonwrite"
)

// AppendWireMessage appends m in the chat-completions wire form that
// kimi-cli's Kimi provider sends:
//
//   - think parts leave "content"; their texts, concatenated, become
//     "reasoning_content";
//   - "content" is a string when exactly one text part remains, otherwise a
//     list of parts (media parts keep "id": null when they have no id);
//   - an assistant message with tool calls whose content is only empty or
//     white-space text has no "content" at all;
//   - null fields are left out.
//
// kompact's data parts, which kimi-cli does not have, travel as text parts
// holding their JSON.
func AppendWireMessage(dst []byte, m *kompact.Message) []byte {
	dst = append(dst, `{"role":`...)
	dst = jsonwrite.AppendString(dst, string(m.Role))
	if m.Name != "" {
		dst = append(dst, `,"name":`...)
		dst = jsonwrite.AppendString(dst, m.Name)
	}
	var nContent, nText int
	hasThink := false
	blank := true
	for i := range m.Content {
		switch m.Content[i].Type {
		case kompact.PartThink:
			hasThink = true
			continue
		case kompact.PartText:
			nText++
			if strings.TrimSpace(m.Content[i].Text) != "" {
				blank = false
			}
		case kompact.PartData:
			nText++
			blank = false
		default:
			blank = false
		}
		nContent++
	}
	omitContent := m.Role == kompact.RoleAssistant && len(m.ToolCalls) > 0 && blank
	if !omitContent {
		dst = append(dst, `,"content":`...)
		if nContent == 1 && nText == 1 {
			for i := range m.Content {
				switch m.Content[i].Type {
				case kompact.PartText:
					dst = jsonwrite.AppendString(dst, m.Content[i].Text)
				case kompact.PartData:
					dst = jsonwrite.AppendString(dst, string(m.Content[i].Data))
				}
			}
		} else {
			dst = append(dst, '[')
			first := true
			for i := range m.Content {
				if m.Content[i].Type == kompact.PartThink {
					continue
				}
				if !first {
					dst = append(dst, ',')
				}
				first = false
				dst = appendWirePart(dst, &m.Content[i])
			}
			dst = append(dst, ']')
		}
	}
	if hasThink {
		var b strings.Builder
		for i := range m.Content {
			if m.Content[i].Type == kompact.PartThink {
				b.WriteString(m.Content[i].Think)
			}
		}
		if b.Len() > 0 {
			dst = append(dst, `,"reasoning_content":`...)
			dst = jsonwrite.AppendString(dst, b.String())
		}
	}
	if len(m.ToolCalls) > 0 {
		dst = append(dst, `,"tool_calls":[`...)
		for i := range m.ToolCalls {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = m.ToolCalls[i].AppendJSON(dst)
		}
		dst = append(dst, ']')
	}
	if m.HasToolCallID || m.ToolCallID != "" {
		dst = append(dst, `,"tool_call_id":`...)
		dst = jsonwrite.AppendString(dst, m.ToolCallID)
	}
	return append(dst, '}')
}

func appendWirePart(dst []byte, p *kompact.Part) []byte {
	switch p.Type {
	case kompact.PartText:
		dst = append(dst, `{"type":"text","text":`...)
		dst = jsonwrite.AppendString(dst, p.Text)
	case kompact.PartData:
		dst = append(dst, `{"type":"text","text":`...)
		dst = jsonwrite.AppendString(dst, string(p.Data))
	case kompact.PartImage, kompact.PartAudio, kompact.PartVideo:
		dst = append(dst, `{"type":`...)
		dst = jsonwrite.AppendString(dst, string(p.Type))
		dst = append(dst, ',')
		dst = jsonwrite.AppendString(dst, string(p.Type))
		dst = append(dst, `:{"url":`...)
		dst = jsonwrite.AppendString(dst, p.URL)
		dst = append(dst, `,"id":`...)
		if p.MediaID != nil {
			dst = jsonwrite.AppendString(dst, *p.MediaID)
		} else {
			dst = append(dst, "null"...)
		}
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

// AppendWireMessages appends msgs as a JSON array of wire messages.
func AppendWireMessages(dst []byte, msgs []kompact.Message) []byte {
	dst = append(dst, '[')
	for i := range msgs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendWireMessage(dst, &msgs[i])
	}
	return append(dst, ']')
}

// RequestBody returns the JSON body of a streaming chat-completions request
// for msgs: "model", "messages", the extra fields (sorted by name, encoded
// with encoding/json), "stream" and "stream_options". Of fields it writes
// only those kompact.IsSentField accepts: never "tools", "tool_choice" or the
// other tool fields, whatever fields holds.
func RequestBody(model string, msgs []kompact.Message, fields map[string]any) ([]byte, error) {
	n := 256 + len(model)
	for i := range msgs {
		for j := range msgs[i].Content {
			n += len(msgs[i].Content[j].Text) + 32
		}
	}
	dst := make([]byte, 0, n+n/16)
	dst = append(dst, `{"model":`...)
	dst = jsonwrite.AppendString(dst, model)
	dst = append(dst, `,"messages":`...)
	dst = AppendWireMessages(dst, msgs)
	for _, k := range kompact.SortedFieldNames(fields) {
		if !kompact.IsSentField(k) {
			continue
		}
		v, err := json.Marshal(fields[k])
		if err != nil {
			return nil, kompact.Errorf(kompact.EInvalid, "request setting %q cannot be sent as JSON: %v", k, err)
		}
		dst = append(dst, ',')
		dst = jsonwrite.AppendString(dst, k)
		dst = append(dst, ':')
		dst = append(dst, v...)
	}
	dst = append(dst, `,"stream":true,"stream_options":{"include_usage":true}}`...)
	return dst, nil
}

// UsageFrom maps a chat-completions usage report to kompact's Usage as
// kimi-cli's Kimi provider does: cached prompt tokens come from Moonshot's
// top-level "cached_tokens" or, failing that, from OpenAI's
// "prompt_tokens_details.cached_tokens"; the rest of the prompt tokens are
// InputOther.
func UsageFrom(promptTokens, completionTokens int64, cachedTopLevel, cachedDetails *int64) kompact.Usage {
	var cached int64
	switch {
	case cachedTopLevel != nil:
		cached = *cachedTopLevel
	case cachedDetails != nil:
		cached = *cachedDetails
	}
	return kompact.Usage{
		InputOther:     promptTokens - cached,
		Output:         completionTokens,
		InputCacheRead: cached,
	}
}

// Accumulator turns streamed deltas into an Answer as kosong does: empty
// content deltas are ignored, consecutive text deltas merge into one text
// part, consecutive reasoning deltas into one think part, and tool-call
// deltas build up the calls by index.
type Accumulator struct {
	parts   []kompact.Part
	cur     strings.Builder
	curType kompact.PartType
	calls   []kompact.ToolCall
	usage   *kompact.Usage
	// Chars counts the code points of content and reasoning received so far,
	// for progress reports.
	Chars int
}

// Content adds a text delta.
func (a *Accumulator) Content(s string) { a.add(kompact.PartText, s) }

// Reasoning adds a reasoning ("reasoning_content") delta.
func (a *Accumulator) Reasoning(s string) { a.add(kompact.PartThink, s) }

func (a *Accumulator) add(t kompact.PartType, s string) {
	if s == "" {
		return
	}
	a.Chars += utf8.RuneCountInString(s)
	if a.curType != t {
		a.flush()
		a.curType = t
	}
	a.cur.WriteString(s)
}

func (a *Accumulator) flush() {
	switch a.curType {
	case kompact.PartText:
		a.parts = append(a.parts, kompact.TextPart(a.cur.String()))
	case kompact.PartThink:
		a.parts = append(a.parts, kompact.ThinkPart(a.cur.String()))
	}
	a.cur = strings.Builder{}
	a.curType = ""
}

// ToolCall adds a tool-call delta: index says which call it continues. The id
// replaces any earlier one; name and args fragments are appended (providers
// send the id and the whole name on a call's first delta).
func (a *Accumulator) ToolCall(index int, id, name, args string) {
	for len(a.calls) <= index {
		a.calls = append(a.calls, kompact.ToolCall{})
	}
	c := &a.calls[index]
	if id != "" {
		c.ID = id
	}
	if name != "" {
		c.Name += name
	}
	if args != "" || c.Arguments == nil {
		s := args
		if c.Arguments != nil {
			s = *c.Arguments + args
		}
		c.Arguments = &s
	}
}

// Usage records the stream's usage report.
func (a *Accumulator) Usage(u kompact.Usage) { a.usage = &u }

// Answer returns what has been received.
func (a *Accumulator) Answer() kompact.Answer {
	parts := a.parts
	switch a.curType {
	case kompact.PartText:
		parts = append(parts[:len(parts):len(parts)], kompact.TextPart(a.cur.String()))
	case kompact.PartThink:
		parts = append(parts[:len(parts):len(parts)], kompact.ThinkPart(a.cur.String()))
	}
	var calls []kompact.ToolCall
	if a.calls != nil {
		calls = append([]kompact.ToolCall(nil), a.calls...)
	}
	return kompact.Answer{Parts: parts, ToolCalls: calls, Usage: a.usage}
}

// ---------------------------------------------------------------------------
// Provider errors: pure helpers the transport uses to read an error answer.
// ---------------------------------------------------------------------------

// ProviderError is what an OpenAI-compatible provider says about a failed
// request, read from its error body.
type ProviderError struct {
	// Message is the provider's explanation; when the body is not a known
	// error shape it is the body itself, trimmed and cut to 500 bytes.
	Message string
	// Type and Code are the provider's error type and code, when it gave them
	// (a numeric code is kept as its decimal text).
	Type, Code string
}

// maxRawErrorBody bounds how much of an unrecognised error body an error
// message quotes.
const maxRawErrorBody = 500

// ParseProviderError reads an error body in the shapes OpenAI-compatible
// providers use: {"error": {"message", "type", "code"}} (OpenAI, Moonshot,
// vLLM, Ollama), {"error": "text"}, a top-level {"message", "type", "code"}
// (older vLLM) and {"detail": "text"}. Anything else is quoted raw.
func ParseProviderError(body []byte) ProviderError {
	type fields struct {
		Message json.RawMessage `json:"message"`
		Type    json.RawMessage `json:"type"`
		Code    json.RawMessage `json:"code"`
		Error   json.RawMessage `json:"error"`
		Detail  json.RawMessage `json:"detail"`
	}
	var top fields
	if json.Unmarshal(body, &top) == nil {
		if len(top.Error) > 0 && top.Error[0] == '{' {
			var inner fields
			if json.Unmarshal(top.Error, &inner) == nil {
				if e := (ProviderError{Message: jsonText(inner.Message), Type: jsonText(inner.Type), Code: jsonText(inner.Code)}); e.Message != "" || e.Code != "" || e.Type != "" {
					return e
				}
			}
		}
		if s := jsonText(top.Error); s != "" && top.Error[0] == '"' {
			return ProviderError{Message: s, Type: jsonText(top.Type), Code: jsonText(top.Code)}
		}
		if s := jsonText(top.Message); s != "" {
			return ProviderError{Message: s, Type: jsonText(top.Type), Code: jsonText(top.Code)}
		}
		if s := jsonText(top.Detail); s != "" {
			return ProviderError{Message: s}
		}
	}
	return ProviderError{Message: truncateUTF8(strings.TrimSpace(string(body)), maxRawErrorBody)}
}

// jsonText returns a JSON string's value, a number's text, or "" for
// anything else.
func jsonText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return string(raw)
	}
	return ""
}

// truncateUTF8 cuts s to at most n bytes without splitting a character,
// marking the cut with "…".
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// contextTooLongPhrases are lower-case fragments of the messages providers
// use when the input does not fit the model's context window.
var contextTooLongPhrases = []string{
	"context length",  // OpenAI, vLLM, Ollama ("the input length exceeds the context length"), Mistral
	"context_length",  // codes quoted in messages
	"maximum context", // "This model's maximum context length is …"
	"context window",  // "exceeds the context window"
	"context size",    // llama.cpp: "exceeds the available context size"
	"too many tokens", // generic
	"prompt is too long",
	"input is too long",
	"input length exceeds",
	"exceeds the context",
	"reduce the length", // "Please reduce the length of the messages"
	"token limit",       // Moonshot: "Your request exceeded model token limit"
	"exceeds the maximum number of tokens",
}

// IsContextTooLong reports whether an error answer with HTTP status status
// says that the request does not fit the model's context window: a 400,
// 413 or 422 whose code or type is context_length_exceeded, or whose
// message reads like one.
func IsContextTooLong(status int, e ProviderError) bool {
	if status != 400 && status != 413 && status != 422 {
		return false
	}
	return IsContextTooLongError(e)
}

// IsContextTooLongError reports whether e says, by its code, type or
// message, that the request does not fit the model's context window.
func IsContextTooLongError(e ProviderError) bool {
	if e.Code == "context_length_exceeded" || e.Type == "context_length_exceeded" {
		return true
	}
	msg := strings.ToLower(e.Message)
	for _, p := range contextTooLongPhrases {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
