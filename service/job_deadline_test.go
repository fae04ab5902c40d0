package service_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/testllm"
	"kompact/service"
)

// TestJobDeadlineStopsStalledLLM: a provider that accepts the request and
// then says nothing is given up on when the agent's compaction.timeout
// passes, with a typed llm_error whose fix names the setting.
func TestJobDeadlineStopsStalledLLM(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(t)
	srv.SetDefault(fakellm.DefaultReply().WithDelay(time.Minute))
	a := testllm.HTTPAgent(srv.URL())
	a.Compaction.Timeout = 200 * time.Millisecond
	out := (&service.Compactor{LLM: testllm.Client()}).Execute(context.Background(), a, e2eSession(3),
		kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
	checkDeadlineError(t, out, "200ms")
}

// TestJobDeadlineCoversAllAttempts: the deadline bounds all attempts
// together. Each answer alone comes well within it, but the provider says
// "too long" three times before it answers, and the four together take
// longer than the deadline.
func TestJobDeadlineCoversAllAttempts(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(t)
	const each = 150 * time.Millisecond
	srv.Enqueue(fakellm.ContextTooLong().WithDelay(each), fakellm.ContextTooLong().WithDelay(each),
		fakellm.ContextTooLong().WithDelay(each))
	srv.SetDefault(fakellm.DefaultReply().WithDelay(each))
	a := testllm.HTTPAgent(srv.URL())
	a.Compaction.Timeout = 400 * time.Millisecond
	out := (&service.Compactor{LLM: testllm.Client()}).Execute(context.Background(), a, e2eSession(8),
		kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
	checkDeadlineError(t, out, "400ms")
	if n := len(srv.Requests()); n < 2 || n > 4 {
		t.Errorf("%d requests; want the deadline to pass during attempt 2 to 4", n)
	}
}

func checkDeadlineError(t *testing.T, out kompact.Outcome, within string) {
	t.Helper()
	if out.Status != kompact.OutcomeError {
		t.Fatalf("outcome %s, want error", out.Status)
	}
	var ke *kompact.Error
	if !errors.As(out.Err, &ke) || ke.Code != kompact.ELLM {
		t.Fatalf("error %#v, want a *kompact.Error with code %s", out.Err, kompact.ELLM)
	}
	if !strings.Contains(ke.Message, "did not finish within "+within) || !strings.Contains(ke.Message, "all attempts together") {
		t.Errorf("message %q does not name the overall deadline %s", ke.Message, within)
	}
	if len(ke.Fixes) == 0 || !strings.Contains(ke.Fixes[0], "compaction.timeout") {
		t.Errorf("fixes %q do not name compaction.timeout", ke.Fixes)
	}
	if out.Model != "kimi-k2" {
		t.Errorf("outcome model %q", out.Model)
	}
}

// TestJobTimeoutDefault: without compaction.timeout a job has the default
// overall deadline of ten minutes.
func TestJobTimeoutDefault(t *testing.T) {
	srv := fakellm.New(t)
	job, err := (&service.Compactor{LLM: testllm.Client()}).NewJob(testllm.HTTPAgent(srv.URL()), e2eSession(3), kompact.ActionRequest{Action: kompact.ActionCompactConversation})
	if err != nil {
		t.Fatal(err)
	}
	if job.Timeout != 10*time.Minute || kompact.DefaultLLMTimeout != 10*time.Minute {
		t.Errorf("Timeout %s, DefaultLLMTimeout %s; want 10m", job.Timeout, kompact.DefaultLLMTimeout)
	}
}
