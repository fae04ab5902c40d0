package kompact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"kompact/internal/jsontext"
	"kompact/internal/jsonwrite"
)

// MarshalJSON writes m in kompact's neutral form: kimi-cli's Message with "content" always a
// list, null fields left out, and "id" when set.
func (m Message) MarshalJSON() ([]byte, error) {
	return m.AppendJSON(nil), nil
}

// AppendJSON appends the neutral JSON form of m to dst.
func (m *Message) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"role":`...)
	dst = jsonwrite.AppendString(dst, string(m.Role))
	if m.ID != "" {
		dst = append(dst, `,"id":`...)
		dst = jsonwrite.AppendString(dst, m.ID)
	}
	if m.Name != "" {
		dst = append(dst, `,"name":`...)
		dst = jsonwrite.AppendString(dst, m.Name)
	}
	dst = append(dst, `,"content":`...)
	dst = jsonwrite.AppendArray(dst, m.Content, (*Part).AppendJSON)
	if m.ToolCalls != nil {
		dst = append(dst, `,"tool_calls":`...)
		dst = jsonwrite.AppendArray(dst, m.ToolCalls, (*ToolCall).AppendJSON)
	}
	dst = m.AppendToolCallID(dst)
	return append(dst, '}')
}

// AppendToolCallID appends `,"tool_call_id":` and the id when m answers a tool call (even with
// an empty id), and nothing otherwise.
func (m *Message) AppendToolCallID(dst []byte) []byte {
	if !m.HasToolCallID && m.ToolCallID == "" {
		return dst
	}
	dst = append(dst, `,"tool_call_id":`...)
	return jsonwrite.AppendString(dst, m.ToolCallID)
}

// MarshalJSON writes p as kimi-cli writes a content part.
func (p Part) MarshalJSON() ([]byte, error) { return p.AppendJSON(nil), nil }

// AppendJSON appends the JSON form of p to dst.
func (p *Part) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"type":`...)
	dst = jsonwrite.AppendString(dst, string(p.Type))
	switch p.Type {
	case PartText:
		dst = append(dst, `,"text":`...)
		dst = jsonwrite.AppendString(dst, p.Text)
	case PartThink:
		dst = append(dst, `,"think":`...)
		dst = jsonwrite.AppendString(dst, p.Think)
		if p.Encrypted != nil {
			dst = append(dst, `,"encrypted":`...)
			dst = jsonwrite.AppendString(dst, *p.Encrypted)
		}
	case PartImage, PartAudio, PartVideo:
		dst = append(dst, ',')
		dst = jsonwrite.AppendString(dst, string(p.Type))
		dst = append(dst, `:{"url":`...)
		dst = jsonwrite.AppendString(dst, p.URL)
		if p.MediaID != nil {
			dst = append(dst, `,"id":`...)
			dst = jsonwrite.AppendString(dst, *p.MediaID)
		}
		dst = append(dst, '}')
	case PartData:
		dst = append(dst, `,"data":`...)
		if len(p.Data) == 0 {
			dst = append(dst, "null"...)
		} else {
			dst = append(dst, p.Data...)
		}
	}
	return append(dst, '}')
}

// MarshalJSON writes c in the OpenAI function-call shape kimi-cli uses.
func (c ToolCall) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil), nil }

// AppendJSON appends the JSON form of c to dst.
func (c *ToolCall) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"type":"function","id":`...)
	dst = jsonwrite.AppendString(dst, c.ID)
	dst = append(dst, `,"function":{"name":`...)
	dst = jsonwrite.AppendString(dst, c.Name)
	if c.Arguments != nil {
		dst = append(dst, `,"arguments":`...)
		dst = jsonwrite.AppendString(dst, *c.Arguments)
	}
	dst = append(dst, '}')
	if len(c.Extras) > 0 {
		dst = append(dst, `,"extras":`...)
		dst = append(dst, c.Extras...)
	}
	return append(dst, '}')
}

// FieldError is a decoding error located at a field of a message. Index is the message's
// 0-based position, Field a path such as "content[2].type".
type FieldError struct {
	Index int
	Field string
	Msg   string
}

func (e *FieldError) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("%s: %s", e.Field, e.Msg)
	}
	return fmt.Sprintf("messages[%d].%s: %s", e.Index, e.Field, e.Msg)
}

// UnmarshalJSON reads m from kimi-cli's Message JSON form ("content" a string or a list of
// parts) with an optional "id". Unknown keys, roles and part types are errors.
func (m *Message) UnmarshalJSON(data []byte) error {
	msg, err := DecodeMessage(data, -1)
	if err != nil {
		return err
	}
	*m = msg
	return nil
}

var messageKeys = []string{"id", "role", "name", "content", "tool_calls", "tool_call_id"}

// DecodeMessage decodes one message. index is used in error messages (pass -1 when the message
// stands alone). It is the reference decoder: the message shares no memory with data, and
// sessionjson's fast pass hands it every case it is unsure of.
func DecodeMessage(data []byte, index int) (Message, error) {
	d := messageDecoder{index: index}
	var m Message
	obj, err := d.object(data)
	if err != nil {
		return m, err
	}
	if err := d.header(obj, &m); err != nil {
		return m, err
	}
	if err := d.content(obj, &m); err != nil {
		return m, err
	}
	if err := d.toolCalls(obj, &m); err != nil {
		return m, err
	}
	if raw, ok := obj["tool_call_id"]; ok && !isNull(raw) {
		if msg := jsontext.DecodeString(raw, &m.ToolCallID, "must be a string"); msg != "" {
			return m, d.fe("tool_call_id", "%s", msg)
		}
		m.HasToolCallID = true
	}
	return m, nil
}

// messageDecoder words the errors of one message.
type messageDecoder struct{ index int }

func (d messageDecoder) fe(field, format string, args ...any) error {
	if d.index < 0 {
		return &FieldError{Index: -1, Field: "message." + field, Msg: fmt.Sprintf(format, args...)}
	}
	return &FieldError{Index: d.index, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// object reads the message's keys, rejecting anything but an object with known keys, each given
// once.
func (d messageDecoder) object(data []byte) (map[string]json.RawMessage, error) {
	obj, twice, err := jsontext.DecodeObject(data)
	if err != nil || obj == nil {
		if d.index < 0 {
			return nil, fmt.Errorf("message: must be a JSON object like {\"role\":\"user\",\"content\":\"...\"}")
		}
		return nil, fmt.Errorf("messages[%d]: must be a JSON object like {\"role\":\"user\",\"content\":\"...\"}", d.index)
	}
	if twice != "" {
		return nil, d.fe(twice, "%s", jsontext.RepeatedMsg)
	}
	if k := unknownKey(obj, messageKeys); k != "" {
		return nil, d.fe(k, "unknown field; a message has only %s", strings.Join(messageKeys, ", "))
	}
	return obj, nil
}

// header reads "id", "role" and "name".
func (d messageDecoder) header(obj map[string]json.RawMessage, m *Message) error {
	if raw, ok := obj["id"]; ok && !isNull(raw) {
		if msg := jsontext.DecodeString(raw, &m.ID, "must be a string"); msg != "" {
			return d.fe("id", "%s", msg)
		}
	}
	raw, ok := obj["role"]
	if !ok || isNull(raw) {
		return d.fe("role", "missing; set it to one of %s", roleList)
	}
	var role string
	if msg := jsontext.DecodeString(raw, &role, "must be a string: one of "+roleList); msg != "" {
		return d.fe("role", "%s", msg)
	}
	m.Role = Role(role)
	if !m.Role.Valid() {
		return d.fe("role", "unknown role %q; use one of %s", role, roleList)
	}
	if raw, ok := obj["name"]; ok && !isNull(raw) {
		if msg := jsontext.DecodeString(raw, &m.Name, "must be a string"); msg != "" {
			return d.fe("name", "%s", msg)
		}
	}
	return nil
}

// content reads "content": a string or a list of parts.
func (d messageDecoder) content(obj map[string]json.RawMessage, m *Message) error {
	m.Content = []Part{}
	raw, ok := obj["content"]
	if !ok || isNull(raw) {
		return nil
	}
	raw = bytes.TrimLeft(raw, " \t\r\n")
	switch {
	case len(raw) > 0 && raw[0] == '"':
		var s string
		if msg := jsontext.DecodeString(raw, &s, "invalid string"); msg != "" {
			return d.fe("content", "%s", msg)
		}
		m.Content = []Part{TextPart(s)}
	case len(raw) > 0 && raw[0] == '[':
		var err error
		m.Content, err = decodeList(d, "content", raw, "must be a list of parts", decodePart)
		return err
	default:
		return d.fe("content", "must be a string or a list of parts")
	}
	return nil
}

// toolCalls reads "tool_calls".
func (d messageDecoder) toolCalls(obj map[string]json.RawMessage, m *Message) error {
	raw, ok := obj["tool_calls"]
	if !ok || isNull(raw) {
		return nil
	}
	var err error
	m.ToolCalls, err = decodeList(d, "tool_calls", raw, "must be a list of tool calls", decodeToolCall)
	return err
}

// decodeList reads the list at field (raw), each item with decode. When raw is not a list the
// error says notList; a bad item j is reported as field[j].<the item's field>, with the items
// before it decoded.
func decodeList[T any](d messageDecoder, field string, raw json.RawMessage, notList string, decode func([]byte) (T, *partError)) ([]T, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, d.fe(field, "%s", notList)
	}
	out := make([]T, len(items))
	for j, raw := range items {
		v, err := decode(raw)
		if err != nil {
			return out, d.fe(fmt.Sprintf("%s[%d].%s", field, j, err.field), "%s", err.msg)
		}
		out[j] = v
	}
	return out, nil
}

type partError struct{ field, msg string }

func perr(field, format string, args ...any) *partError {
	return &partError{field: field, msg: fmt.Sprintf(format, args...)}
}

// partKeys are the keys each part type has.
var partKeys = map[PartType][]string{
	PartText:  {"type", "text"},
	PartThink: {"type", "think", "encrypted"},
	PartImage: {"type", "image_url"},
	PartAudio: {"type", "audio_url"},
	PartVideo: {"type", "video_url"},
	PartData:  {"type", "data"},
}

// decodePart reads one content part: its type, its keys, then its value.
func decodePart(data []byte) (Part, *partError) {
	var p Part
	obj, typ, err := partObject(data)
	if err != nil {
		return p, err
	}
	p.Type = PartType(typ)
	switch p.Type {
	case PartText:
		err = partString(obj, typ, "text", &p.Text)
	case PartThink:
		err = decodeThink(obj, typ, &p)
	case PartImage, PartAudio, PartVideo:
		err = decodeMedia(obj, typ, &p)
	case PartData:
		raw, ok := obj["data"]
		if !ok {
			return p, perr("data", "missing; a data part holds any JSON value in \"data\"")
		}
		p.Data = compactJSON(raw)
	}
	return p, err
}

// partObject reads a part's keys and checks its type and keys.
func partObject(data []byte) (map[string]json.RawMessage, string, *partError) {
	obj, twice, err := jsontext.DecodeObject(data)
	if err != nil || obj == nil {
		return nil, "", perr("type", "a part must be a JSON object with a \"type\"")
	}
	if twice != "" {
		return nil, "", perr(twice, "%s", jsontext.RepeatedMsg)
	}
	var typ string
	if raw, ok := obj["type"]; !ok || json.Unmarshal(raw, &typ) != nil {
		return nil, "", perr("type", "missing or not a string; use one of %s", partTypeList)
	}
	if !PartType(typ).Valid() {
		return nil, "", perr("type", "unknown part type %q; use one of %s", typ, partTypeList)
	}
	allowed := partKeys[PartType(typ)]
	if k := unknownKey(obj, allowed); k != "" {
		return nil, "", perr(k, "unknown field for a %s part; it has only %s", typ, strings.Join(allowed, ", "))
	}
	return obj, typ, nil
}

// partString reads a required string field of a part.
func partString(obj map[string]json.RawMessage, typ, key string, dst *string) *partError {
	raw, ok := obj[key]
	if !ok || isNull(raw) {
		return perr(key, "missing; a %s part needs a string %q", typ, key)
	}
	if msg := jsontext.DecodeString(raw, dst, "must be a string"); msg != "" {
		return perr(key, "%s", msg)
	}
	return nil
}

func decodeThink(obj map[string]json.RawMessage, typ string, p *Part) *partError {
	if err := partString(obj, typ, "think", &p.Think); err != nil {
		return err
	}
	if raw, ok := obj["encrypted"]; ok && !isNull(raw) {
		var e string
		if msg := jsontext.DecodeString(raw, &e, "must be a string or null"); msg != "" {
			return perr("encrypted", "%s", msg)
		}
		p.Encrypted = &e
	}
	return nil
}

func decodeMedia(obj map[string]json.RawMessage, typ string, p *Part) *partError {
	raw, ok := obj[typ]
	if !ok || isNull(raw) {
		return perr(typ, "missing; write {\"type\":%q,%q:{\"url\":\"...\"}}", typ, typ)
	}
	media, twice, err := jsontext.DecodeObject(raw)
	if err != nil || media == nil {
		return perr(typ, "must be an object {\"url\":\"...\",\"id\":\"...\"}")
	}
	if twice != "" {
		return perr(typ+"."+twice, "%s", jsontext.RepeatedMsg)
	}
	if k := unknownKey(media, []string{"url", "id"}); k != "" {
		return perr(typ+"."+k, "unknown field; a media reference has only url and id")
	}
	u, ok := media["url"]
	if !ok {
		return perr(typ+".url", "missing or not a string")
	}
	if msg := jsontext.DecodeString(u, &p.URL, "missing or not a string"); msg != "" {
		return perr(typ+".url", "%s", msg)
	}
	if id, ok := media["id"]; ok && !isNull(id) {
		var s string
		if msg := jsontext.DecodeString(id, &s, "must be a string or null"); msg != "" {
			return perr(typ+".id", "%s", msg)
		}
		p.MediaID = &s
	}
	return nil
}

var toolCallKeys = []string{"type", "id", "function", "extras"}

func decodeToolCall(data []byte) (ToolCall, *partError) {
	var c ToolCall
	obj, twice, err := jsontext.DecodeObject(data)
	if err != nil || obj == nil {
		return c, perr("function", "a tool call must be an object {\"type\":\"function\",\"id\":...,\"function\":{...}}")
	}
	if twice != "" {
		return c, perr(twice, "%s", jsontext.RepeatedMsg)
	}
	if k := unknownKey(obj, toolCallKeys); k != "" {
		return c, perr(k, "unknown field; a tool call has only %s", strings.Join(toolCallKeys, ", "))
	}
	if raw, ok := obj["type"]; ok && !isNull(raw) {
		var t string
		if json.Unmarshal(raw, &t) != nil || t != "function" {
			return c, perr("type", "must be \"function\"")
		}
	}
	raw, ok := obj["id"]
	if !ok {
		return c, perr("id", "missing or not a string")
	}
	if msg := jsontext.DecodeString(raw, &c.ID, "missing or not a string"); msg != "" {
		return c, perr("id", "%s", msg)
	}
	raw, ok = obj["function"]
	if !ok {
		return c, perr("function", "missing; write {\"name\":\"...\",\"arguments\":\"<JSON text>\"}")
	}
	fn, twice, err := jsontext.DecodeObject(raw)
	if err != nil || fn == nil {
		return c, perr("function", "missing; write {\"name\":\"...\",\"arguments\":\"<JSON text>\"}")
	}
	if twice != "" {
		return c, perr("function."+twice, "%s", jsontext.RepeatedMsg)
	}
	if k := unknownKey(fn, []string{"name", "arguments"}); k != "" {
		return c, perr("function."+k, "unknown field; a function has only name and arguments")
	}
	n, ok := fn["name"]
	if !ok {
		return c, perr("function.name", "missing or not a string")
	}
	if msg := jsontext.DecodeString(n, &c.Name, "missing or not a string"); msg != "" {
		return c, perr("function.name", "%s", msg)
	}
	if a, ok := fn["arguments"]; ok && !isNull(a) {
		var s string
		if msg := jsontext.DecodeString(a, &s, "must be a string holding JSON text (or null)"); msg != "" {
			return c, perr("function.arguments", "%s", msg)
		}
		c.Arguments = &s
	}
	if e, ok := obj["extras"]; ok && !isNull(e) {
		if b := bytes.TrimSpace(e); len(b) == 0 || b[0] != '{' {
			return c, perr("extras", "must be an object or null")
		}
		c.Extras = compactJSON(e)
	}
	return c, nil
}

func compactJSON(raw []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return append([]byte(nil), raw...)
	}
	return buf.Bytes()
}

func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// unknownKey returns the alphabetically first key of obj not in allowed, or "".
func unknownKey(obj map[string]json.RawMessage, allowed []string) string {
	var bad []string
	for k := range obj {
		if !contains(allowed, k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return ""
	}
	slices.Sort(bad)
	return bad[0]
}
