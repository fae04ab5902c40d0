package storeutil_test

// Helpers of the rebase tests (moved from the root with them, issue 41
// §1): messages, sessions, a prepared plan and an answer.

import (
	"testing"

	"kompact"
	"kompact/internal/testing/testmsg"
	"kompact/kimi"
)

// The messages and sessions the tests build (internal/testing/testmsg).
var (
	msg          = testmsg.Msg
	conversation = testmsg.Conversation
	ids          = testmsg.IDs
)

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
