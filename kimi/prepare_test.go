package kimi

import (
	"strings"
	"sync"
	"testing"

	"kompact"
)

func estimateSession() *kompact.Session {
	s := &kompact.Session{ID: "s"}
	for i, r := range []kompact.Role{kompact.RoleSystem, kompact.RoleUser, kompact.RoleAssistant, kompact.RoleUser, kompact.RoleAssistant, kompact.RoleUser, kompact.RoleAssistant} {
		s.Messages = append(s.Messages, kompact.Message{Role: r, Content: []kompact.Part{kompact.TextPart(strings.Repeat("words ", i+1))}})
	}
	return s
}

// TestTokensBeforeOnce: a prepared plan's estimate is made once, by
// whichever of its concurrent callers comes first, and the plans DropOldest
// makes from it (before or after) share it; a Plan built by hand estimates
// its session on every call. The test changes the session after the first
// call to tell a made estimate from a fresh one.
func TestTokensBeforeOnce(t *testing.T) {
	for _, dropFirst := range []bool{false, true} {
		s := estimateSession()
		want := kompact.EstimateTokens(s.Messages)
		p, err := Prepare(s, Options{MaxPreserved: 2})
		if err != nil || p.Noop {
			t.Fatalf("Prepare: %v, %+v", err, p)
		}
		q := p
		if dropFirst {
			if q = p.DropOldest(); q == nil {
				t.Fatal("DropOldest: nil")
			}
		}
		var wg sync.WaitGroup
		got := make([]int, 8)
		for i := range got {
			wg.Go(func() { got[i] = q.TokensBefore() })
		}
		wg.Wait()
		for _, n := range got {
			if n != want {
				t.Fatalf("TokensBefore %d, want %d", n, want)
			}
		}
		s.Messages[1].Content[0].Text += strings.Repeat("more ", 100)
		if !dropFirst {
			q = p.DropOldest()
		}
		if n, m := p.TokensBefore(), q.TokensBefore(); n != want || m != want {
			t.Errorf("dropFirst %v: after a change TokensBefore %d and %d, want the estimate made, %d", dropFirst, n, m, want)
		}
	}
	s := estimateSession()
	hand := &Plan{Span: kompact.Span{Session: s, Start: 1, End: 5}}
	s.Messages[1].Content[0].Text += "more"
	if n, want := hand.TokensBefore(), kompact.EstimateTokens(s.Messages); n != want {
		t.Errorf("hand-made plan: TokensBefore %d, want %d", n, want)
	}
}
