package kompact_test

import (
	"context"
	"fmt"
	"testing"

	"kompact"
)

// The context route's work does not follow the session's length: on a
// session of 4,000 messages, Sessions.Context allocates as on one of 40,
// after an import, an append and a restore alike (issue 21 §1). It counts
// allocations, not time.
func TestSessionsContextAllocatesByRoute(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two sessions of thousands of messages")
	}
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	ctx := context.Background()
	build := func(id string, n int) {
		sess := &kompact.Session{ID: id, Agent: "manual"}
		for i := range n {
			role := kompact.RoleUser
			if i%2 == 1 {
				role = kompact.RoleAssistant
			}
			sess.Messages = append(sess.Messages, kompact.Message{ID: fmt.Sprintf("m%d", i), Role: role,
				Content: []kompact.Part{kompact.TextPart(fmt.Sprintf("message %d of the session", i))}})
		}
		if _, err := e.store.CreateSession(ctx, sess); err != nil {
			t.Fatal(err)
		}
	}
	allocs := func(id string) float64 {
		return testing.AllocsPerRun(5, func() {
			if _, err := e.s.Context(ctx, id); err != nil {
				t.Fatal(err)
			}
		})
	}
	build("small", 40)
	build("large", 4000)
	compare := func(when string) {
		t.Helper()
		small, large := allocs("small"), allocs("large")
		if large > small*1.5+20 {
			t.Errorf("%s: Context allocates %.0f times on 4,000 messages, %.0f on 40: it reads the session", when, large, small)
		}
	}
	compare("created")
	for _, id := range []string{"small", "large"} {
		if _, err := e.store.AppendMessages(ctx, id, []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("more")}}}); err != nil {
			t.Fatal(err)
		}
	}
	compare("appended")
	for _, id := range []string{"small", "large"} {
		st, err := e.store.GetSession(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		c := kompact.Commit{Base: st.Messages, End: 2, Replacement: []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("summary")}}},
			Kind: kompact.RevisionCompaction, Note: "compacted", Version: st.Version, TokenCount: 10}
		_, info, err := e.store.CommitCompaction(ctx, id, c)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.store.RestoreRevision(ctx, id, info.Rev); err != nil {
			t.Fatal(err)
		}
	}
	compare("restored")
}
