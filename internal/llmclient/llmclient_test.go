package llmclient

import (
	"context"
	"errors"
	"testing"
	"time"

	"kompact"
)

type llmFunc func() (kompact.Answer, error)

func (f llmFunc) Complete(context.Context, kompact.RequestConfig, []kompact.Message, func(kompact.Progress)) (kompact.Answer, error) {
	return f()
}

func answering(text string) llmFunc {
	return func() (kompact.Answer, error) {
		return kompact.Answer{Parts: []kompact.Part{kompact.TextPart(text)}}, nil
	}
}

// TestRouter: an api: anthropic request goes through the Messages client,
// any other through the default one (what cmd/kompact wires).
func TestRouter(t *testing.T) {
	r := Router{By: map[string]kompact.LLM{"anthropic": answering("via messages")}, Default: answering("via other")}
	msgs := []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("hi")}}}
	for api, want := range map[string]string{"anthropic": "via messages", "": "via other", "openai": "via other"} {
		a, err := r.Complete(context.Background(), kompact.RequestConfig{API: api}, msgs, nil)
		if err != nil || a.Parts[0].Text != want {
			t.Errorf("api %q: %+v %v", api, a, err)
		}
	}
}

// failed is a Failure for TestRun.
type failed struct{ retry bool }

func (f failed) Retry() bool                       { return f.retry }
func (f failed) RetryAfter() (time.Duration, bool) { return time.Second, true }
func (f failed) Short() string                     { return "it failed" }

// TestRun: MaxRetries' attempts (0: the default's, negative: one), the
// waits reported and slept, a failure not worth retrying at once, the
// gave-up reason handed to Fail.
func TestRun(t *testing.T) {
	for _, c := range []struct {
		maxRetries, want int
		retry            bool
	}{{0, 5, true}, {2, 3, true}, {-1, 1, true}, {3, 1, false}} {
		var waits []time.Duration
		var reports []kompact.Progress
		s := &Settings{MaxRetries: c.maxRetries, Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
		n := 0
		var gaveUp string
		_, err := Run(context.Background(), s, Call{
			Host: "llm.example",
			Attempt: func(context.Context, func(kompact.Progress)) (kompact.Answer, Failure) {
				n++
				return kompact.Answer{}, failed{c.retry}
			},
			Fail: func(_ Failure, why string) error { gaveUp = why; return errors.New("failed") },
		}, func(p kompact.Progress) { reports = append(reports, p) })
		if err == nil || n != c.want || len(waits) != c.want-1 || len(reports) != c.want-1 {
			t.Errorf("MaxRetries %d: %d attempts, waits %v, reports %+v, err %v; want %d attempts", c.maxRetries, n, waits, reports, err, c.want)
		}
		if wantWhy := map[bool]string{true: "gave up after " + attempts(c.want), false: ""}[c.retry]; gaveUp != wantWhy {
			t.Errorf("MaxRetries %d: gave up %q, want %q", c.maxRetries, gaveUp, wantWhy)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, &Settings{}, Call{Host: "llm.example"}, nil)
	if kompact.ErrorCodeOf(err) != kompact.ELLM || !errors.Is(err, context.Canceled) {
		t.Errorf("a done context: %v", err)
	}
}
