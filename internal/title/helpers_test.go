package title_test

import "kompact"

// msg builds a message: role, id and text parts (moved from the root with
// the title tests, issue 41 §1).
func msg(role kompact.Role, id string, texts ...string) kompact.Message {
	m := kompact.Message{ID: id, Role: role, Content: []kompact.Part{}}
	for _, t := range texts {
		m.Content = append(m.Content, kompact.TextPart(t))
	}
	return m
}
