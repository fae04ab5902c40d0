// Package openai talks to OpenAI-compatible chat-completions APIs (Moonshot's
// Kimi, OpenAI, Ollama, vLLM). This file holds the pure conversions between
// kompact's messages and the wire form; the transport lives apart from it.
package openai

import (
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"

	"kompact"
	"kompact/internal/jsonwrite"
	"kompact/internal/pystr"
	"kompact/sessionjson"
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
	e := wireEncoder{dst: dst}
	e.message(m)
	return e.dst
}

// wireEncoder appends wire messages to dst. With w set, it hands dst to w
// whenever it has grown past spillSize, between parts (or chunks of a long
// content list, see contentList), so that a request body of any size goes
// out through a few buffers of about that size or chunkBytes.
type wireEncoder struct {
	dst []byte
	w   io.Writer
	err error
	// encoded counts the messages begun and the parts of long content
	// lists encoded (the tests check that encoding stops at a write error).
	encoded int
	// v holds the texts that need no check (WithVerified).
	v sessionjson.Verified
}

// spillSize is how much a wireEncoder with a writer buffers.
const spillSize = 64 << 10

// spill hands dst to w once it has grown past spillSize. After a write
// error nothing more is written, and the encoder's loops stop.
func (e *wireEncoder) spill() {
	if e.w == nil || len(e.dst) < spillSize {
		return
	}
	e.flush()
}

func (e *wireEncoder) flush() {
	if e.err == nil {
		_, e.err = e.w.Write(e.dst)
	}
	e.dst = e.dst[:0]
}

// message writes one message in four steps: role and name, content,
// reasoning, tool calls and the id of the call answered.
func (e *wireEncoder) message(m *kompact.Message) {
	e.dst = append(e.dst, `{"role":`...)
	e.dst = jsonwrite.AppendString(e.dst, string(m.Role))
	if m.Name != "" {
		e.dst = append(e.dst, `,"name":`...)
		e.dst = jsonwrite.AppendString(e.dst, m.Name)
	}
	shape := contentShapeOf(m)
	if !shape.omit {
		e.dst = append(e.dst, `,"content":`...)
		e.content(m, shape)
	}
	if shape.think {
		e.dst = appendReasoning(e.dst, m)
	}
	e.dst = appendCallFields(e.dst, m)
	e.dst = append(e.dst, '}')
}

// contentShape says how a message's content goes on the wire.
type contentShape struct {
	// single: exactly one text (or data) part, written as a string.
	single bool
	// omit: an assistant message with tool calls and only blank text.
	omit bool
	// think: the message has think parts.
	think bool
}

func contentShapeOf(m *kompact.Message) contentShape {
	var nContent, nText int
	var sh contentShape
	blank := true
	for i := range m.Content {
		switch m.Content[i].Type {
		case kompact.PartThink:
			sh.think = true
			continue
		case kompact.PartText:
			nText++
			if blank && !pystr.IsBlank(m.Content[i].Text) {
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
	sh.single = nContent == 1 && nText == 1
	sh.omit = m.Role == kompact.RoleAssistant && len(m.ToolCalls) > 0 && blank
	return sh
}

// content writes "content"'s value: a string or a list of parts.
func (e *wireEncoder) content(m *kompact.Message, shape contentShape) {
	if shape.single {
		for i := range m.Content {
			switch m.Content[i].Type {
			case kompact.PartText:
				e.dst = e.v.AppendString(e.dst, m.Content[i].Text)
			case kompact.PartData:
				e.dst = jsonwrite.AppendString(e.dst, string(m.Content[i].Data))
			}
		}
		return
	}
	e.contentList(m)
}

// appendReasoning writes the think parts' texts, concatenated, as
// "reasoning_content" (nothing when they are all empty).
func appendReasoning(dst []byte, m *kompact.Message) []byte {
	var b strings.Builder
	for i := range m.Content {
		if m.Content[i].Type == kompact.PartThink {
			b.WriteString(m.Content[i].Think)
		}
	}
	if b.Len() == 0 {
		return dst
	}
	dst = append(dst, `,"reasoning_content":`...)
	return jsonwrite.AppendString(dst, b.String())
}

// appendCallFields writes "tool_calls" and "tool_call_id" when present.
func appendCallFields(dst []byte, m *kompact.Message) []byte {
	if len(m.ToolCalls) > 0 {
		dst = append(dst, `,"tool_calls":`...)
		dst = jsonwrite.AppendArray(dst, m.ToolCalls, (*kompact.ToolCall).AppendJSON)
	}
	return m.AppendToolCallID(dst)
}

// AppendWireMessages appends msgs as a JSON array of wire messages.
func AppendWireMessages(dst []byte, msgs []kompact.Message) []byte {
	e := wireEncoder{dst: dst}
	e.messages(msgs)
	return e.dst
}

func (e *wireEncoder) messages(msgs []kompact.Message) {
	e.dst = append(e.dst, '[')
	for i := range msgs {
		if e.err != nil {
			return // nothing more is written: stop encoding
		}
		if i > 0 {
			e.dst = append(e.dst, ',')
		}
		e.encoded++
		e.message(&msgs[i])
		e.spill()
	}
	e.dst = append(e.dst, ']')
}

// RequestBody returns the JSON body of rc's streaming chat-completions
// request for msgs: "model", "messages", the extra fields (sorted by name,
// encoded with encoding/json), "stream" and "stream_options". Of rc.Fields
// it writes only those kompact.IsSentField accepts: never "tools",
// "tool_choice" or the other tool fields, whatever the fields hold.
func RequestBody(rc kompact.RequestConfig, msgs []kompact.Message, opts ...BodyOption) ([]byte, error) {
	tail, err := requestTail(rc.Fields)
	if err != nil {
		return nil, err
	}
	e := wireEncoder{dst: make([]byte, 0, bodySize(rc.Model, msgs)+len(tail))}
	e.apply(opts)
	e.body(rc.Model, msgs, tail)
	return e.dst[:len(e.dst):len(e.dst)], nil
}

// WriteRequestBody writes the body RequestBody returns to w as it is
// produced, through a buffer of about 64 KiB (a long content list: three of
// about 256 KiB, two goroutines encoding it), and returns the first write
// error.
func WriteRequestBody(w io.Writer, rc kompact.RequestConfig, msgs []kompact.Message, opts ...BodyOption) error {
	tail, err := requestTail(rc.Fields)
	if err != nil {
		return err
	}
	e := wireEncoder{dst: make([]byte, 0, spillSize+spillSize/4), w: w}
	e.apply(opts)
	e.body(rc.Model, msgs, tail)
	e.flush()
	return e.err
}

// A BodyOption changes how RequestBody and WriteRequestBody encode a body,
// never a byte of it.
type BodyOption func(*wireEncoder)

// WithVerified lets the encoder copy the texts v holds as they are, without
// checking them again: v is the document the messages were decoded from
// (sessionjson.VerifiedDocument).
func WithVerified(v sessionjson.Verified) BodyOption {
	return func(e *wireEncoder) { e.v = v }
}

func (e *wireEncoder) apply(opts []BodyOption) {
	for _, o := range opts {
		o(e)
	}
}

func (e *wireEncoder) body(model string, msgs []kompact.Message, tail []byte) {
	e.dst = append(e.dst, `{"model":`...)
	e.dst = jsonwrite.AppendString(e.dst, model)
	e.dst = append(e.dst, `,"messages":`...)
	e.messages(msgs)
	e.dst = append(e.dst, tail...)
}

// bodySize estimates the size of a request body, so that RequestBody
// allocates once.
func bodySize(model string, msgs []kompact.Message) int {
	n := 256 + len(model)
	for i := range msgs {
		for j := range msgs[i].Content {
			p := &msgs[i].Content[j]
			n += len(p.Text) + len(p.URL) + len(p.Data) + 32
		}
		for j := range msgs[i].ToolCalls {
			c := &msgs[i].ToolCalls[j]
			n += len(c.ID) + len(c.Name) + len(c.Extras) + 64
			if c.Arguments != nil {
				n += len(*c.Arguments)
			}
		}
	}
	return n + n/16
}

// requestTail is what follows the messages: the extra fields, "stream"
// and "stream_options", and the closing brace.
func requestTail(fields map[string]any) ([]byte, error) {
	var dst []byte
	for _, k := range SortedFieldNames(fields) {
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
	return append(dst, `,"stream":true,"stream_options":{"include_usage":true}}`...), nil
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
	// Bytes counts the bytes of content, reasoning and tool calls received
	// so far, which the answer cap bounds.
	Bytes int64
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
	a.Bytes += int64(len(s))
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
	a.Bytes += int64(len(id) + len(name) + len(args))
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
