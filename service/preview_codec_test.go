package service

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"kompact"
)

// bigOutcome is a compacted outcome of a session of n messages, each
// about 1 KB of text (a "<" among it, which json.Marshal escapes), whose
// first n-10 a summary replaces.
func bigOutcome(n int) kompact.Outcome {
	msgs := make([]kompact.Message, n)
	for i := range msgs {
		role := kompact.RoleUser
		if i%2 == 1 {
			role = kompact.RoleAssistant
		}
		msgs[i] = kompact.Message{Role: role, ID: "m_" + strings.Repeat("1", i%7+1), Content: []kompact.Part{kompact.TextPart(strings.Repeat("a<b ", 256))}}
	}
	base := &kompact.Session{ID: "s", Agent: "kimi", Messages: msgs}
	summary := kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("the summary")}}
	compacted := *base
	compacted.Messages = append([]kompact.Message{summary}, msgs[n-10:]...)
	f := kompact.Fidelity{}
	return kompact.Outcome{Status: kompact.OutcomeCompacted, Model: "m", Result: &kompact.Result{
		Session: &compacted, SummaryMessage: summary, Summary: "the summary", Compacted: n - 10, Fidelity: &f,
		Span: &kompact.Span{Session: base, Start: 0, End: n - 10},
	}}
}

// oldEncoding is EncodePreview's body as json.Marshal wrote it whole.
func oldEncoding(o kompact.Outcome) []byte {
	r := o.Result
	body, _ := json.Marshal(previewJSON{Model: o.Model, SessionID: r.Session.ID, Agent: r.Session.Agent,
		Base: r.Span.Session.Messages, Start: r.Span.Start, End: r.Span.End, Replacement: r.Replacement(),
		Summary: r.Summary, Compacted: r.Compacted, Fidelity: r.Fidelity})
	return body
}

// TestPreviewHoldsNoCopyOfTheSession (issue 38, Medium): a preview's
// body held the whole session it read (a 100k-message session's preview
// peaked at 1.71 GB, 4.6 times a plain compaction's); it now holds what
// applying needs but the messages the summary replaces, which applying
// reads back from the session. The body and the bytes encoding allocates
// stay under a fiftieth of the session's messages (on main: the body is
// larger than them), whatever the session's length; the body decodes as
// a body of the old form does, but for the replaced messages.
func TestPreviewHoldsNoCopyOfTheSession(t *testing.T) {
	out := bigOutcome(20_000)
	session := messagesSize(out.Result.Span.Session.Messages)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	body, err := EncodePreview(out)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(body) > session/50 {
		t.Errorf("a preview of a session of %d bytes holds %d bytes", session, len(body))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(session/50) {
		t.Errorf("encoding a preview of a session of %d bytes allocated %d bytes", session, alloc)
	}
	got, el, err := decodePreview(body)
	if err != nil {
		t.Fatal(err)
	}
	want, err := DecodePreview(oldEncoding(out))
	if err != nil {
		t.Fatal(err)
	}
	if el.n != 19_990 || el.digest != baseDigest(want.Result.Span.Session.Messages[:19_990]) {
		t.Errorf("elided %d messages, digest %s", el.n, el.digest)
	}
	copy(got.Result.Span.Session.Messages, want.Result.Span.Session.Messages[:el.n]) // as restoreBase does
	again, _ := EncodePreview(got)
	if wantAgain, _ := EncodePreview(want); !bytes.Equal(again, wantAgain) || !bytes.Equal(again, body) {
		t.Error("the body does not decode as the old form's does")
	}
	if len(got.Result.Span.Session.Messages) != 20_000 || len(got.Result.Session.Messages) != 11 {
		t.Errorf("decoded %d base messages, %d compacted", len(got.Result.Span.Session.Messages), len(got.Result.Session.Messages))
	}
	if c, err := previewCounts(body); err != nil || c.Replaced != 19_990 {
		t.Errorf("counts %+v, %v", c, err)
	}
}
