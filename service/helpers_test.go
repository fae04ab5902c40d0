package service_test

// Helpers the service tests share with the kimi tests (moved from the
// root with the tests, issue 41 §1): messages, sessions and their ids.

import (
	"encoding/json"

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
