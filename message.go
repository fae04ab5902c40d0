package kompact

import (
	"slices"
	"strings"

	"kompact/internal/jsonwrite"
)

// Role is the author of a message.
type Role string

// The roles a message may have.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// roles are the known roles, in the order errors list them.
var roles = [...]Role{RoleSystem, RoleUser, RoleAssistant, RoleTool}

// Roles returns the known roles: system, user, assistant, tool.
func Roles() []Role { return slices.Clone(roles[:]) }

// roleList is the known roles as errors list them: "system, user, assistant, tool".
var roleList = joinNames(roles[:])

// Valid reports whether r is one of the known roles (Roles).
func (r Role) Valid() bool { return slices.Contains(roles[:], r) }

// PartType says which kind of content a Part holds.
type PartType string

// The content part types. The first five are kimi-cli's (kosong's) own; PartData is kompact's
// structured part for machine payloads.
const (
	PartText  PartType = "text"
	PartThink PartType = "think"
	PartImage PartType = "image_url"
	PartAudio PartType = "audio_url"
	PartVideo PartType = "video_url"
	PartData  PartType = "data"
)

// partTypes are the known part types, in the order errors list them.
var partTypes = [...]PartType{PartText, PartThink, PartImage, PartAudio, PartVideo, PartData}

// PartTypes returns the known part types: text, think, image_url, audio_url, video_url, data.
func PartTypes() []PartType { return slices.Clone(partTypes[:]) }

// partTypeList is the known part types as errors list them: "text, think, image_url, audio_url,
// video_url, data".
var partTypeList = joinNames(partTypes[:])

// Valid reports whether t is a known part type (PartTypes).
func (t PartType) Valid() bool { return slices.Contains(partTypes[:], t) }

// joinNames joins names with ", ".
func joinNames[T ~string](names []T) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	return strings.Join(s, ", ")
}

// IsMedia reports whether t is one of the media URL part types.
func (t PartType) IsMedia() bool {
	return t == PartImage || t == PartAudio || t == PartVideo
}

// Part is one piece of a message's content. Which fields are meaningful depends on Type:
//
//   - text: Text.
//   - think: Think, and Encrypted when the provider signed the reasoning.
//   - image_url, audio_url, video_url: URL, and MediaID when the part has an id.
//   - data: Data, a JSON value kept as given with insignificant white space
//     removed (a tool result's structured payload, an asset reference, ...).
type Part struct {
	Type      PartType
	Text      string
	Think     string
	Encrypted *string
	URL       string
	MediaID   *string
	Data      []byte
}

// TextPart returns a text part.
func TextPart(text string) Part { return Part{Type: PartText, Text: text} }

// ThinkPart returns a think part without a signature.
func ThinkPart(think string) Part { return Part{Type: PartThink, Think: think} }

// ToolCall is an assistant's request to call a function, in the OpenAI shape kimi-cli uses.
// Arguments is nil when the call carries no arguments at all (which differs from an empty
// string). Extras is an optional JSON object, kept as given with insignificant white space
// removed.
type ToolCall struct {
	ID        string
	Name      string
	Arguments *string
	Extras    []byte
}

// Message is one entry of a conversation. Its JSON form is kimi-cli's (kosong's) Message plus
// an optional id; see the README.
type Message struct {
	// ID identifies the message within its session. It is optional; range selection by id needs
	// it.
	ID   string
	Role Role
	// Name is the optional participant name.
	Name    string
	Content []Part
	// ToolCalls is nil when the message has none and non-nil (possibly empty) when the JSON
	// form carried a "tool_calls" list.
	ToolCalls []ToolCall
	// ToolCallID is set on tool messages: the call they answer.
	ToolCallID string
	// HasToolCallID records whether "tool_call_id" was present, so that an empty id survives a
	// round trip.
	HasToolCallID bool
}

// Texts calls fn with the text of each text part of m, in order.
func (m *Message) Texts(fn func(string)) {
	for i := range m.Content {
		if m.Content[i].Type == PartText {
			fn(m.Content[i].Text)
		}
	}
}

// TextLen returns the number of Unicode code points in m's text parts, the measure kimi-cli's
// token estimate uses.
func (m *Message) TextLen() int {
	n := 0
	m.Texts(func(s string) { n += codePoints(s) })
	return n
}

// codePoints counts the code points of s as Python's len(str) does for valid UTF-8 text: every
// byte that does not continue a sequence (10xxxxxx) starts one. It counts the continuation
// bytes eight at a time.
func codePoints(s string) int {
	cont, i := 0, 0
	for ; i+8 <= len(s); i += 8 {
		x := jsonwrite.Load8(s, i)
		// Bit 7 of a byte set and bit 6 clear: a continuation byte. The multiplication adds up
		// the eight bytes' flags in the top byte.
		m := (x &^ (x << 1)) & 0x8080808080808080
		cont += int((m >> 7) * 0x0101010101010101 >> 56)
	}
	for ; i < len(s); i++ {
		if s[i]&0xC0 == 0x80 {
			cont++
		}
	}
	return len(s) - cont
}
