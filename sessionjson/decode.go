package sessionjson

import (
	"bytes"
	"unicode/utf8"

	"kompact"
	"kompact/internal/jsonscan"
)

// This file holds the package's one fast decoder: a single pass over JSON
// text straight into kompact.Message values. It accepts any valid JSON (any
// white space, key order and escapes) and gives up, reporting false, as
// soon as it meets anything it is not sure about: a syntax error, an
// unknown or repeated key, a value of the wrong type, invalid UTF-8, a lone
// surrogate, deep nesting. Every caller then runs the root's reference
// decoder (kompact.DecodeMessage, kompact.DecodeSession), which words the
// error or handles the rare form; so the result is always the reference
// decoder's, only faster. The fuzzers in decode_test.go hold the two to
// that.

// DecodeSession is kompact.DecodeSession, faster: the same session or the
// same error for any data.
//
// The session's strings and raw values may share data's memory: data must
// not be modified afterwards. VerifiedDocument(data) then lets the openai
// request encoder copy the shared texts without checking them again.
func DecodeSession(data []byte) (*kompact.Session, error) {
	s, ok := scanSession(trimBOM(data))
	if !ok {
		return kompact.DecodeSession(data) // which trims the BOM itself
	}
	return validSession(s)
}

// DecodeSessionUTF8 is DecodeSession for text not yet known to be valid
// UTF-8, such as a request body: valid is false, and nothing is decoded,
// when data is not valid UTF-8 (which the reference decoder would read with
// the bad bytes replaced). When the fast pass reads the document, its scan
// is the only UTF-8 check of the strings, and only the raw values it keeps
// as they are (data parts, tool call extras) are checked apart. Its memory
// rule is DecodeSession's.
func DecodeSessionUTF8(data []byte) (s *kompact.Session, valid bool, err error) {
	s, ok := scanSession(trimBOM(data))
	switch {
	case ok && rawValuesUTF8(s.Messages):
	case !utf8.Valid(data):
		return nil, false, nil
	default:
		s, err = kompact.DecodeSession(data)
		return s, true, err
	}
	s, err = validSession(s)
	return s, true, err
}

// trimBOM removes a leading byte order mark, as kompact.DecodeSession does.
func trimBOM(data []byte) []byte { return bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF")) }

// validSession applies to a session the fast pass read the checks
// kompact.DecodeSession makes after reading one.
func validSession(s *kompact.Session) (*kompact.Session, error) {
	if err := kompact.ValidateDecodedSession(s); err != nil {
		return nil, err
	}
	return s, nil
}

// rawValuesUTF8 reports whether the raw JSON values of msgs (data parts,
// tool call extras) are valid UTF-8.
func rawValuesUTF8(msgs []kompact.Message) bool {
	for i := range msgs {
		for j := range msgs[i].Content {
			if !utf8.Valid(msgs[i].Content[j].Data) {
				return false
			}
		}
		for j := range msgs[i].ToolCalls {
			if !utf8.Valid(msgs[i].ToolCalls[j].Extras) {
				return false
			}
		}
	}
	return true
}

// DecodeStoredMessage decodes one message as kompact.DecodeMessage does,
// faster, copying nothing it does not have to and sharing no memory with
// data (stores pass buffers their driver reuses). index is used in errors.
func DecodeStoredMessage(data []byte, index int) (kompact.Message, error) {
	s := scanner{Cursor: jsonscan.Cursor{B: data}, one: true}
	if m, ok := s.messageDoc(""); ok {
		return m, nil
	}
	return kompact.DecodeMessage(data, index)
}

// holdsRaw reports whether m keeps raw JSON (data parts, tool call extras).
func holdsRaw(m *kompact.Message) bool {
	for i := range m.Content {
		if m.Content[i].Type == kompact.PartData {
			return true
		}
	}
	for i := range m.ToolCalls {
		if m.ToolCalls[i].Extras != nil {
			return true
		}
	}
	return false
}

// scanSession is DecodeSession's fast pass: it decodes the whole document
// (without checking message ids) or reports false.
func scanSession(data []byte) (*kompact.Session, bool) {
	return scanSessionSplit(data, splitMinBytes)
}

// scanSessionSplit is scanSession reading a messages list of splitMin bytes
// or more in two halves at once.
func scanSessionSplit(data []byte, splitMin int) (*kompact.Session, bool) {
	s := &scanner{Cursor: jsonscan.Cursor{B: data, Alias: true}, splitMin: splitMin}
	sess := &kompact.Session{}
	var seen uint8
	ok := s.Object(1, func(key []byte) bool {
		switch string(key) {
		case "id":
			return once(&seen, 1) && s.OptString(&sess.ID)
		case "agent":
			return once(&seen, 2) && s.OptString(&sess.Agent)
		case "compaction_model":
			return once(&seen, 4) && s.OptString(&sess.CompactionModel)
		case "pinned":
			return once(&seen, 16) && s.pinned(sess)
		case "messages":
			return once(&seen, 8) && s.messages(sess)
		}
		return false
	})
	return sess, ok && seen&8 != 0 && s.AtEnd()
}

// pinned reads the session's pinned message ids (null: none).
func (s *scanner) pinned(sess *kompact.Session) bool {
	return s.Null() || s.List(2, func() bool {
		id, ok := s.Str()
		sess.Pinned = append(sess.Pinned, id)
		return ok
	})
}

// scanner is the JSON cursor reading kompact's shapes (scan.go).
type scanner struct {
	jsonscan.Cursor
	// ignored records that a key passed over by message was met.
	ignored bool
	// parts collects a message's parts; slab is where they are kept, many
	// messages to an allocation.
	parts []kompact.Part
	slab  []kompact.Part
	// one says that the scanner reads one message: its parts are kept as
	// they were collected, with no slab.
	one bool
	// splitMin, when above 0, is the size of a messages list from which it
	// is read in two halves at once.
	splitMin int
}

// once sets bit in seen, failing when it was already set (a repeated key).
func once(seen *uint8, bit uint8) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}
