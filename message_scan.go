package kompact

// The fast pass's reading of kompact's own shapes (sessions, messages,
// parts, tool calls); the JSON cursor is in message_fast.go. Each method
// consumes one value and reports false whenever DecodeMessage could decide
// otherwise than it would.

// messageDoc reads a document that is one message and nothing else.
func (s *scanner) messageDoc(ignoreKey string) (Message, bool) {
	m, ok := s.message(1, ignoreKey)
	return m, ok && s.atEnd()
}

// messages reads the session's "messages" list. A long list is read in two
// halves at once (see splitAt): the second half by another goroutine.
func (s *scanner) messages(sess *Session) bool {
	sess.Messages = []Message{}
	if s.peek() != '[' {
		return false
	}
	q := splitAt(s.b, s.i, s.splitMin)
	if q < 0 {
		return s.list(2, func() bool {
			m, ok := s.message(3, "")
			sess.Messages = append(sess.Messages, m)
			return ok
		})
	}
	tail := make(chan scannedList, 1)
	go func() { tail <- scanItems(&scanner{b: s.b, i: q, alias: s.alias}) }()
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
	s.i = rest.end
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
		j := skipWSBack(b, i-1)
		if j > open && b[j] == ',' {
			if k := skipWSBack(b, j-1); k > open && b[k] == '}' {
				return i
			}
		}
	}
	return -1
}

func skipWSBack(b []byte, i int) int {
	for i >= 0 && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i--
	}
	return i
}

// scannedList is what reading list items produced: the messages, whether
// the reading succeeded, and the position past the list's ']'.
type scannedList struct {
	msgs []Message
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
		if s.tok(',') {
			continue
		}
		r.ok, r.end = s.tok(']'), s.i
		return r
	}
}

// itemsUntil reads the list that opens at s.i as list does, stopping when
// the next item starts exactly at q (met). Otherwise it reads the whole list.
func (s *scanner) itemsUntil(q int) (scannedList, bool) {
	r := scannedList{msgs: []Message{}}
	met := false
	r.ok = s.list(2, func() bool {
		if s.ws(); s.i == q {
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
func (s *scanner) message(depth int, ignoreKey string) (Message, bool) {
	var m Message
	var seen uint8
	ok := s.object(depth, func(key []byte) bool {
		switch string(key) {
		case "id":
			return s.once(&seen, keyID) && s.optString(&m.ID)
		case "role":
			return s.once(&seen, keyRole) && s.role(&m)
		case "name":
			return s.once(&seen, keyName) && s.optString(&m.Name)
		case "content":
			return s.once(&seen, keyContent) && s.content(depth+1, &m)
		case "tool_calls":
			return s.once(&seen, keyToolCalls) && s.toolCalls(depth+1, &m)
		case "tool_call_id":
			if !s.once(&seen, keyToolCallID) {
				return false
			}
			m.HasToolCallID = !s.null()
			return !m.HasToolCallID || s.reqString(&m.ToolCallID)
		}
		if ignoreKey == "" || string(key) != ignoreKey {
			return false
		}
		s.ignored = true
		return s.skip(depth + 1)
	})
	if m.Content == nil {
		m.Content = []Part{}
	}
	return m, ok && seen&keyRole != 0
}

func (s *scanner) role(m *Message) bool {
	r, ok := s.str()
	m.Role = Role(r)
	return ok && m.Role.Valid()
}

// content reads "content": null, a string or a list of parts.
func (s *scanner) content(depth int, m *Message) bool {
	switch s.peek() {
	case 'n':
		return s.null()
	case '"':
		t, ok := s.str()
		m.Content = s.keep(append(s.parts[:0], TextPart(t)))
		return ok
	}
	s.parts = s.parts[:0]
	ok := s.list(depth, func() bool {
		p, ok := s.part(depth + 1)
		s.parts = append(s.parts, p)
		return ok
	})
	m.Content = s.keep(s.parts)
	return ok
}

// keep copies a message's parts into the slab and returns them with their
// capacity capped, so an append by the caller never reaches a neighbour.
func (s *scanner) keep(parts []Part) []Part {
	n := len(parts)
	if n == 0 {
		return []Part{}
	}
	if cap(s.slab)-len(s.slab) < n {
		s.slab = make([]Part, 0, max(128, n))
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
func (s *scanner) part(depth int) (Part, bool) {
	var p Part
	var seen uint8
	var mediaKey string
	ok := s.object(depth, func(key []byte) bool {
		switch k := string(key); k {
		case "type":
			t, ok := s.str()
			p.Type = PartType(t)
			return s.once(&seen, keyType) && ok
		case "text":
			return s.once(&seen, keyText) && s.reqString(&p.Text)
		case "think":
			return s.once(&seen, keyThink) && s.reqString(&p.Think)
		case "encrypted":
			return s.once(&seen, keyEncrypted) && s.optStringPtr(&p.Encrypted)
		case "image_url", "audio_url", "video_url":
			mediaKey = k
			return s.once(&seen, keyMedia) && s.stringPair(depth+1, "url", &p.URL, "id", &p.MediaID)
		case "data":
			var ok bool
			p.Data, ok = s.rawValue(depth + 1)
			return s.once(&seen, keyData) && ok
		}
		return false
	})
	return p, ok && partKeysFit(&p, seen, mediaKey)
}

// partKeysFit reports whether a part has exactly the keys its type needs.
func partKeysFit(p *Part, seen uint8, mediaKey string) bool {
	switch p.Type {
	case PartText:
		return seen == keyType|keyText
	case PartThink:
		return seen&keyThink != 0 && seen&^(keyType|keyThink|keyEncrypted) == 0
	case PartImage, PartAudio, PartVideo:
		return seen == keyType|keyMedia && mediaKey == string(p.Type)
	case PartData:
		return seen == keyType|keyData
	}
	return false
}

// reqString reads a string that must not be null.
func (s *scanner) reqString(dst *string) bool {
	v, ok := s.str()
	*dst = v
	return ok
}

// optStringPtr reads a string or null into a pointer.
func (s *scanner) optStringPtr(dst **string) bool {
	if s.null() {
		return true
	}
	v, ok := s.str()
	*dst = &v
	return ok
}

// stringPair reads an object of two string keys, a media reference
// {"url": ..., "id": ...} or a tool call's function {"name": ...,
// "arguments": ...}: key1 must be there (null reads as ""), key2 may be
// missing (null leaves *v2 nil).
func (s *scanner) stringPair(depth int, key1 string, v1 *string, key2 string, v2 **string) bool {
	var seen uint8
	ok := s.object(depth, func(key []byte) bool {
		switch string(key) {
		case key1:
			return s.once(&seen, 1) && s.optString(v1)
		case key2:
			return s.once(&seen, 2) && s.optStringPtr(v2)
		}
		return false
	})
	return ok && seen&1 != 0
}

// toolCalls reads "tool_calls": null or a list.
func (s *scanner) toolCalls(depth int, m *Message) bool {
	if s.null() {
		return true
	}
	m.ToolCalls = []ToolCall{}
	return s.list(depth, func() bool {
		c, ok := s.toolCall(depth + 1)
		m.ToolCalls = append(m.ToolCalls, c)
		return ok
	})
}

// toolCall reads one tool call and its function.
func (s *scanner) toolCall(depth int) (ToolCall, bool) {
	var c ToolCall
	var seen uint8
	ok := s.object(depth, func(key []byte) bool {
		switch string(key) {
		case "type":
			if !s.once(&seen, 1) {
				return false
			}
			if s.null() {
				return true
			}
			t, ok := s.str()
			return ok && t == "function"
		case "id":
			return s.once(&seen, 2) && s.optString(&c.ID)
		case "function":
			return s.once(&seen, 4) && s.stringPair(depth+1, "name", &c.Name, "arguments", &c.Arguments)
		case "extras":
			if !s.once(&seen, 8) {
				return false
			}
			if s.null() {
				return true
			}
			if s.peek() != '{' {
				return false
			}
			var ok bool
			c.Extras, ok = s.rawValue(depth + 1)
			return ok
		}
		return false
	})
	return c, ok && seen&(2|4) == 2|4
}
