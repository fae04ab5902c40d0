package sessionjson

import (
	"kompact"
	"kompact/internal/jsonscan"
)

// DecodeOwnedMessage decodes one message as kompact.DecodeMessage does,
// from a buffer the caller gives up (a database driver's fresh buffer of
// one row): the message's strings and raw values share data's memory, and
// strings with escapes are decoded in it, over their escaped form. So the
// message costs no memory beyond data and its parts, but the caller must
// neither read nor change data afterwards. Nor may data be verified
// (VerifiedDocument): a string decoded in place lies in it and may hold
// bytes that JSON escapes. index is used in errors.
//
// The scan writes nothing: a message it is not sure about goes to the
// reference decoder as it was given. Only once the scan has read the whole
// message are its escaped strings decoded in place (unescapeMessage).
func DecodeOwnedMessage(data []byte, index int) (kompact.Message, error) {
	s := scanner{Cursor: jsonscan.Cursor{B: data, Alias: true, Defer: true}, one: true}
	m, ok := s.messageDoc("")
	if !ok {
		return kompact.DecodeMessage(data, index)
	}
	if s.Deferred > 0 {
		unescapeMessage(&m)
	}
	return m, nil
}

// unescapeMessage decodes in place the strings of m the scan left escaped:
// every string the scanner sets (the raw values, data parts and tool call
// extras, are JSON and stay as they are).
func unescapeMessage(m *kompact.Message) {
	unescape(&m.ID)
	unescape((*string)(&m.Role))
	unescape(&m.Name)
	unescape(&m.ToolCallID)
	for i := range m.Content {
		p := &m.Content[i]
		unescape((*string)(&p.Type))
		unescape(&p.Text)
		unescape(&p.Think)
		unescapePtr(p.Encrypted)
		unescape(&p.URL)
		unescapePtr(p.MediaID)
	}
	for i := range m.ToolCalls {
		c := &m.ToolCalls[i]
		unescape(&c.ID)
		unescape(&c.Name)
		unescapePtr(c.Arguments)
	}
}

func unescape(s *string) { *s = jsonscan.Unescape(*s) }

func unescapePtr(s *string) {
	if s != nil {
		unescape(s)
	}
}
