package kompact

import (
	"strconv"
	"unicode/utf8"
)

// ValidateUTF8 reports the first string of msgs that is not valid UTF-8: ids, names, text,
// think, signatures, URLs, media ids, data parts, tool calls and their arguments and extras.
// Stored sessions must be valid UTF-8 throughout, so that every reader (JSON encoders, the web
// page, kimi-cli) sees the same text. The error is an EInvalid one naming the field.
func ValidateUTF8(msgs []Message) error {
	c := MessageCheck{Rules: RuleUTF8}
	return c.Check(msgs)
}

// invalidUTF8Field names the first field of m that is not valid UTF-8, or returns "".
func invalidUTF8Field(m *Message) string {
	var f utf8Fields
	f.str("id", m.ID)
	f.str("name", m.Name)
	f.str("tool_call_id", m.ToolCallID)
	if f.bad != "" {
		return f.bad
	}
	if bad := invalidUTF8Item("content", m.Content, (*utf8Fields).part); bad != "" {
		return bad
	}
	return invalidUTF8Item("tool_calls", m.ToolCalls, (*utf8Fields).toolCall)
}

// invalidUTF8Item names the first field of items that is not valid UTF-8, as field[j].<the
// item's field>, or returns "".
func invalidUTF8Item[T any](field string, items []T, check func(*utf8Fields, *T)) string {
	for j := range items {
		var f utf8Fields
		check(&f, &items[j])
		if f.bad != "" {
			return field + "[" + strconv.Itoa(j) + "]." + f.bad
		}
	}
	return ""
}

// utf8Fields checks fields in turn and keeps the name of the first one that is not valid UTF-8;
// once one is found, the rest are not read.
type utf8Fields struct{ bad string }

func (f *utf8Fields) part(p *Part) {
	f.str("text", p.Text)
	f.str("think", p.Think)
	f.opt("encrypted", p.Encrypted)
	f.str("url", p.URL)
	f.opt("id", p.MediaID)
	f.bytes("data", p.Data)
}

func (f *utf8Fields) toolCall(c *ToolCall) {
	f.str("id", c.ID)
	f.str("function.name", c.Name)
	f.opt("function.arguments", c.Arguments)
	f.bytes("extras", c.Extras)
}

func (f *utf8Fields) str(name, s string) {
	if f.bad == "" && !utf8.ValidString(s) {
		f.bad = name
	}
}

// opt checks an optional string: nil is valid.
func (f *utf8Fields) opt(name string, s *string) {
	if s != nil {
		f.str(name, *s)
	}
}

func (f *utf8Fields) bytes(name string, b []byte) {
	if f.bad == "" && !utf8.Valid(b) {
		f.bad = name
	}
}
