package storeutil_test

// Helpers of the rebase tests (moved from the root with them, issue 41
// §1): messages and sessions (a prepared plan and an answer are
// internal/testing/testkimi's).

import "kompact/internal/testing/testmsg"

// The messages and sessions the tests build (internal/testing/testmsg).
var (
	msg          = testmsg.Msg
	conversation = testmsg.Conversation
	ids          = testmsg.IDs
)
