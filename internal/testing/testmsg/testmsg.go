// Package testmsg is test support: the small messages and sessions the tests of several
// packages build (kimi, service, fidelity, internal/storeutil), written once.
package testmsg

import (
	"strings"

	"kompact"
)

// Msg builds a message: role, id and text parts.
func Msg(role kompact.Role, id string, texts ...string) kompact.Message {
	m := kompact.Message{ID: id, Role: role, Content: []kompact.Part{}}
	for _, t := range texts {
		m.Content = append(m.Content, kompact.TextPart(t))
	}
	return m
}

// Session is a session of id "s" holding msgs.
func Session(msgs ...kompact.Message) *kompact.Session {
	return &kompact.Session{ID: "s", Messages: msgs}
}

// Conversation is [system, u1, a1, u2, a2, u3, a3] with ids.
func Conversation() *kompact.Session {
	return Session(
		Msg(kompact.RoleSystem, "sys", "You are an agent."),
		Msg(kompact.RoleUser, "u1", "first question"),
		Msg(kompact.RoleAssistant, "a1", "first answer"),
		Msg(kompact.RoleUser, "u2", "second question"),
		Msg(kompact.RoleAssistant, "a2", "second answer"),
		Msg(kompact.RoleUser, "u3", "third question"),
		Msg(kompact.RoleAssistant, "a3", "third answer"),
	)
}

// IDs is msgs' ids joined by commas, "<role>" for a message without one.
func IDs(msgs []kompact.Message) string {
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

// ArtifactSession is a short session with an artifact of each class fidelity finds (paths, a
// URL, a to-do, identifiers, a failing test, a tool call and its result): the artifact tests of
// fidelity and service read it.
func ArtifactSession() *kompact.Session {
	args := `{"command":"go test ./internal/...","path":"internal/secret.go"}`
	return &kompact.Session{Messages: []kompact.Message{
		{ID: "sys", Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart("Work in cmd/kompact/main.go")}},
		{ID: "u1", Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("Fix summary.go and see https://go.dev/doc. TODO: keep the parity")}},
		{ID: "a1", Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.ThinkPart("maybe Plan.Apply is wrong"), kompact.TextPart("Looking at summary.go now.")},
			ToolCalls: []kompact.ToolCall{{ID: "c1", Name: "Shell", Arguments: &args}}},
		{ID: "t1", Role: kompact.RoleTool, ToolCallID: "c1", HasToolCallID: true, Content: []kompact.Part{
			kompact.TextPart("--- FAIL: TestApply (0.00s)\nParseConfig in cfg.go"),
			{Type: kompact.PartData, Data: []byte(`{"file":"data/only.json"}`)}}},
		{Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart("Fixed summary.go; run `go vet ./...`.")}},
	}}
}
