package openai

// This file reads one message of a chat-completions request into
// kompact's form: the inverse of AppendWireMessage where the two forms
// correspond (docs/gateway.md, "The wire form").

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"kompact"
	"kompact/internal/jsonscan"
)

// Message reads message i into kompact's form (with no ID: the wire form
// has none). The rules:
//
//   - "role": system, developer (read as system), user, assistant or tool;
//     any other role, or none, is an error.
//   - "content": a string is one text part (an empty string too); null or
//     absent is no part; a list is read part by part: {"type": "text",
//     "text"} is a text part; {"type": "image_url", "image_url": {"url",
//     "id"}} (likewise audio_url and video_url, the media parts
//     AppendWireMessage writes) is a media part with its URL and id, its
//     other fields (such as "detail") left out; every other part
//     (input_audio, file, refusal, a part of no known type) is a data part
//     holding the part's JSON, white space removed.
//   - "reasoning_content", a non-empty string, is a think part before the
//     content.
//   - "refusal", a non-empty string, is a data part after the content:
//     {"type":"refusal","refusal":...}, as a refusal part would be.
//   - "tool_calls": each {"id", "type": "function", "function": {"name",
//     "arguments"}, "extras"} is a tool call: arguments absent or null is
//     none, a string is kept, any other JSON value is kept as its text;
//     "extras", an object, is the call's Extras; a call whose type is not
//     function is an error; other fields of a call are left out.
//   - "tool_call_id", a string, is the id of the call a tool message
//     answers; "name", a string, is the participant name.
//   - every other field ("audio", "function_call", ...) is left out; a
//     field given twice counts once, its last value, as in Python's json.
//
// A field of the wrong JSON type is an error. Errors are EInvalid and name
// the field as messages[i].field. Strings are decoded as encoding/json
// decodes them (invalid UTF-8 and lone surrogates become U+FFFD), and the
// JSON that data parts, extras and non-string arguments keep has its
// invalid UTF-8 replaced likewise: the message passes kompact's UTF-8 rule.
// It shares no memory with the body.
func (r *ChatRequest) Message(i int) (kompact.Message, error) {
	d := wireDecoder{c: jsonscan.Cursor{B: r.body}, index: i}
	var f msgFields
	d.pick(r.msgs[i].start, []string{"role", "name", "content", "reasoning_content", "refusal", "tool_calls", "tool_call_id"},
		&f.role, &f.name, &f.content, &f.reasoning, &f.refusal, &f.toolCalls, &f.toolCallID)
	var m kompact.Message
	err := d.role(&f, &m)
	if err == nil {
		err = d.content(&f, &m)
	}
	if err == nil {
		err = d.toolCalls(&f, &m)
	}
	if err == nil {
		err = d.callID(&f, &m)
	}
	if err != nil {
		return kompact.Message{}, err
	}
	return m, nil
}

// msgFields are the positions of a message's fields' values in the body
// (0: absent or null; a value never starts at the body's first byte).
type msgFields struct {
	role, name, content, reasoning, refusal, toolCalls, toolCallID int
}

// wireDecoder reads the values of one message (index) of a checked body.
type wireDecoder struct {
	c     jsonscan.Cursor
	index int
}

func (d *wireDecoder) fail(field, format string, args ...any) error {
	return kompact.Errorf(kompact.EInvalid, "messages[%d].%s: %s", d.index, field, fmt.Sprintf(format, args...)).
		WithFixes("Send the message in the chat-completions form, e.g. {\"role\": \"user\", \"content\": \"...\"}.")
}

// fields calls fn with each key of the object at pos and the position of
// its value, 0 for a null one. The body is checked already: the object is
// valid JSON.
func (d *wireDecoder) fields(pos int, fn func(key string, pos int)) {
	c := &d.c
	c.I = pos + 1
	if c.Tok('}') {
		return
	}
	for {
		c.WS()
		key, _ := scanKey(c)
		c.Tok(':')
		c.WS()
		at := c.I
		if c.Null() {
			at = 0
		} else {
			skipValue(c)
		}
		fn(key, at)
		if !c.Tok(',') {
			c.Tok('}')
			return
		}
	}
}

// pick sets *at[k] to the position of the value of keys[k] in the object
// at pos, as fields gives it (0 for a null one; a key given twice: the
// last); other keys are passed over.
func (d *wireDecoder) pick(pos int, keys []string, at ...*int) {
	d.fields(pos, func(key string, p int) {
		for k, name := range keys {
			if key == name {
				*at[k] = p
				return
			}
		}
	})
}

// kind returns the first byte of the value at pos ('n' for absent or null).
func (d *wireDecoder) kind(pos int) byte {
	if pos == 0 {
		return 'n'
	}
	return d.c.B[pos]
}

// str reads the string at pos; ok is false when the value is not one.
func (d *wireDecoder) str(pos int) (string, bool) {
	if d.kind(pos) != '"' {
		return "", false
	}
	d.c.I = pos
	return scanString(&d.c)
}

// raw returns the value at pos without white space, in memory of its own,
// its invalid UTF-8 replaced by U+FFFD (as decoding it would).
func (d *wireDecoder) raw(pos int) []byte {
	end, _, _ := jsonscan.Value(d.c.B, pos)
	b := jsonscan.AppendCompact(nil, d.c.B[pos:end])
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	return b
}

// wireRoles maps the wire roles to kompact's.
var wireRoles = map[string]kompact.Role{
	"system": kompact.RoleSystem, "developer": kompact.RoleSystem, "user": kompact.RoleUser,
	"assistant": kompact.RoleAssistant, "tool": kompact.RoleTool,
}

const wireRoleList = "system, developer, user, assistant or tool"

// role reads "role" and "name".
func (d *wireDecoder) role(f *msgFields, m *kompact.Message) error {
	if f.role == 0 {
		return d.fail("role", "missing; a message's role is %s", wireRoleList)
	}
	s, ok := d.str(f.role)
	if !ok {
		return d.fail("role", "must be a string: %s", wireRoleList)
	}
	if m.Role, ok = wireRoles[s]; !ok {
		return d.fail("role", "the gateway does not read the role %q; a message's role is %s", s, wireRoleList)
	}
	if f.name != 0 {
		if m.Name, ok = d.str(f.name); !ok {
			return d.fail("name", "must be a string")
		}
	}
	return nil
}

// content reads "reasoning_content", "content" and "refusal" into parts.
func (d *wireDecoder) content(f *msgFields, m *kompact.Message) error {
	m.Content = []kompact.Part{}
	if f.reasoning != 0 {
		s, ok := d.str(f.reasoning)
		if !ok {
			return d.fail("reasoning_content", "must be a string")
		}
		if s != "" {
			m.Content = append(m.Content, kompact.ThinkPart(s))
		}
	}
	switch d.kind(f.content) {
	case 'n':
	case '"':
		s, _ := d.str(f.content)
		m.Content = append(m.Content, kompact.TextPart(s))
	case '[':
		if err := d.parts(f.content, m); err != nil {
			return err
		}
	default:
		return d.fail("content", "must be a string, a list of parts or null")
	}
	if f.refusal != 0 {
		s, ok := d.str(f.refusal)
		if !ok {
			return d.fail("refusal", "must be a string")
		}
		if s != "" {
			data := append([]byte(`{"type":"refusal","refusal":`), d.raw(f.refusal)...)
			m.Content = append(m.Content, kompact.Part{Type: kompact.PartData, Data: append(data, '}')})
		}
	}
	return nil
}

// elements calls fn with the position of each element of the array at pos.
func (d *wireDecoder) elements(pos int, fn func(j, pos int) error) error {
	c := &d.c
	c.I = pos + 1
	if c.Tok(']') {
		return nil
	}
	for j := 0; ; j++ {
		c.WS()
		at := c.I
		skipValue(c)
		next := c.I
		if err := fn(j, at); err != nil {
			return err
		}
		c.I = next
		if !c.Tok(',') {
			c.Tok(']')
			return nil
		}
	}
}

// parts reads a list of content parts.
func (d *wireDecoder) parts(pos int, m *kompact.Message) error {
	return d.elements(pos, func(j, at int) error {
		if d.kind(at) != '{' {
			return d.fail(fmt.Sprintf("content[%d]", j), `must be an object like {"type": "text", "text": "..."}`)
		}
		p, err := d.part(at, j)
		if err != nil {
			return err
		}
		m.Content = append(m.Content, p)
		return nil
	})
}

// part reads one content part (see Message).
func (d *wireDecoder) part(pos, j int) (kompact.Part, error) {
	var typ, text, image, audio, video int
	d.pick(pos, []string{"type", "text", "image_url", "audio_url", "video_url"}, &typ, &text, &image, &audio, &video)
	t, _ := d.str(typ)
	switch pt := kompact.PartType(t); {
	case pt == kompact.PartText:
		s, ok := d.str(text)
		if !ok {
			return kompact.Part{}, d.fail(fmt.Sprintf("content[%d].text", j), "must be a string")
		}
		return kompact.TextPart(s), nil
	case pt == kompact.PartImage:
		return d.media(pt, image, j)
	case pt == kompact.PartAudio:
		return d.media(pt, audio, j)
	case pt == kompact.PartVideo:
		return d.media(pt, video, j)
	}
	return kompact.Part{Type: kompact.PartData, Data: d.raw(pos)}, nil
}

// media reads a media part's {"url", "id"} (or a bare URL string).
func (d *wireDecoder) media(t kompact.PartType, pos, j int) (kompact.Part, error) {
	field := fmt.Sprintf("content[%d].%s", j, t)
	p := kompact.Part{Type: t}
	if s, ok := d.str(pos); ok {
		p.URL = s
		return p, nil
	}
	if d.kind(pos) != '{' {
		return p, d.fail(field, `must be an object like {"url": "..."}`)
	}
	var url, id int
	d.pick(pos, []string{"url", "id"}, &url, &id)
	var ok bool
	if p.URL, ok = d.str(url); !ok {
		return p, d.fail(field+".url", "must be a string")
	}
	if id != 0 {
		s, ok := d.str(id)
		if !ok {
			return p, d.fail(field+".id", "must be a string or null")
		}
		p.MediaID = &s
	}
	return p, nil
}

// toolCalls reads "tool_calls".
func (d *wireDecoder) toolCalls(f *msgFields, m *kompact.Message) error {
	switch d.kind(f.toolCalls) {
	case 'n':
		return nil
	case '[':
	default:
		return d.fail("tool_calls", "must be a list of calls")
	}
	m.ToolCalls = []kompact.ToolCall{}
	return d.elements(f.toolCalls, func(j, at int) error {
		c, err := d.toolCall(at, fmt.Sprintf("tool_calls[%d]", j))
		if err != nil {
			return err
		}
		m.ToolCalls = append(m.ToolCalls, c)
		return nil
	})
}

// toolCall reads one call (see Message).
func (d *wireDecoder) toolCall(pos int, field string) (kompact.ToolCall, error) {
	var c kompact.ToolCall
	if d.kind(pos) != '{' {
		return c, d.fail(field, `must be an object like {"id": "...", "type": "function", "function": {...}}`)
	}
	var id, typ, fn, extras int
	d.pick(pos, []string{"id", "type", "function", "extras"}, &id, &typ, &fn, &extras)
	if t, ok := d.str(typ); typ != 0 && (!ok || t != "function") {
		return c, d.fail(field+".type", "the gateway reads function calls only (type \"function\")")
	}
	var ok bool
	if c.ID, ok = d.str(id); id != 0 && !ok {
		return c, d.fail(field+".id", "must be a string")
	}
	if err := d.function(fn, field+".function", &c); err != nil {
		return c, err
	}
	switch d.kind(extras) {
	case 'n':
	case '{':
		c.Extras = d.raw(extras)
	default:
		return c, d.fail(field+".extras", "must be an object")
	}
	return c, nil
}

// function reads a call's {"name", "arguments"}.
func (d *wireDecoder) function(pos int, field string, c *kompact.ToolCall) error {
	switch d.kind(pos) {
	case 'n':
		return nil
	case '{':
	default:
		return d.fail(field, `must be an object like {"name": "...", "arguments": "{}"}`)
	}
	var name, args int
	d.pick(pos, []string{"name", "arguments"}, &name, &args)
	var ok bool
	if c.Name, ok = d.str(name); name != 0 && !ok {
		return d.fail(field+".name", "must be a string")
	}
	switch d.kind(args) {
	case 'n':
	case '"':
		s, _ := d.str(args)
		c.Arguments = &s
	default:
		s := string(d.raw(args))
		c.Arguments = &s
	}
	return nil
}

// callID reads "tool_call_id".
func (d *wireDecoder) callID(f *msgFields, m *kompact.Message) error {
	if f.toolCallID == 0 {
		return nil
	}
	var ok bool
	if m.ToolCallID, ok = d.str(f.toolCallID); !ok {
		return d.fail("tool_call_id", "must be a string")
	}
	m.HasToolCallID = true
	return nil
}

// scanString reads the string at the cursor as encoding/json decodes it
// into a Go string: the cursor's exact fast path, else encoding/json itself
// (invalid UTF-8, lone surrogates). ok is false when there is no valid
// string.
func scanString(c *jsonscan.Cursor) (string, bool) {
	start := c.I
	if s, ok := c.Str(); ok {
		return s, true
	}
	c.I = start
	if c.Peek() != '"' || !skipValue(c) {
		return "", false
	}
	var s string
	if json.Unmarshal(c.B[start:c.I], &s) != nil {
		return "", false
	}
	return s, true
}

// scanKey reads a key as scanString reads a string, sharing the text's
// memory when it can: a key is compared, never kept.
func scanKey(c *jsonscan.Cursor) (string, bool) {
	c.Alias = true
	k, ok := scanString(c)
	c.Alias = false
	return k, ok
}

// skipValue moves the cursor past one valid value; false when there is
// none (the cursor then is where the fault is).
func skipValue(c *jsonscan.Cursor) bool {
	end, _, ok := jsonscan.Value(c.B, c.I)
	c.I = end
	return ok
}
