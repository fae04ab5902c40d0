package kompact

import (
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"
)

// DecodeStoredMessage decodes a message that Message.AppendJSON wrote, the
// form stores keep. It reads that exact form quickly, with a handful of
// allocations, and falls back to DecodeMessage for anything else, so the
// result is always what DecodeMessage gives. index is used in errors.
func DecodeStoredMessage(data []byte, index int) (Message, error) {
	if m, ok := decodeCanonical(data); ok {
		return m, nil
	}
	return DecodeMessage(data, index)
}

// canon is a cursor over the canonical JSON form. Every method reports
// false as soon as the input leaves that form.
type canon struct {
	b []byte
	i int
}

func (c *canon) lit(s string) bool {
	if len(c.b)-c.i < len(s) || string(c.b[c.i:c.i+len(s)]) != s {
		return false
	}
	c.i += len(s)
	return true
}

func (c *canon) peek(s string) bool {
	return len(c.b)-c.i >= len(s) && string(c.b[c.i:c.i+len(s)]) == s
}

// str reads a JSON string as encoding/json would decode it, or fails for
// anything it is not sure about (invalid UTF-8, lone surrogates).
func (c *canon) str() (string, bool) {
	if c.i >= len(c.b) || c.b[c.i] != '"' {
		return "", false
	}
	start := c.i + 1
	j := start
	for j < len(c.b) {
		ch := c.b[j]
		if ch == '"' {
			raw := c.b[start:j]
			if !utf8.Valid(raw) {
				return "", false
			}
			c.i = j + 1
			return string(raw), true
		}
		if ch == '\\' {
			return c.escaped(start)
		}
		if ch < 0x20 {
			return "", false
		}
		j++
	}
	return "", false
}

// escaped decodes a string with escapes, starting at its first byte.
func (c *canon) escaped(start int) (string, bool) {
	out := make([]byte, 0, 64)
	j := start
	for j < len(c.b) {
		ch := c.b[j]
		switch {
		case ch == '"':
			if !utf8.Valid(out) {
				return "", false
			}
			c.i = j + 1
			return string(out), true
		case ch < 0x20:
			return "", false
		case ch != '\\':
			out = append(out, ch)
			j++
			continue
		}
		if j+1 >= len(c.b) {
			return "", false
		}
		switch c.b[j+1] {
		case '"', '\\', '/':
			out = append(out, c.b[j+1])
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'u':
			r, ok := hex4(c.b, j+2)
			if !ok {
				return "", false
			}
			j += 6
			if utf16.IsSurrogate(r) {
				if j+6 > len(c.b) || c.b[j] != '\\' || c.b[j+1] != 'u' {
					return "", false
				}
				r2, ok := hex4(c.b, j+2)
				if !ok {
					return "", false
				}
				r = utf16.DecodeRune(r, r2)
				if r == utf8.RuneError {
					return "", false
				}
				j += 6
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return "", false
		}
		j += 2
	}
	return "", false
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, ch := range b[i : i+4] {
		r <<= 4
		switch {
		case ch >= '0' && ch <= '9':
			r |= rune(ch - '0')
		case ch >= 'a' && ch <= 'f':
			r |= rune(ch - 'a' + 10)
		case ch >= 'A' && ch <= 'F':
			r |= rune(ch - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

// value returns the raw bytes of one compact JSON value (no white space
// outside strings), as data parts and extras hold them.
func (c *canon) value() ([]byte, bool) {
	start := c.i
	if !c.skip(0) {
		return nil, false
	}
	raw := c.b[start:c.i]
	return raw, json.Valid(raw)
}

// skip moves past one value.
func (c *canon) skip(depth int) bool {
	if c.i >= len(c.b) || depth > 1000 {
		return false
	}
	switch open := c.b[c.i]; open {
	case '"':
		_, ok := c.str()
		return ok
	case '{', '[':
		closer := byte('}')
		if open == '[' {
			closer = ']'
		}
		c.i++
		if c.i < len(c.b) && c.b[c.i] == closer {
			c.i++
			return true
		}
		for {
			if open == '{' {
				if _, ok := c.str(); !ok || !c.lit(":") {
					return false
				}
			}
			if !c.skip(depth + 1) {
				return false
			}
			if c.lit(",") {
				continue
			}
			return c.lit(string(closer))
		}
	default:
		start := c.i
		for c.i < len(c.b) {
			ch := c.b[c.i]
			if ch == '-' || ch == '+' || ch == '.' || ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'z' || ch == 'E' {
				c.i++
				continue
			}
			break
		}
		return c.i > start
	}
}

// decodeCanonical reads exactly the form Message.AppendJSON writes.
func decodeCanonical(b []byte) (Message, bool) {
	var m Message
	c := &canon{b: b}
	var ok bool
	if !c.lit(`{"role":`) {
		return m, false
	}
	role, ok := c.str()
	if !ok || !Role(role).Valid() {
		return m, false
	}
	m.Role = Role(role)
	if c.lit(`,"id":`) {
		if m.ID, ok = c.str(); !ok {
			return m, false
		}
	}
	if c.lit(`,"name":`) {
		if m.Name, ok = c.str(); !ok {
			return m, false
		}
	}
	if !c.lit(`,"content":[`) {
		return m, false
	}
	m.Content = []Part{}
	for !c.lit("]") {
		if len(m.Content) > 0 && !c.lit(",") {
			return m, false
		}
		p, ok := c.part()
		if !ok {
			return m, false
		}
		m.Content = append(m.Content, p)
	}
	if c.lit(`,"tool_calls":[`) {
		m.ToolCalls = []ToolCall{}
		for !c.lit("]") {
			if len(m.ToolCalls) > 0 && !c.lit(",") {
				return m, false
			}
			tc, ok := c.toolCall()
			if !ok {
				return m, false
			}
			m.ToolCalls = append(m.ToolCalls, tc)
		}
	}
	if c.lit(`,"tool_call_id":`) {
		if m.ToolCallID, ok = c.str(); !ok {
			return m, false
		}
		m.HasToolCallID = true
	}
	if !c.lit("}") || c.i != len(b) {
		return m, false
	}
	return m, true
}

func (c *canon) part() (Part, bool) {
	var p Part
	var ok bool
	switch {
	case c.lit(`{"type":"text","text":`):
		p.Type = PartText
		if p.Text, ok = c.str(); !ok {
			return p, false
		}
	case c.lit(`{"type":"think","think":`):
		p.Type = PartThink
		if p.Think, ok = c.str(); !ok {
			return p, false
		}
		if c.lit(`,"encrypted":`) {
			e, ok := c.str()
			if !ok {
				return p, false
			}
			p.Encrypted = &e
		}
	case c.peek(`{"type":"image_url"`) || c.peek(`{"type":"audio_url"`) || c.peek(`{"type":"video_url"`):
		c.i += len(`{"type":`)
		t, _ := c.str()
		p.Type = PartType(t)
		if !c.lit(`,"` + t + `":{"url":`) {
			return p, false
		}
		if p.URL, ok = c.str(); !ok {
			return p, false
		}
		if c.lit(`,"id":`) {
			id, ok := c.str()
			if !ok {
				return p, false
			}
			p.MediaID = &id
		}
		if !c.lit("}") {
			return p, false
		}
	case c.lit(`{"type":"data","data":`):
		p.Type = PartData
		raw, ok := c.value()
		if !ok || string(raw) == "null" {
			return p, false
		}
		p.Data = append([]byte(nil), raw...)
	default:
		return p, false
	}
	return p, c.lit("}")
}

func (c *canon) toolCall() (ToolCall, bool) {
	var tc ToolCall
	var ok bool
	if !c.lit(`{"type":"function","id":`) {
		return tc, false
	}
	if tc.ID, ok = c.str(); !ok {
		return tc, false
	}
	if !c.lit(`,"function":{"name":`) {
		return tc, false
	}
	if tc.Name, ok = c.str(); !ok {
		return tc, false
	}
	if c.lit(`,"arguments":`) {
		a, ok := c.str()
		if !ok {
			return tc, false
		}
		tc.Arguments = &a
	}
	if !c.lit("}") {
		return tc, false
	}
	if c.lit(`,"extras":`) {
		if c.i >= len(c.b) || c.b[c.i] != '{' {
			return tc, false
		}
		raw, ok := c.value()
		if !ok {
			return tc, false
		}
		tc.Extras = append([]byte(nil), raw...)
	}
	return tc, c.lit("}")
}
