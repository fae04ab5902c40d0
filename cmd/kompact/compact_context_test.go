package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"kompact"
	"kompact/kimi"
)

// splicedContext is how compact --auto --json wrote the context figures
// before they became a field of the outcome: the outcome's JSON with
// "context" spliced in by hand as its first field. It is the reference
// the encoded form must match byte for byte.
func splicedContext(b []byte, st kompact.ContextStatus) []byte {
	cj, err := json.Marshal(st)
	if err != nil {
		panic(err)
	}
	out := append([]byte(`{"context":`), cj...)
	if len(b) > 2 {
		out = append(out, ',')
	}
	return append(out, b[1:]...)
}

// TestOutcomeContextIsTheSplicedForm: an outcome carrying its context
// figures encodes to exactly the bytes the hand-spliced form had, for
// every status; without them (the HTTP API's outcomes), it has no
// "context" field.
func TestOutcomeContextIsTheSplicedForm(t *testing.T) {
	s := &kompact.Session{ID: "s", Messages: []kompact.Message{
		{ID: "sys", Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart("You are an agent.")}},
		{ID: "u1", Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("question <&> \u2028")}},
		{ID: "a1", Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart("answer")}},
		{ID: "u2", Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("again")}},
	}}
	p, err := kimi.Prepare(s, kimi.Options{MaxPreserved: 1})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Apply(kompact.Answer{Parts: []kompact.Part{kompact.TextPart("<current_focus>x</current_focus>")}, Usage: &kompact.Usage{Output: 5}})
	if err != nil {
		t.Fatal(err)
	}
	st := kimi.NewContextStatus(kompact.RestoreTokenAccount(0, s.Messages), 1000, kompact.DefaultAutoCompaction(true))
	for name, o := range map[string]kompact.Outcome{
		"compacted": {Status: kompact.OutcomeCompacted, Result: res, Model: "m"},
		"preview":   {Status: kompact.OutcomePreview, Result: res, Model: "m", PreviewID: "p1"},
		"noop":      {Status: kompact.OutcomeNoop, Reason: "nothing <to> compact"},
		"error":     kompact.ErrorOutcome(kompact.Errorf(kompact.ELLM, "the provider failed").WithFixes("Retry.")),
	} {
		plain, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		o.Context = &st
		got, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		if want := splicedContext(plain, st); string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
		if bytes.Contains(plain, []byte(`"context"`)) {
			t.Errorf("%s without context: %s", name, plain)
		}
	}
}
