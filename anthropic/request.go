// Package anthropic speaks Anthropic's Messages API for kompact: the
// gateway's Messages face (docs/gateway.md, "Claude Code"), which reads a
// client's request without changing it, relays the upstream's answer and
// reads its usage, and kompact's own LLM calls for an agent whose llm block
// says api: anthropic.
package anthropic

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"

	"kompact"
	"kompact/internal/jsonscan"
)

// API is llm.api's value (kompact.LLMConfig.API) of an agent whose LLM
// speaks the Messages API.
const API = "anthropic"

// IsAnthropic reports whether llm speaks the Messages API.
func IsAnthropic(llm kompact.LLMConfig) bool { return llm.API == API }

// This file reads a Messages request as the gateway needs it: its
// messages (each digested in a form that a re-sent history keeps, and read
// into kompact's form), and whether it streams. The body itself is
// forwarded as it came.

// Request is a Messages request as the gateway reads it. It implements
// kompact.Conversation over the request's "messages" (the top-level
// "system" is not one of them).
type Request struct {
	// Model is the request's "model" ("" when absent or not a string).
	Model string
	// Stream is the request's "stream".
	Stream   bool
	messages []json.RawMessage
	system   json.RawMessage
	tools    bool
}

// HasTools reports whether the request offers tools: a "tools" that is
// neither absent, null nor an empty list.
func (r *Request) HasTools() bool { return r.tools }

// TooManyMessagesError is ParseRequest's error for a request with more
// messages than its limit: the bounds error every request parser shares.
type TooManyMessagesError = jsonscan.TooManyMessagesError

// ParseRequest reads body as a Messages request: a JSON object whose
// "messages" is an array of objects. Every other field is left unread.
// A body that is not such an object is EInvalid, saying what is wrong;
// one with more than max messages (max > 0) is a *TooManyMessagesError.
func ParseRequest(body []byte, max int) (*Request, error) {
	return ParseRequestBounded(body, max, jsonscan.PartLimits{})
}

// ParseRequestBounded is ParseRequest that also bounds the messages'
// parts (jsonscan.PartLimits). It reads the body in one pass
// (requestParser) and stops at the first message past a bound, with a
// *TooManyMessagesError or a *jsonscan.TooManyPartsError: no message is
// decoded and none copied (the messages are the body's memory, which must
// not change), so that what a refused body costs follows the bounds, not
// the body. The body must be valid JSON, with one "messages" (its key as
// written, compared after unescaping); "model" is read when it is a
// string and "stream" when it is true or false.
func ParseRequestBounded(body []byte, max int, parts jsonscan.PartLimits) (*Request, error) {
	p := requestParser{c: jsonscan.Cursor{B: body}, max: max, parts: jsonscan.PartBudget{Limits: parts}}
	if err := p.object(); err != nil {
		return nil, err
	}
	return &p.r, nil
}

// requestParser reads a Messages request's top-level object.
type requestParser struct {
	r     Request
	c     jsonscan.Cursor
	max   int // the most messages taken, 0 for any number
	parts jsonscan.PartBudget
	seen  bool // "messages" was read
}

// object reads the top-level object field by field, then checks that
// only white space follows it and that it had "messages".
func (p *requestParser) object() error {
	c := &p.c
	if !c.Tok('{') {
		return notARequest("the body is not a JSON object")
	}
	if !c.Tok('}') {
		for {
			if err := p.field(); err != nil {
				return err
			}
			if !c.Tok(',') {
				break
			}
		}
		if !c.Tok('}') {
			return p.syntax()
		}
	}
	if !c.AtEnd() {
		return p.syntax()
	}
	if !p.seen {
		return kompact.Errorf(kompact.EInvalid, `the request has no "messages"`).
			WithFixes(`Send the conversation in "messages": at least one message.`)
	}
	return nil
}

// field reads one key and its value.
func (p *requestParser) field() error {
	key, ok := p.key()
	if !ok || !p.c.Tok(':') {
		return p.syntax()
	}
	p.c.WS()
	start := p.c.I
	switch key {
	case "messages":
		if p.seen {
			return kompact.Errorf(kompact.EInvalid, `the request has the field "messages" twice`).
				WithFixes(`Send "messages" once: the gateway does not guess which one the provider would take.`)
		}
		p.seen = true
		return p.messages()
	case "model", "stream", "system", "tools":
		if !p.skip() {
			return p.syntax()
		}
		raw := p.c.B[start:p.c.I:p.c.I]
		switch key {
		case "model":
			p.r.Model = ""
			_ = json.Unmarshal(raw, &p.r.Model)
		case "stream":
			p.r.Stream = string(raw) == "true"
		case "tools":
			p.r.tools = jsonscan.OffersSome(raw)
		default:
			p.r.system = raw
		}
		return nil
	}
	if !p.skip() {
		return p.syntax()
	}
	return nil
}

// key reads a key as encoding/json decodes it (escapes included).
func (p *requestParser) key() (string, bool) {
	c := &p.c
	if c.Peek() != '"' {
		return "", false
	}
	start := c.I
	c.Alias = true
	k, ok := c.Str()
	c.Alias = false
	if ok {
		return k, true
	}
	c.I = start
	if !p.skip() || json.Unmarshal(c.B[start:c.I], &k) != nil {
		return "", false
	}
	return k, true
}

// skip moves past one valid value.
func (p *requestParser) skip() bool {
	end, _, ok := jsonscan.Value(p.c.B, p.c.I)
	p.c.I = end
	return ok
}

// messages reads the messages array, keeping each element's bytes and
// counting messages and parts as it goes.
func (p *requestParser) messages() error {
	c := &p.c
	if !c.Tok('[') {
		if !p.skip() {
			return p.syntax()
		}
		return notARequest(`"messages" is not a list`)
	}
	p.r.messages = []json.RawMessage{}
	if c.Tok(']') {
		return nil
	}
	for {
		if err := p.message(); err != nil {
			return err
		}
		if !c.Tok(',') {
			break
		}
	}
	if !c.Tok(']') {
		return p.syntax()
	}
	return nil
}

// message keeps one element of the messages array, which must be an
// object.
func (p *requestParser) message() error {
	c := &p.c
	i := len(p.r.messages)
	isObject := c.Peek() == '{'
	if isObject && p.max > 0 && i == p.max {
		return &TooManyMessagesError{Max: p.max}
	}
	start := c.I
	if !p.skip() {
		return p.syntax()
	}
	if !isObject {
		return kompact.Errorf(kompact.EInvalid, "messages[%d] is not an object", i).
			WithFixes(`Write each message as {"role": "user", "content": "..."}.`)
	}
	raw := c.B[start:c.I:c.I]
	if err := p.parts.Take(i, jsonscan.CountParts(raw, p.parts.Room())); err != nil {
		return err
	}
	p.r.messages = append(p.r.messages, raw)
	return nil
}

// syntax is the error of a body that is not valid JSON, located at the
// cursor.
func (p *requestParser) syntax() error {
	return notARequest(fmt.Sprintf("the body is not valid JSON (near byte %d of %d)", min(p.c.I, len(p.c.B)), len(p.c.B)))
}

// notARequest is the error of a body that is not a Messages request.
func notARequest(why string) error {
	return kompact.Errorf(kompact.EInvalid, "the request body is not a Messages request: %s", why).
		WithFixes(`Send a JSON object like {"model": "...", "max_tokens": 1024, "messages": [{"role": "user", "content": "..."}]}.`)
}

// Len is the number of messages.
func (r *Request) Len() int { return len(r.messages) }

// Digest is the SHA-256 of message i's normal form (normalMessage): the
// same for a message re-sent with its cache_control moved, or with a
// string content sent as one text block.
func (r *Request) Digest(i int) [32]byte {
	return sha256.Sum256(normalMessage(r.messages[i]))
}

// Message reads message i into kompact's form (messageOf).
func (r *Request) Message(i int) (kompact.Message, error) {
	m, err := messageOf(r.messages[i])
	if err != nil {
		return kompact.Message{}, kompact.Errorf(kompact.EInvalid, "messages[%d]: %v", i, err)
	}
	return m, nil
}

// Head is the request's first n messages, as a conversation of their own.
func (r *Request) Head(n int) *Request {
	return &Request{Model: r.Model, Stream: r.Stream, messages: r.messages[:n], system: r.system, tools: r.tools}
}

// wireMessage is a message of a Messages request.
type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// normalMessage returns a message's normal form, in which Claude Code's
// re-sent history is stable: the role, then the content as a list of
// blocks (a string content is one text block) whose keys are sorted and
// whose "cache_control" is dropped, in the blocks and in a tool result's
// content blocks. A message that does not read is its compacted bytes.
func normalMessage(raw json.RawMessage) []byte {
	var m wireMessage
	if json.Unmarshal(raw, &m) != nil {
		return compactJSON(raw)
	}
	blocks, err := contentBlocks(m.Content)
	if err != nil {
		return compactJSON(raw)
	}
	out := append([]byte(nil), m.Role...)
	out = append(out, 0)
	for _, b := range blocks {
		out = append(out, normalBlock(b)...)
		out = append(out, 0)
	}
	return out
}

// normalBlock returns a content block without its cache_control, keys
// sorted, recursing into a "content" list of blocks.
func normalBlock(b map[string]json.RawMessage) []byte {
	delete(b, "cache_control")
	if c, ok := b["content"]; ok {
		if inner, err := contentBlocks(c); err == nil && len(c) > 0 && c[0] == '[' {
			list := make([]json.RawMessage, len(inner))
			for i, ib := range inner {
				list[i] = normalBlock(ib)
			}
			b["content"], _ = json.Marshal(list)
		} else if len(c) > 0 && c[0] == '"' {
			b["content"] = compactJSON(c)
		}
	}
	out, _ := json.Marshal(b) // sorted keys; raw values compacted
	return out
}

// contentBlocks reads a message's content: a string is one text block; a
// list is its blocks (objects).
func contentBlocks(c json.RawMessage) ([]map[string]json.RawMessage, error) {
	c = bytes.TrimSpace(c)
	if len(c) > 0 && c[0] == '"' {
		text := compactJSON(c)
		return []map[string]json.RawMessage{{"type": json.RawMessage(`"text"`), "text": text}}, nil
	}
	var blocks []map[string]json.RawMessage
	if err := json.Unmarshal(c, &blocks); err != nil {
		return nil, fmt.Errorf("content must be a string or a list of blocks")
	}
	return blocks, nil
}

// compactJSON is raw without insignificant white space (raw itself when
// it is not valid JSON).
func compactJSON(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
