package openai_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"kompact"
	"kompact/internal/testing/fakellm"
	"kompact/openai"
	"kompact/sessionjson"
)

// probeDocument returns a document and messages whose one text lies in it
// as a decoder's shared text would, though it holds quotes: the checked
// encoder escapes them, the verified path copies the text as it is. No
// decoder shares such a text (one holding a quote stood escaped in its
// document); the probe only tells the two paths apart.
func probeDocument(word string) (sessionjson.Verified, []kompact.Message) {
	doc := []byte(`say "` + word + `"` + `"`) // the last byte stands for the closing quote
	text := unsafe.String(&doc[0], len(doc)-1)
	msgs := []kompact.Message{{ID: "u", Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(text)}}}
	return sessionjson.VerifiedDocument(doc), msgs
}

// requestBody is the body the client sends for msgs, encoded with opts.
func requestBody(t *testing.T, cfg kompact.RequestConfig, msgs []kompact.Message, opts ...openai.BodyOption) string {
	t.Helper()
	b, err := openai.RequestBody(cfg, msgs, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestClientVerifiedFromContext: the document a run's messages were decoded
// from travels with the run, in its context (openai.ContextWithVerified),
// not in the shared Client. The bodies of a decoded session are the same
// bytes with it as without, and the encoder takes the verified path: the
// probe's text is copied unchecked only when the context carries its
// document.
func TestClientVerifiedFromContext(t *testing.T) {
	t.Parallel()
	srv, c, _ := newFakeClient(t)
	cfg := fakeConfig(srv)
	doc := []byte(smallSessionJSON)
	s, err := sessionjson.DecodeSession(doc)
	if err != nil {
		t.Fatal(err)
	}
	if !sessionjson.VerifiedDocument(doc).Holds(s.Messages[1].Content[0].Text) {
		t.Fatal("the decoded session shares no text with its document")
	}
	probeV, probe := probeDocument("hi")
	ctx := context.Background()
	for _, run := range []struct {
		ctx  context.Context
		msgs []kompact.Message
	}{
		{ctx, s.Messages},
		{openai.ContextWithVerified(ctx, sessionjson.VerifiedDocument(doc)), s.Messages},
		{ctx, probe},
		{openai.ContextWithVerified(ctx, probeV), probe},
	} {
		if _, err := c.Complete(run.ctx, cfg, run.msgs, nil); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	plain := requestBody(t, cfg, s.Messages)
	if got := string(reqs[0].Body); got != plain {
		t.Errorf("body without the document:\n%s\nwant\n%s", got, plain)
	}
	if got := string(reqs[1].Body); got != plain {
		t.Errorf("body with the document verified differs:\n%s\nwant\n%s", got, plain)
	}
	if got, want := string(reqs[2].Body), requestBody(t, cfg, probe); got != want || !strings.Contains(got, `"say \"hi\""`) {
		t.Errorf("the probe without its document: %s, want it checked: %s", got, want)
	}
	if got, want := string(reqs[3].Body), requestBody(t, cfg, probe, openai.WithVerified(probeV)); got != want || !strings.Contains(got, `"say "hi""`) {
		t.Errorf("the probe with its document: %s, want it copied unchecked (the context's document was not used): %s", got, want)
	}
}

// TestClientVerifiedConcurrentRuns: one Client serves two runs at once, each
// with its own document in its context; every body is its own run's, its
// text copied unchecked by its own document (run it with -race: nothing is
// shared but the Client, which no run changes).
func TestClientVerifiedConcurrentRuns(t *testing.T) {
	t.Parallel()
	srv, c, _ := newFakeClient(t)
	srv.SetDefault(fakellm.Answer(fakellm.Text("S")))
	cfg := fakeConfig(srv)
	const perRun = 8
	want := map[string]int{}
	var wg sync.WaitGroup
	for _, word := range []string{"one", "two"} {
		v, msgs := probeDocument(word)
		body := requestBody(t, cfg, msgs, openai.WithVerified(v))
		if body == requestBody(t, cfg, msgs) {
			t.Fatal("the probe's verified body is its checked body")
		}
		want[body] = perRun
		ctx := openai.ContextWithVerified(context.Background(), v)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range perRun {
				if _, err := c.Complete(ctx, cfg, msgs, nil); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	reqs := srv.Requests()
	if len(reqs) != 2*perRun {
		t.Fatalf("%d requests, want %d", len(reqs), 2*perRun)
	}
	for _, r := range reqs {
		if want[string(r.Body)] == 0 {
			t.Errorf("body of no run (or one run's too many), want one run's own: %s", r.Body)
		}
		want[string(r.Body)]--
	}
}
