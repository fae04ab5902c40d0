package kompact

import (
	"bytes"
	"encoding/json"
	"unicode"
	"unicode/utf8"
)

// This file holds the rules a session and its messages meet, in one place: the reference
// decoder, the stores and the HTTP API all apply them.

// ValidateSession checks a session before it is stored: its id, when it has one, follows
// SessionIDRule (ValidateSessionID; a store assigns one otherwise), its compaction model
// ValidateCompactionModel, and its messages pass ValidateMessages and ValidateUTF8. Every store
// checks what it is given with it. Errors are EInvalid.
func ValidateSession(s *Session) error {
	if s == nil {
		return Errorf(EInvalid, "no session given")
	}
	if s.ID != "" {
		if err := ValidateSessionID(s.ID); err != nil {
			return err
		}
	}
	if err := ValidateCompactionModel(s.CompactionModel); err != nil {
		return err
	}
	c := MessageCheck{Rules: AllMessageRules}
	if err := c.Check(s.Messages); err != nil {
		return err
	}
	return validateKimi(s.Kimi, s.Messages)
}

// MaxMessageIDLen is the longest message id, in bytes.
const MaxMessageIDLen = 128

// MessageIDRule says which message ids are valid; errors quote it.
const MessageIDRule = "a message id is at most 128 bytes of UTF-8 text without control characters"

// MaxCompactionModelLen is the longest compaction model name, in bytes.
const MaxCompactionModelLen = 256

// ValidateCompactionModel checks a session's compaction model: at most MaxCompactionModelLen
// bytes of UTF-8 text without control characters ("" means the agent's). Errors are EInvalid.
func ValidateCompactionModel(model string) error {
	fix := "Use the name of a model of the agent's provider, or \"\" for the agent's own."
	if len(model) > MaxCompactionModelLen {
		return Errorf(EInvalid, "compaction_model is %d bytes long; a model name is at most %d bytes", len(model), MaxCompactionModelLen).WithFixes(fix)
	}
	if !utf8.ValidString(model) {
		return Errorf(EInvalid, "compaction_model is not valid UTF-8").WithFixes(fix)
	}
	if at := controlAt(model); at >= 0 {
		return Errorf(EInvalid, "compaction_model has a control character at byte %d", at).WithFixes(fix)
	}
	return nil
}

// ValidMessageID reports whether id follows MessageIDRule (its UTF-8 aside, which is
// RuleUTF8's): a decoder that checks forms itself hands a message whose id does not to one that
// words the error.
func ValidMessageID(id string) bool { return validateMessageID(id, "", 0) == nil }

// validateMessageID checks message i's id against MessageIDRule (its UTF-8 is RuleUTF8's).
func validateMessageID(id, field string, i int) error {
	if len(id) > MaxMessageIDLen {
		return Errorf(EInvalid, "%s[%d].id is %d bytes long; %s", field, i, len(id), MessageIDRule).
			WithFixes("Use shorter message ids, or none to let the store give them.")
	}
	if at := controlAt(id); at >= 0 {
		return Errorf(EInvalid, "%s[%d].id has a control character at byte %d; %s", field, i, at, MessageIDRule).
			WithFixes("Use message ids of printable characters, or none to let the store give them.")
	}
	return nil
}

// controlAt returns the offset of the first control character of s (C0, DEL or C1), or -1.
// Bytes that are not valid UTF-8 are not control characters.
func controlAt(s string) int {
	for i, r := range s {
		if r != utf8.RuneError && unicode.IsControl(r) {
			return i
		}
	}
	return -1
}

// ValidateMessages checks a message list that did not come from DecodeMessage (a store's input,
// a decoded request): every role and part type is known, every data part holds valid JSON and
// every tool call's extras a JSON object, and no two messages share an id (which would make
// range selection ambiguous). Errors are EInvalid and name the field at fault as
// messages[i]....
func ValidateMessages(msgs []Message) error {
	c := MessageCheck{Rules: RuleForm | RuleUniqueIDs}
	return c.Check(msgs)
}

// MessageRules choose the rules a MessageCheck applies.
type MessageRules uint8

// The message rules.
const (
	// RuleForm: the role and every part type are known (Roles, PartTypes), the id follows
	// MessageIDRule (its UTF-8 is RuleUTF8's), data parts hold JSON and tool call extras a JSON
	// object (or null).
	RuleForm MessageRules = 1 << iota
	// RuleUniqueIDs: no two messages of the list share an id.
	RuleUniqueIDs
	// RuleUTF8: every string is valid UTF-8 (see ValidateUTF8).
	RuleUTF8

	// AllMessageRules are the rules a stored message meets.
	AllMessageRules = RuleForm | RuleUniqueIDs | RuleUTF8
)

// MessageCheck applies the message rules to a list of messages, given whole or in parts (a
// store's import batches, say): Check may be called for each part in turn, and the ids of
// earlier parts count. Errors are EInvalid and name the field at fault as Field[i]..., i
// counting from the list's start. The zero value applies no rule.
type MessageCheck struct {
	// Field names the list in errors; "" means "messages".
	Field string
	Rules MessageRules
	// CopyIDs keeps copies of the ids seen, for parts whose memory is reused once Check returns
	// (a stream decoder's batches).
	CopyIDs bool

	n    int            // messages checked so far
	seen map[string]int // their ids, to their index
}

// Check checks the next part of the list.
func (c *MessageCheck) Check(msgs []Message) error {
	if c.Rules&RuleUniqueIDs != 0 && c.seen == nil {
		c.seen = make(map[string]int, len(msgs))
	}
	for i := range msgs {
		if err := c.message(&msgs[i], c.n+i); err != nil {
			return err
		}
	}
	c.n += len(msgs)
	return nil
}

// message checks message i of the list.
func (c *MessageCheck) message(m *Message, i int) error {
	field := c.Field
	if field == "" {
		field = "messages"
	}
	if c.Rules&RuleForm != 0 {
		if err := validateForm(m, field, i); err != nil {
			return err
		}
	}
	if c.Rules&RuleUTF8 != 0 {
		if bad := invalidUTF8Field(m); bad != "" {
			return Errorf(EInvalid, "%s[%d].%s is not valid UTF-8", field, i, bad).
				WithFixes("Send text as UTF-8; encode binary payloads (e.g. as base64) before putting them in a message.")
		}
	}
	if c.Rules&RuleUniqueIDs == 0 || m.ID == "" {
		return nil
	}
	if j, dup := c.seen[m.ID]; dup {
		return Errorf(EInvalid, "%s[%d].id: %q is already the id of %s[%d]", field, i, m.ID, field, j).
			WithFixes("Give every message a unique id, or none.")
	}
	id := m.ID
	if c.CopyIDs {
		id = string([]byte(id))
	}
	c.seen[id] = i
	return nil
}

// validateForm checks the role and the parts of message i of field.
func validateForm(m *Message, field string, i int) error {
	if !m.Role.Valid() {
		return Errorf(EInvalid, "%s[%d].role: unknown role %q; use one of %s", field, i, m.Role, roleList)
	}
	if err := validateMessageID(m.ID, field, i); err != nil {
		return err
	}
	for j := range m.Content {
		p := &m.Content[j]
		if !p.Type.Valid() {
			return Errorf(EInvalid, "%s[%d].content[%d].type: unknown part type %q; use one of %s", field, i, j, p.Type, partTypeList)
		}
		if p.Type == PartData && len(p.Data) > 0 && !json.Valid(p.Data) {
			return Errorf(EInvalid, "%s[%d].content[%d].data: not valid JSON", field, i, j)
		}
	}
	for j := range m.ToolCalls {
		if !validExtras(m.ToolCalls[j].Extras) {
			return Errorf(EInvalid, "%s[%d].tool_calls[%d].extras: must be a JSON object", field, i, j)
		}
	}
	return nil
}

// validExtras reports whether b may be a tool call's extras: nothing, a JSON object or null.
func validExtras(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	if !json.Valid(b) {
		return false
	}
	b = bytes.TrimSpace(b)
	return b[0] == '{' || string(b) == "null"
}
