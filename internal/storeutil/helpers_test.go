package storeutil_test

// Helpers of the rebase tests (moved from the root with them, issue 41
// §1): messages, sessions, a prepared plan and an answer.

import (
	"strings"
	"testing"

	"kompact"
	"kompact/kimi"
)

// msg builds a message: role, id and text parts.
func msg(role kompact.Role, id string, texts ...string) kompact.Message {
	m := kompact.Message{ID: id, Role: role, Content: []kompact.Part{}}
	for _, t := range texts {
		m.Content = append(m.Content, kompact.TextPart(t))
	}
	return m
}

func sess(msgs ...kompact.Message) *kompact.Session {
	return &kompact.Session{ID: "s", Messages: msgs}
}

// conversation is [system, u1, a1, u2, a2, u3, a3] with ids.
func conversation() *kompact.Session {
	return sess(
		msg(kompact.RoleSystem, "sys", "You are an agent."),
		msg(kompact.RoleUser, "u1", "first question"),
		msg(kompact.RoleAssistant, "a1", "first answer"),
		msg(kompact.RoleUser, "u2", "second question"),
		msg(kompact.RoleAssistant, "a2", "second answer"),
		msg(kompact.RoleUser, "u3", "third question"),
		msg(kompact.RoleAssistant, "a3", "third answer"),
	)
}

func ids(msgs []kompact.Message) string {
	var out []string
	for _, m := range msgs {
		if m.ID == "" {
			out = append(out, "<"+string(m.Role)+">")
		} else {
			out = append(out, m.ID)
		}
	}
	return strings.Join(out, ",")
}

func prepare(t *testing.T, s *kompact.Session, opt kimi.Options) *kimi.Plan {
	t.Helper()
	p, err := kimi.Prepare(s, opt)
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	return p
}

func answer(text string) kompact.Answer {
	return kompact.Answer{Parts: []kompact.Part{kompact.ThinkPart("thinking"), kompact.TextPart(text)}, Usage: &kompact.Usage{Output: 10}}
}
