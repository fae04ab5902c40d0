package service_test

// Helpers the service tests share with the kimi tests (moved from the
// root with the tests, issue 41 §1): messages, sessions and their ids.

import (
	"encoding/json"

	"kompact"
	"kompact/internal/testing/testmsg"
)

// The messages and sessions the tests build (internal/testing/testmsg).
var (
	msg          = testmsg.Msg
	sess         = testmsg.Session
	conversation = testmsg.Conversation
	ids          = testmsg.IDs
)

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
