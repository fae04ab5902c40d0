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
}

// TooManyMessagesError is ParseRequestAtMost's error for a request with
// more messages than its limit.
type TooManyMessagesError struct{ Max int }

func (e *TooManyMessagesError) Error() string {
	return fmt.Sprintf("the request has more than %d messages", e.Max)
}

// ParseRequest reads body as a Messages request: a JSON object whose
// "messages" is an array of objects. Every other field is left unread.
// A body that is not such an object is EInvalid, saying what is wrong;
// one with more than max messages (max > 0) is a *TooManyMessagesError.
func ParseRequest(body []byte, max int) (*Request, error) {
	var top struct {
		Model    json.RawMessage   `json:"model"`
		Stream   json.RawMessage   `json:"stream"`
		Messages []json.RawMessage `json:"messages"`
		System   json.RawMessage   `json:"system"`
	}
	if err := json.Unmarshal(body, &top); err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "the request body is not a Messages request: %v", err).
			WithFixes(`Send a JSON object like {"model": "...", "max_tokens": 1024, "messages": [{"role": "user", "content": "..."}]}.`)
	}
	if top.Messages == nil {
		return nil, kompact.Errorf(kompact.EInvalid, `the request has no "messages"`).
			WithFixes(`Send the conversation in "messages": at least one message.`)
	}
	if max > 0 && len(top.Messages) > max {
		return nil, &TooManyMessagesError{Max: max}
	}
	for i, m := range top.Messages {
		if t := bytes.TrimLeft(m, " \t\r\n"); len(t) == 0 || t[0] != '{' {
			return nil, kompact.Errorf(kompact.EInvalid, "messages[%d] is not an object", i).
				WithFixes(`Write each message as {"role": "user", "content": "..."}.`)
		}
	}
	r := &Request{messages: top.Messages, system: top.System}
	_ = json.Unmarshal(top.Model, &r.Model)
	_ = json.Unmarshal(top.Stream, &r.Stream)
	return r, nil
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
	return &Request{Model: r.Model, Stream: r.Stream, messages: r.messages[:n], system: r.system}
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
