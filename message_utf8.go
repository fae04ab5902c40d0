package kompact

import (
	"strconv"
	"unicode/utf8"
)

// ValidateUTF8 reports the first string of msgs that is not valid UTF-8:
// ids, names, text, think, signatures, URLs, media ids, data parts, tool
// calls and their arguments and extras. Stored sessions must be valid
// UTF-8 throughout, so that every reader (JSON encoders, the web page,
// kimi-cli) sees the same text. The error is an EInvalid one naming the
// field.
func ValidateUTF8(msgs []Message) error {
	for i := range msgs {
		if field := invalidUTF8Field(&msgs[i]); field != "" {
			return Errorf(EInvalid, "messages[%d].%s is not valid UTF-8", i, field).
				WithFixes("Send text as UTF-8; encode binary payloads (e.g. as base64) before putting them in a message.")
		}
	}
	return nil
}

// invalidUTF8Field names the first field of m that is not valid UTF-8, or
// returns "".
func invalidUTF8Field(m *Message) string {
	switch {
	case !utf8.ValidString(m.ID):
		return "id"
	case !utf8.ValidString(m.Name):
		return "name"
	case !utf8.ValidString(m.ToolCallID):
		return "tool_call_id"
	}
	for j := range m.Content {
		if f := invalidUTF8Part(&m.Content[j]); f != "" {
			return "content[" + strconv.Itoa(j) + "]." + f
		}
	}
	for j := range m.ToolCalls {
		c := &m.ToolCalls[j]
		prefix := "tool_calls[" + strconv.Itoa(j) + "]."
		switch {
		case !utf8.ValidString(c.ID):
			return prefix + "id"
		case !utf8.ValidString(c.Name):
			return prefix + "function.name"
		case c.Arguments != nil && !utf8.ValidString(*c.Arguments):
			return prefix + "function.arguments"
		case !utf8.Valid(c.Extras):
			return prefix + "extras"
		}
	}
	return ""
}

func invalidUTF8Part(p *Part) string {
	switch {
	case !utf8.ValidString(p.Text):
		return "text"
	case !utf8.ValidString(p.Think):
		return "think"
	case p.Encrypted != nil && !utf8.ValidString(*p.Encrypted):
		return "encrypted"
	case !utf8.ValidString(p.URL):
		return "url"
	case p.MediaID != nil && !utf8.ValidString(*p.MediaID):
		return "id"
	case !utf8.Valid(p.Data):
		return "data"
	}
	return ""
}
