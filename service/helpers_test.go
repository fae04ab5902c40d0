package service_test

// Helpers of the service tests (moved from the root with the tests, issue
// 41 §1): messages, sessions and their ids, and a preview's round trip.

import (
	"encoding/json"
	"testing"

	"kompact"
	"kompact/internal/testing/testmsg"
	"kompact/service"
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

// previewRoundTrip is out kept as a preview and read back (EncodePreview, DecodePreview), its
// replaced messages read back from the session as applying it does.
func previewRoundTrip(t *testing.T, out kompact.Outcome) kompact.Outcome {
	t.Helper()
	body, err := service.EncodePreview(out)
	if err != nil {
		t.Fatal(err)
	}
	back, err := service.DecodePreview(body)
	if err != nil {
		t.Fatal(err)
	}
	copy(back.Result.Span.Session.Messages, out.Result.Span.Session.Messages[:out.Result.Span.End])
	return back
}
