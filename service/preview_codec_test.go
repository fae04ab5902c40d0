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

// TestEncodePreviewHoldsTheBodyOnce (issue 38): a preview's body holds
// the session it read; EncodePreview writes it into one buffer of its
// size, where json.Marshal grew one by doubling and copied it out (three
// times the body and more: 1.71 GB at the peak of a 100k-message
// session's preview). The bytes it allocates stay under 1.5 times the
// body, and the body decodes as json.Marshal's did.
func TestEncodePreviewHoldsTheBodyOnce(t *testing.T) {
	out := bigOutcome(20_000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	body, err := EncodePreview(out)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(body))*3/2 {
		t.Errorf("encoding a %d-byte preview allocated %d bytes (%.1f times the body)", len(body), alloc, float64(alloc)/float64(len(body)))
	}
	got, err := DecodePreview(body)
	if err != nil {
		t.Fatal(err)
	}
	want, err := DecodePreview(oldEncoding(out))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := EncodePreview(got)
	if wantAgain, _ := EncodePreview(want); !bytes.Equal(again, wantAgain) || !bytes.Equal(again, body) {
		t.Error("the body does not decode as json.Marshal's encoding does")
	}
	if len(got.Result.Span.Session.Messages) != 20_000 || len(got.Result.Session.Messages) != 11 {
		t.Errorf("decoded %d base messages, %d compacted", len(got.Result.Span.Session.Messages), len(got.Result.Session.Messages))
	}
}
