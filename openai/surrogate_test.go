package openai_test

import (
	"strings"
	"testing"

	"kompact/internal/testing/fakellm"
)

// TestAnswerLoneSurrogates (issue 21 §5): the one rule for a lone
// surrogate escape in an LLM's answer, which the CLI and the server share
// (both read answers with this client): it becomes U+FFFD, the
// replacement character, and the rest of the answer is kept; an escaped
// pair is the character it encodes. A client's text is refused instead
// (jsontext.LoneSurrogate); an answer is not the client's to fix.
func TestAnswerLoneSurrogates(t *testing.T) {
	t.Parallel()
	chunk := func(content string) string {
		return `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"` + content + `"},"finish_reason":null}]}` + "\n\n"
	}
	stop := `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n"
	for _, tc := range []struct {
		name  string
		reply fakellm.Reply
		want  string
	}{
		{"streamed", sseReply(chunk(`a\ud800b`) + chunk(` \udc00`) + chunk(` \ud83d\ude00`) + stop), "a\uFFFDb \uFFFD 😀"},
		{"not streamed", fakellm.Reply{RawBody: `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"a\ud800b \ud83d\ude00"},"finish_reason":"stop"}]}`}.
			WithHeader("Content-Type", "application/json"), "a\uFFFDb 😀"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, c, _ := newFakeClient(t)
			srv.Enqueue(tc.reply)
			a, err := completeSmall(t, c, srv, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := answerText(a); got != tc.want || strings.Contains(got, `\u`) {
				t.Errorf("answer %q, want %q", got, tc.want)
			}
		})
	}
}
