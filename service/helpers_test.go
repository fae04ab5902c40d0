package service_test

// Helpers the service tests share with the kimi tests (moved from the
// root with the tests, issue 41 §1): messages, sessions and their ids.

import (
	"encoding/json"
	"strings"

	"kompact"
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

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func artifactSession() *kompact.Session {
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
