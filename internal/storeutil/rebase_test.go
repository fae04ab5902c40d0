package storeutil_test

import (
	"testing"

	"kompact"
	"kompact/internal/storeutil"
	"kompact/internal/testing/testkimi"
	"kompact/kimi"
)

func TestRebaseKeepsAppendedMessages(t *testing.T) {
	base := conversation().Messages
	p := testkimi.Prepare(t, &kompact.Session{Messages: base}, kimi.Options{MaxPreserved: 2})
	res, err := p.Apply(testkimi.Answer("S"))
	if err != nil {
		t.Fatal(err)
	}
	c := res.Commit()
	// Two messages arrive while the LLM runs.
	current := append(append([]kompact.Message(nil), base...), msg("user", "u4", "late"), msg("assistant", "a4", "later"))
	got, err := storeutil.Rebase(current, c)
	if err != nil {
		t.Fatal(err)
	}
	if ids(got) != "sys,<user>,u3,a3,u4,a4" {
		t.Fatalf("rebased %s", ids(got))
	}
	// A middle range keeps the messages before it.
	p = testkimi.Prepare(t, &kompact.Session{Messages: base}, kimi.Options{Start: "u2", End: "a2"})
	res, _ = p.Apply(testkimi.Answer("S"))
	got, err = storeutil.Rebase(current, res.Commit())
	if err != nil || ids(got) != "sys,u1,a1,<user>,u3,a3,u4,a4" {
		t.Fatalf("middle range: %s %v", ids(got), err)
	}
}

func TestRebaseConflicts(t *testing.T) {
	base := conversation().Messages
	p := testkimi.Prepare(t, &kompact.Session{Messages: base}, kimi.Options{MaxPreserved: 2})
	res, _ := p.Apply(testkimi.Answer("S"))
	c := res.Commit()
	edited := append([]kompact.Message(nil), base...)
	edited[2] = msg("assistant", "a1", "edited answer")
	for name, current := range map[string][]kompact.Message{
		"edited":    edited,
		"truncated": base[:3],
		"reordered": append([]kompact.Message{base[1], base[0]}, base[2:]...),
	} {
		if _, err := storeutil.Rebase(current, c); kompact.ErrorCodeOf(err) != kompact.EConflict {
			t.Errorf("%s: %v, want conflict", name, err)
		}
	}
	// A change in the preserved tail is no conflict: the current tail wins.
	tail := append([]kompact.Message(nil), base...)
	tail[6] = msg("assistant", "a3", "rewritten tail")
	got, err := storeutil.Rebase(tail, c)
	if err != nil || got[len(got)-1].Content[0].Text != "rewritten tail" {
		t.Fatalf("tail change: %v", err)
	}
}
