package kompact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"kompact/internal/jsontext"
	"kompact/internal/jsonwrite"
)

// Session is a conversation: its identity, the agent that runs it, its
// per-session settings and its ordered messages.
type Session struct {
	ID    string
	Agent string
	// CompactionModel, when set, overrides the agent's compaction model for
	// this session only.
	CompactionModel string
	Messages        []Message
	// Kimi, when not nil, marks the session as a kimi-cli context.jsonl's:
	// its compactions write kimi-cli's form and it exports as the file
	// (see KimiContext). The session document (AppendJSON) does not hold
	// it.
	Kimi *KimiContext
	// Pinned names the messages a compaction keeps verbatim (their ids, or #N
	// without one): docs/compaction.md, "Pinned messages". Nil: none.
	Pinned []string
}

var sessionKeys = []string{"id", "agent", "compaction_model", "pinned", "messages"}

// DecodeSession reads a session document: a JSON object with "messages" and
// optionally "id", "agent", "compaction_model" and "pinned". {"messages": [...]} alone
// is a valid document. Errors name the field (and message index) at fault.
//
// It is the reference decoder: its session shares no memory with data (its
// strings are copies). sessionjson.DecodeSession gives the same session
// faster, sharing data's memory.
func DecodeSession(data []byte) (*Session, error) {
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	s, err := decodeSessionPrecisely(data)
	if err != nil {
		return nil, err
	}
	if err := ValidateDecodedSession(s); err != nil {
		return nil, err
	}
	return s, nil
}

// ValidateDecodedSession makes the checks DecodeSession makes of a session
// it has read (ValidateMessages), its error worded as DecodeSession's. The
// decoders of sessionjson apply it to what they read.
func ValidateDecodedSession(s *Session) error {
	if err := ValidateMessages(s.Messages); err != nil {
		e := AsError(err)
		return &Error{Code: e.Code, Message: "invalid session: " + e.Message, Fixes: e.Fixes, Err: e.Err}
	}
	return nil
}

// RepeatedSessionField is the error of a session document that gives the
// field key twice (encoding/json would keep the last).
func RepeatedSessionField(key string) error {
	return Errorf(EInvalid, "session has the field %q twice; a JSON object names each field once", key).
		WithFixes("Give each field of the session document once.")
}

// decodeSessionPrecisely reads the document with encoding/json, wording
// every error; DecodeSession then checks the messages.
func decodeSessionPrecisely(data []byte) (*Session, error) {
	obj, twice, err := jsontext.DecodeObject(data)
	if err != nil {
		return nil, Errorf(EInvalid, "session is not valid JSON: %w", err).
			WithFixes(`A session document is a JSON object such as {"messages": [{"role": "user", "content": "hi"}]}.`)
	}
	if obj == nil {
		return nil, Errorf(EInvalid, "session must be a JSON object, not null").
			WithFixes(`A session document is a JSON object such as {"messages": [{"role": "user", "content": "hi"}]}.`)
	}
	if twice != "" {
		return nil, RepeatedSessionField(twice)
	}
	if k := unknownKey(obj, sessionKeys); k != "" {
		return nil, Errorf(EInvalid, "session has an unknown field %q", k).
			WithFixes("A session document has only the fields " + strings.Join(sessionKeys, ", ") + ".")
	}
	s := &Session{}
	for _, f := range []struct {
		key string
		dst *string
	}{{"id", &s.ID}, {"agent", &s.Agent}, {"compaction_model", &s.CompactionModel}} {
		if raw, ok := obj[f.key]; ok && !isNull(raw) {
			if msg := jsontext.DecodeString(raw, f.dst, "must be a string"); msg != "" {
				return nil, Errorf(EInvalid, "session field %q %s", f.key, msg)
			}
		}
	}
	var pins []json.RawMessage
	if raw, ok := obj["pinned"]; ok && !isNull(raw) && json.Unmarshal(raw, &pins) != nil {
		return nil, Errorf(EInvalid, `session field "pinned" must be a list of message ids`)
	}
	for i := range pins {
		if s.Pinned = append(s.Pinned, ""); isNull(pins[i]) || jsontext.DecodeString(pins[i], &s.Pinned[i], "x") != "" {
			return nil, Errorf(EInvalid, `session field "pinned" item %d must be a message id (a string)`, i)
		}
	}
	raw, ok := obj["messages"]
	if !ok || isNull(raw) {
		return nil, Errorf(EInvalid, `session has no "messages" list`).
			WithFixes(`Add "messages": [...] with the conversation, oldest first.`)
	}
	var msgs []json.RawMessage
	if err := json.Unmarshal(raw, &msgs); err != nil {
		return nil, Errorf(EInvalid, `session field "messages" must be a list of messages`)
	}
	s.Messages = make([]Message, len(msgs))
	for i, mr := range msgs {
		m, err := DecodeMessage(mr, i)
		if err != nil {
			return nil, &Error{Code: EInvalid, Message: "invalid session: " + err.Error(), Err: err,
				Fixes: []string{"See the README's \"Session JSON\" section for the message form."}}
		}
		s.Messages[i] = m
	}
	return s, nil
}

// MarshalJSON writes the session document.
func (s Session) MarshalJSON() ([]byte, error) { return s.AppendJSON(nil), nil }

// AppendJSON appends the session document to dst, one message per line.
func (s *Session) AppendJSON(dst []byte) []byte {
	dst = s.AppendJSONHead(dst)
	for i := range s.Messages {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, "\n  "...)
		dst = s.Messages[i].AppendJSON(dst)
	}
	if len(s.Messages) > 0 {
		dst = append(dst, '\n')
	}
	return append(dst, "]}"...)
}

// AppendJSONHead appends the session document up to its first message:
// the fields that are set, then "messages":[. AppendJSON goes on with the
// messages, one a line, and "]}"; a surface that writes a session as it
// reads it (a stored session's fields after the list) starts with it.
func (s *Session) AppendJSONHead(dst []byte) []byte {
	dst = append(dst, '{')
	for _, f := range []struct{ key, val string }{{"id", s.ID}, {"agent", s.Agent}, {"compaction_model", s.CompactionModel}} {
		if f.val != "" {
			dst = jsonwrite.AppendString(dst, f.key)
			dst = append(dst, ':')
			dst = jsonwrite.AppendString(dst, f.val)
			dst = append(dst, ',')
		}
	}
	if s.Pinned != nil {
		dst = append(dst, `"pinned":[`...)
		for i := range s.Pinned {
			dst = append(jsonwrite.AppendString(dst, s.Pinned[i]), ',')
		}
		dst = append(dst[:len(dst)-min(len(s.Pinned), 1)], "],"...)
	}
	return append(dst, `"messages":[`...)
}

// Locate returns the index of the message that ref names. ref is a message
// id; when no message has that id and ref has the form "#N", it names the
// N-th message (1-based), which lets sessions without ids be addressed.
func (s *Session) Locate(ref string) (int, error) {
	for i := range s.Messages {
		if s.Messages[i].ID == ref && ref != "" {
			return i, nil
		}
	}
	if n, ok := strings.CutPrefix(ref, "#"); ok {
		if k, err := strconv.Atoi(n); err == nil {
			if k >= 1 && k <= len(s.Messages) {
				return k - 1, nil
			}
			return 0, Errorf(ENotFound, "message %s does not exist: the session has %s", ref, CountOf(len(s.Messages), "message")).
				WithFixes(fmt.Sprintf("Use #1 to #%d, or a message id.", len(s.Messages)))
		}
	}
	return 0, Errorf(ENotFound, "no message has the id %q", ref).
		WithFixes("Use the id of a message in this session, or #N for the N-th message (1-based).")
}
