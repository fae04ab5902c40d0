package service_test

// End-to-end tests of the Compactor with the real transport: openai.Client
// talking HTTP to the in-process fake LLM server.

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/testllm"
	"kompact/service"
)

// e2eHeader matches the header part of one compacted message.
var e2eHeader = regexp.MustCompile(`## Message \d+\nRole: `)

func e2eHeaders(req fakellm.Request) int {
	return len(e2eHeader.FindAllString(req.Text(), -1))
}

// e2eSession is a system message followed by n user/assistant turns, with
// ids s, u1, a1, u2, a2, ...
func e2eSession(n int) *kompact.Session {
	msgs := []kompact.Message{{ID: "s", Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart("You are an agent.")}}}
	for i := 1; i <= n; i++ {
		msgs = append(msgs,
			kompact.Message{ID: fmt.Sprintf("u%d", i), Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(fmt.Sprintf("question number %d", i))}},
			kompact.Message{ID: fmt.Sprintf("a%d", i), Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart(fmt.Sprintf("answer number %d", i))}},
		)
	}
	return &kompact.Session{ID: "e2e", Messages: msgs}
}

// TestCompactorShrinksRequestOverHTTP: the provider refuses requests with
// more than K message headers as too long; the Compactor leaves out the
// oldest messages until the request fits, and the summary still replaces
// the whole range.
func TestCompactorShrinksRequestOverHTTP(t *testing.T) {
	t.Parallel()
	const k = 8
	const summary = "<current_focus>the tests</current_focus> summary text"
	srv := fakellm.New(t)
	srv.SetFunc(func(req fakellm.Request) fakellm.Reply {
		if e2eHeaders(req) > k {
			return fakellm.ContextTooLong()
		}
		return fakellm.Answer(fakellm.Think("condensing"), fakellm.Text(summary)).
			WithUsage(fakellm.Usage{PromptTokens: 300, CompletionTokens: 40})
	})
	s := e2eSession(10) // 21 messages: 19 compacted, 2 preserved
	var pr fakellm.ProgressLog
	out := (&service.Compactor{LLM: testllm.Client()}).Execute(context.Background(), testllm.HTTPAgent(srv.URL()), s,
		kompact.ActionRequest{Action: kompact.ActionCompactConversation}, pr.Add)
	if out.Status != kompact.OutcomeCompacted {
		t.Fatalf("outcome %s: %+v", out.Status, out.Err)
	}

	reqs := srv.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d requests; the first must have been refused", len(reqs))
	}
	counts := make([]int, len(reqs))
	for i, r := range reqs {
		counts[i] = e2eHeaders(r)
		if r.Model() != "kimi-k2" {
			t.Errorf("request %d: model %q", i+1, r.Model())
		}
	}
	first, last := counts[0], counts[len(counts)-1]
	if first != 19 || last > k {
		t.Fatalf("headers per request %v: want 19 first and at most %d last", counts, k)
	}
	for i := 1; i < len(counts); i++ {
		if counts[i] >= counts[i-1] {
			t.Errorf("headers per request %v: the request did not shrink", counts)
		}
	}
	if d := out.Result.Dropped(); d <= 0 || d != first-last {
		t.Errorf("Dropped %d, want %d (headers %v)", d, first-last, counts)
	}
	// The last request shows the newest messages of the range, not the oldest.
	lastText := reqs[len(reqs)-1].Text()
	if !strings.Contains(lastText, "answer number 9") || strings.Contains(lastText, "question number 1") {
		t.Errorf("last request does not hold the newest messages: %q", lastText)
	}
	if strings.Contains(lastText, "You are an agent.") {
		t.Errorf("the oldest message (system) was not left out: %q", lastText)
	}

	// The summary replaces the whole range: system, summary, u10, a10.
	res := out.Result
	got := res.Session.Messages
	if len(got) != 4 || got[0].ID != "s" || got[2].ID != "u10" || got[3].ID != "a10" {
		t.Fatalf("compacted session %+v", got)
	}
	if res.Compacted != 19 || res.Preserved != 2 {
		t.Errorf("Compacted %d, Preserved %d; want 19 and 2", res.Compacted, res.Preserved)
	}
	if res.Summary != summary || got[1].Content[0].Text != kompact.SummaryPrefix+"\n"+summary {
		t.Errorf("summary %q / message %q", res.Summary, got[1].Content[0].Text)
	}
	if res.Usage == nil || res.Usage.Output != 40 {
		t.Errorf("usage %+v", res.Usage)
	}
	if len(s.Messages) != 21 {
		t.Errorf("the input session changed: %d messages", len(s.Messages))
	}

	// Progress: Request counts the requests, Dropped grows with it, and the
	// last report has every character of the answer.
	ps := pr.List()
	seen := map[int]int{} // request -> Dropped
	prevAttempt := 0
	for i, p := range ps {
		if p.Round < prevAttempt || p.Round > prevAttempt+1 || p.Attempt != 1 {
			t.Fatalf("progress %d: request %d (attempt %d) after %d (%+v)", i, p.Round, p.Attempt, prevAttempt, ps)
		}
		if d, ok := seen[p.Round]; ok && d != p.Dropped {
			t.Errorf("progress %d: Dropped changed within request %d", i, p.Round)
		}
		seen[p.Round] = p.Dropped
		prevAttempt = p.Round
	}
	if prevAttempt != len(reqs) {
		t.Errorf("last attempt %d, want %d (one per request)", prevAttempt, len(reqs))
	}
	for a := 1; a <= len(reqs); a++ {
		if want := first - counts[a-1]; seen[a] != want {
			t.Errorf("attempt %d reported Dropped %d, want %d", a, seen[a], want)
		}
	}
	if lastP := ps[len(ps)-1]; lastP.Chars != len("condensing")+len(summary) {
		t.Errorf("last progress %+v, want Chars %d", lastP, len("condensing")+len(summary))
	}
}

// TestCompactorTooLongEvenWithOneMessage: when the provider refuses even a
// request that shows a single message, the outcome is an ELLM error that
// says so.
func TestCompactorTooLongEvenWithOneMessage(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(t)
	srv.SetDefault(fakellm.Fail(400, "the input length exceeds the context length"))
	s := e2eSession(3) // 7 messages: 5 compacted, 2 preserved
	out := (&service.Compactor{LLM: testllm.Client()}).Execute(context.Background(), testllm.HTTPAgent(srv.URL()), s,
		kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
	if out.Status != kompact.OutcomeError || out.Err == nil {
		t.Fatalf("outcome %s, want error", out.Status)
	}
	if out.Err.Code != kompact.ELLM {
		t.Errorf("code %s, want %s", out.Err.Code, kompact.ELLM)
	}
	if !strings.Contains(out.Err.Message, "even with only the newest 1 message of the range") {
		t.Errorf("message %q does not say that one message is still too long", out.Err.Message)
	}
	if !errors.Is(out.Err, kompact.ErrContextTooLong) {
		t.Errorf("%v does not wrap ErrContextTooLong", out.Err)
	}
	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Errorf("%d requests, want 5 (5, 4, 3, 2, 1 messages)", len(reqs))
	}
	if n := e2eHeaders(reqs[len(reqs)-1]); n != 1 {
		t.Errorf("the last request shows %d messages, want 1", n)
	}
	if !strings.Contains(out.Err.Message, "(4 older ones left out)") {
		t.Errorf("message %q does not say that 4 messages were left out", out.Err.Message)
	}
	if out.Result != nil {
		t.Errorf("a result with an error: %+v", out.Result)
	}
}
