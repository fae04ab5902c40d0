package kompact

import "encoding/json"

// ValidateMessages checks a message list that did not come from
// DecodeMessage (a store's input, a decoded request): every role and part
// type is known, every data part holds valid JSON, and no two messages share
// an id (which would make range selection ambiguous). Errors are EInvalid
// and name the field at fault as messages[i]....
func ValidateMessages(msgs []Message) error {
	seen := make(map[string]int, len(msgs))
	for i := range msgs {
		m := &msgs[i]
		if err := validateForm(m, i); err != nil {
			return err
		}
		if m.ID == "" {
			continue
		}
		if j, dup := seen[m.ID]; dup {
			return Errorf(EInvalid, "messages[%d].id: %q is already the id of messages[%d]", i, m.ID, j).
				WithFixes("Give every message a unique id, or none.")
		}
		seen[m.ID] = i
	}
	return nil
}

// validateForm checks the role and the parts of message i.
func validateForm(m *Message, i int) error {
	if !m.Role.Valid() {
		return Errorf(EInvalid, "messages[%d].role: unknown role %q; use one of system, user, assistant, tool", i, m.Role)
	}
	for j := range m.Content {
		p := &m.Content[j]
		if !p.Type.Valid() {
			return Errorf(EInvalid, "messages[%d].content[%d].type: unknown part type %q; use one of text, think, image_url, audio_url, video_url, data", i, j, p.Type)
		}
		if p.Type == PartData && len(p.Data) > 0 && !json.Valid(p.Data) {
			return Errorf(EInvalid, "messages[%d].content[%d].data: not valid JSON", i, j)
		}
	}
	return nil
}
