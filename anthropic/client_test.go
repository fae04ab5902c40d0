package anthropic_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"kompact"
	"kompact/anthropic"
	"kompact/internal/testing/fakeanthropic"
)

// noSleep records the waits instead of waiting.
type noSleep struct{ waits []time.Duration }

func (n *noSleep) sleep(_ context.Context, d time.Duration) error {
	n.waits = append(n.waits, d)
	return nil
}

func client(sl *noSleep) *anthropic.Client {
	return &anthropic.Client{Getenv: func(string) string { return "sk-test" }, Sleep: sl.sleep}
}

func cfgOf(url string) kompact.RequestConfig {
	return kompact.RequestConfig{API: anthropic.API, BaseURL: url, APIKeyEnv: "ANTHROPIC_API_KEY", Model: "claude-haiku", MaxAnswerBytes: 4096}
}

// TestClientKimiRequest (issue 32 §1): the kimi-cli request, a system
// prompt and one user message, goes as "system" and one user message,
// streamed, with max_tokens, the model, x-api-key and anthropic-version;
// the streamed answer's thinking (with its signature) and text come back
// as parts, its usage as message_start's and message_delta's.
func TestClientKimiRequest(t *testing.T) {
	events := fakeanthropic.Start("claude-haiku", fakeanthropic.Usage{Input: 900, CacheRead: 100})
	events = append(events, fakeanthropic.ThinkingBlock(0, "summarise", "sig==")...)
	events = append(events, fakeanthropic.TextBlock(1, "<summary>The user fixed /src/a.go.</summary>")...)
	events = append(events, fakeanthropic.Stop("end_turn", fakeanthropic.Usage{Output: 30})...)
	fake := fakeanthropic.New(t, func(fakeanthropic.Request) fakeanthropic.Answer { return fakeanthropic.Answer{Events: events} })
	msgs := []kompact.Message{
		{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart("You compact conversations.")}},
		{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("the history"), kompact.TextPart("compact it")}},
	}
	var pl []kompact.Progress
	a, err := client(&noSleep{}).Complete(context.Background(), cfgOf(fake.URL), msgs, func(p kompact.Progress) { pl = append(pl, p) })
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Parts) != 2 || a.Parts[0].Think != "summarise" || *a.Parts[0].Encrypted != "sig==" || a.Parts[1].Text != "<summary>The user fixed /src/a.go.</summary>" {
		t.Errorf("parts %+v", a.Parts)
	}
	if a.Usage == nil || a.Usage.InputOther != 900 || a.Usage.InputCacheRead != 100 || a.Usage.Output != 30 {
		t.Errorf("usage %+v", a.Usage)
	}
	req := fake.Requests()[0]
	if req.Path != "/v1/messages" || req.Header.Get("X-Api-Key") != "sk-test" || req.Header.Get("Anthropic-Version") != anthropic.Version {
		t.Errorf("request %s %v", req.Path, req.Header)
	}
	want := `{"max_tokens":8192,"messages":[{"role":"user","content":[{"text":"the history","type":"text"},{"text":"compact it","type":"text"}]}],"model":"claude-haiku","stream":true,"system":"You compact conversations."}`
	if string(req.Body) != want {
		t.Errorf("body\n got %s\nwant %s", req.Body, want)
	}
	if len(pl) == 0 || pl[len(pl)-1].Attempt != 1 {
		t.Errorf("progress %+v", pl)
	}
}

// TestClientRetries: 529 overloaded_error, then 429 with retry-after 2,
// then a stream cut before message_stop are retried; the fourth attempt's
// answer is returned.
func TestClientRetries(t *testing.T) {
	var n atomic.Int32
	fake := fakeanthropic.New(t, func(fakeanthropic.Request) fakeanthropic.Answer {
		switch n.Add(1) {
		case 1:
			return fakeanthropic.Error(529, "overloaded_error", "Overloaded")
		case 2:
			a := fakeanthropic.Error(429, "rate_limit_error", "slow down")
			a.Header["Retry-After"] = "2"
			return a
		case 3:
			evs := fakeanthropic.TextStream("m", "cut", fakeanthropic.Usage{Input: 1})
			return fakeanthropic.Answer{Events: evs[:len(evs)-2]}
		}
		return fakeanthropic.Answer{Events: fakeanthropic.TextStream("m", "done", fakeanthropic.Usage{Input: 1, Output: 1})}
	})
	sl := &noSleep{}
	a, err := client(sl).Complete(context.Background(), cfgOf(fake.URL), []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("hi")}}}, nil)
	if err != nil || len(a.Parts) != 1 || a.Parts[0].Text != "done" {
		t.Fatalf("%+v %v", a, err)
	}
	if len(sl.waits) != 3 || sl.waits[1] != 2*time.Second {
		t.Errorf("waits %v, want three, the second Retry-After's 2 s", sl.waits)
	}
}

// TestClientFailsAtOnce: "prompt is too long" wraps ErrContextTooLong, an
// answer past the cap ErrAnswerTooLarge, a 401 is an ELLM error; none is
// retried.
func TestClientFailsAtOnce(t *testing.T) {
	cases := []struct {
		answer fakeanthropic.Answer
		is     error
	}{
		{fakeanthropic.Error(400, "invalid_request_error", "prompt is too long: 250000 tokens > 200000 maximum"), kompact.ErrContextTooLong},
		{fakeanthropic.Answer{Events: fakeanthropic.TextStream("m", strings.Repeat("x", 5000), fakeanthropic.Usage{Input: 1})}, kompact.ErrAnswerTooLarge},
		{fakeanthropic.Error(401, "authentication_error", "invalid x-api-key"), nil},
	}
	for i, c := range cases {
		fake := fakeanthropic.New(t, func(fakeanthropic.Request) fakeanthropic.Answer { return c.answer })
		_, err := client(&noSleep{}).Complete(context.Background(), cfgOf(fake.URL), []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("hi")}}}, nil)
		if kompact.ErrorCodeOf(err) != kompact.ELLM || (c.is != nil && !errors.Is(err, c.is)) || len(fake.Requests()) != 1 {
			t.Errorf("case %d: %v after %d requests", i, err, len(fake.Requests()))
		}
		if err != nil && strings.Contains(err.Error(), "sk-test") {
			t.Errorf("case %d: the key is in the error", i)
		}
	}
}

// TestClientSharesTheLoop (issue 41 §4): the Client runs llmclient's
// attempt loop, as openai.Client does: a retry-after-ms header is read,
// and a wait that would end past the call's deadline is not begun: the
// call gives up at once, saying so.
func TestClientSharesTheLoop(t *testing.T) {
	fake := fakeanthropic.New(t, func(fakeanthropic.Request) fakeanthropic.Answer {
		a := fakeanthropic.Error(429, "rate_limit_error", "slow down")
		a.Header["Retry-After-Ms"] = "90000"
		return a
	})
	sl := &noSleep{}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := client(sl).Complete(ctx, cfgOf(fake.URL), []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("hi")}}}, nil)
	if kompact.ErrorCodeOf(err) != kompact.ELLM || !strings.Contains(err.Error(), "would come after the deadline") || len(sl.waits) != 0 || len(fake.Requests()) != 1 {
		t.Fatalf("%v after %d requests, waits %v; want the 90 s wait refused before a 1 min deadline", err, len(fake.Requests()), sl.waits)
	}
}
