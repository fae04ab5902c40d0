package sessionjson

import (
	"kompact"
	"kompact/internal/jsonscan"
)

// The fast pass's reading of kompact's own shapes (sessions, messages,
// parts, tool calls); the JSON cursor is internal/jsonscan's. Each method
// consumes one value and reports false whenever kompact.DecodeMessage could
// decide otherwise than it would.

// messageDoc reads a document that is one message and nothing else.
func (s *scanner) messageDoc(ignoreKey string) (kompact.Message, bool) {
	m, ok := s.message(1, ignoreKey)
	return m, ok && s.AtEnd()
}

// messages reads the session's "messages" list. A long list is read in two
// halves at once (see splitAt): the second half by another goroutine.
func (s *scanner) messages(sess *kompact.Session) bool {
	sess.Messages = []kompact.Message{}
	if s.Peek() != '[' {
		return false
	}
	q := splitAt(s.B, s.I, s.splitMin)
	if q < 0 {
		return s.List(2, func() bool {
			m, ok := s.message(3, "")
			sess.Messages = append(sess.Messages, m)
			return ok
		})
	}
	tail := make(chan scannedList, 1)
	go func() { tail <- scanItems(&scanner{Cursor: jsonscan.Cursor{B: s.B, I: q, Alias: s.Alias}}) }()
	head, met := s.itemsUntil(q)
	if !met {
		// q was not where a message starts (it lies inside one): the head
		// read the whole list itself, and the tail's work is dropped.
		sess.Messages = head.msgs
		return head.ok
	}
	rest := <-tail
	if !rest.ok {
		return false
	}
	sess.Messages = append(head.msgs, rest.msgs...)
	s.I = rest.end
	return true
}

// splitMinBytes is the size from which a messages list is read in two
// halves at once.
const splitMinBytes = 1 << 20

// splitAt returns a likely start of a message in the middle of the list that
// opens at b[open], or -1 when the list is short. A likely start is an
// object opening '{' followed by a key, after a ',' that follows a '}'
// (white space allowed between them). Only a list whose reading from its
// start meets that very position uses it (see itemsUntil), so a guess inside
// a message, in a data part's value say, costs time, never correctness.
func splitAt(b []byte, open, min int) int {
	if min <= 0 || len(b)-open < min {
		return -1
	}
	for i := open + (len(b)-open)/2; i+1 < len(b); i++ {
		if b[i] != '{' || b[i+1] != '"' {
			continue
		}
		j := jsonscan.SkipWSBack(b, i-1)
		if j > open && b[j] == ',' {
			if k := jsonscan.SkipWSBack(b, j-1); k > open && b[k] == '}' {
				return i
			}
		}
	}
	return -1
}

// scannedList is what reading list items produced: the messages, whether
// the reading succeeded, and the position past the list's ']'.
type scannedList struct {
	msgs []kompact.Message
	ok   bool
	end  int
}

// scanItems reads messages from a message's start to the end of the list,
// as list would after the same ','.
func scanItems(s *scanner) scannedList {
	var r scannedList
	for {
		m, ok := s.message(3, "")
		r.msgs = append(r.msgs, m)
		if !ok {
			return r
		}
		if s.Tok(',') {
			continue
		}
		r.ok, r.end = s.Tok(']'), s.I
		return r
	}
}

// itemsUntil reads the list that opens at s.I as list does, stopping when
// the next item starts exactly at q (met). Otherwise it reads the whole list.
func (s *scanner) itemsUntil(q int) (scannedList, bool) {
	r := scannedList{msgs: []kompact.Message{}}
	met := false
	r.ok = s.List(2, func() bool {
		if s.WS(); s.I == q {
			met = true
			return false
		}
		m, ok := s.message(3, "")
		r.msgs = append(r.msgs, m)
		return ok
	})
	return r, met
}

// The keys of a message, as bits.
const (
	keyID uint8 = 1 << iota
	keyRole
	keyName
	keyContent
	keyToolCalls
	keyToolCallID
)

// message reads one message object; ignoreKey, when set, names a key
// whose value is passed over.
func (s *scanner) message(depth int, ignoreKey string) (kompact.Message, bool) {
	var m kompact.Message
	var seen uint8
	ok := s.Object(depth, func(key []byte) bool {
		switch string(key) {
		case "id":
			return once(&seen, keyID) && s.OptString(&m.ID)
		case "role":
			return once(&seen, keyRole) && s.role(&m)
		case "name":
			return once(&seen, keyName) && s.OptString(&m.Name)
		case "content":
			return once(&seen, keyContent) && s.content(depth+1, &m)
		case "tool_calls":
			return once(&seen, keyToolCalls) && s.toolCalls(depth+1, &m)
		case "tool_call_id":
			if !once(&seen, keyToolCallID) {
				return false
			}
			m.HasToolCallID = !s.Null()
			return !m.HasToolCallID || s.reqString(&m.ToolCallID)
		}
		if ignoreKey == "" || string(key) != ignoreKey {
			return false
		}
		s.ignored = true
		return s.Skip(depth + 1)
	})
	if m.Content == nil {
		m.Content = []kompact.Part{}
	}
	return m, ok && seen&keyRole != 0
}

func (s *scanner) role(m *kompact.Message) bool {
	r, ok := s.Str()
	m.Role = kompact.Role(r)
	return ok && m.Role.Valid()
}

// content reads "content": null, a string or a list of parts.
func (s *scanner) content(depth int, m *kompact.Message) bool {
	switch s.Peek() {
	case 'n':
		return s.Null()
	case '"':
		t, ok := s.Str()
		m.Content = s.keep(append(s.parts[:0], kompact.TextPart(t)))
		return ok
	}
	s.parts = s.parts[:0]
	ok := s.List(depth, func() bool {
		p, ok := s.part(depth + 1)
		s.parts = append(s.parts, p)
		return ok
	})
	m.Content = s.keep(s.parts)
	return ok
}

// defaultSlab is how many parts a slab holds at least when a scanner reads
// many messages.
const defaultSlab = 128

// keep copies a message's parts into the slab and returns them with their
// capacity capped, so an append by the caller never reaches a neighbour.
// A scanner of one message keeps parts itself, collected for it alone.
func (s *scanner) keep(parts []kompact.Part) []kompact.Part {
	n := len(parts)
	switch {
	case n == 0:
		return []kompact.Part{}
	case s.one:
		s.parts = nil
		return parts[:n:n]
	}
	if cap(s.slab)-len(s.slab) < n {
		s.slab = make([]kompact.Part, 0, max(defaultSlab, n))
	}
	start := len(s.slab)
	s.slab = append(s.slab, parts...)
	return s.slab[start:len(s.slab):len(s.slab)]
}

// The keys of a part, as bits.
const (
	keyType uint8 = 1 << iota
	keyText
	keyThink
	keyEncrypted
	keyMedia
	keyData
)

// part reads one content part; its keys may come in any order, so each
// value is read as it comes and the set of keys checked against the type
// at the end.
func (s *scanner) part(depth int) (kompact.Part, bool) {
	var p kompact.Part
	var seen uint8
	var mediaKey string
	ok := s.Object(depth, func(key []byte) bool {
		switch k := string(key); k {
		case "type":
			t, ok := s.Str()
			p.Type = kompact.PartType(t)
			return once(&seen, keyType) && ok
		case "text":
			return once(&seen, keyText) && s.reqString(&p.Text)
		case "think":
			return once(&seen, keyThink) && s.reqString(&p.Think)
		case "encrypted":
			return once(&seen, keyEncrypted) && s.optStringPtr(&p.Encrypted)
		case "image_url", "audio_url", "video_url":
			mediaKey = k
			return once(&seen, keyMedia) && s.stringPair(depth+1, "url", &p.URL, "id", &p.MediaID)
		case "data":
			var ok bool
			p.Data, ok = s.RawValue(depth + 1)
			return once(&seen, keyData) && ok
		}
		return false
	})
	return p, ok && partKeysFit(&p, seen, mediaKey)
}

// partKeysFit reports whether a part has exactly the keys its type needs.
func partKeysFit(p *kompact.Part, seen uint8, mediaKey string) bool {
	switch p.Type {
	case kompact.PartText:
		return seen == keyType|keyText
	case kompact.PartThink:
		return seen&keyThink != 0 && seen&^(keyType|keyThink|keyEncrypted) == 0
	case kompact.PartImage, kompact.PartAudio, kompact.PartVideo:
		return seen == keyType|keyMedia && mediaKey == string(p.Type)
	case kompact.PartData:
		return seen == keyType|keyData
	}
	return false
}

// reqString reads a string that must not be null.
func (s *scanner) reqString(dst *string) bool {
	v, ok := s.Str()
	*dst = v
	return ok
}

// optStringPtr reads a string or null into a pointer.
func (s *scanner) optStringPtr(dst **string) bool {
	if s.Null() {
		return true
	}
	v, ok := s.Str()
	*dst = &v
	return ok
}

// stringPair reads an object of two string keys, a media reference
// {"url": ..., "id": ...} or a tool call's function {"name": ...,
// "arguments": ...}: key1 must be there (null reads as ""), key2 may be
// missing (null leaves *v2 nil).
func (s *scanner) stringPair(depth int, key1 string, v1 *string, key2 string, v2 **string) bool {
	var seen uint8
	ok := s.Object(depth, func(key []byte) bool {
		switch string(key) {
		case key1:
			return once(&seen, 1) && s.OptString(v1)
		case key2:
			return once(&seen, 2) && s.optStringPtr(v2)
		}
		return false
	})
	return ok && seen&1 != 0
}

// toolCalls reads "tool_calls": null or a list.
func (s *scanner) toolCalls(depth int, m *kompact.Message) bool {
	if s.Null() {
		return true
	}
	m.ToolCalls = []kompact.ToolCall{}
	return s.List(depth, func() bool {
		c, ok := s.toolCall(depth + 1)
		m.ToolCalls = append(m.ToolCalls, c)
		return ok
	})
}

// toolCall reads one tool call and its function.
func (s *scanner) toolCall(depth int) (kompact.ToolCall, bool) {
	var c kompact.ToolCall
	var seen uint8
	ok := s.Object(depth, func(key []byte) bool {
		switch string(key) {
		case "type":
			if !once(&seen, 1) {
				return false
			}
			if s.Null() {
				return true
			}
			t, ok := s.Str()
			return ok && t == "function"
		case "id":
			return once(&seen, 2) && s.OptString(&c.ID)
		case "function":
			return once(&seen, 4) && s.stringPair(depth+1, "name", &c.Name, "arguments", &c.Arguments)
		case "extras":
			if !once(&seen, 8) {
				return false
			}
			if s.Null() {
				return true
			}
			if s.Peek() != '{' {
				return false
			}
			var ok bool
			c.Extras, ok = s.RawValue(depth + 1)
			return ok
		}
		return false
	})
	return c, ok && seen&(2|4) == 2|4
}
