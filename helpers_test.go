package kompact_test

// Helpers the root's tests share (the tests of kimi, service and storeutil
// that used them too moved beside their code, issue 41 §1).

import "kompact"

// msg builds a message: role, id and text parts.
func msg(role kompact.Role, id string, texts ...string) kompact.Message {
	m := kompact.Message{ID: id, Role: role, Content: []kompact.Part{}}
	for _, t := range texts {
		m.Content = append(m.Content, kompact.TextPart(t))
	}
	return m
}
