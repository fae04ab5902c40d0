package openai_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"kompact"
	"kompact/openai"
)

const (
	evRole  = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n"
	evText  = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello\"},\"finish_reason\":null}]}\n\n"
	evStop  = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":null}\n\n"
	evUsage = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{\"prompt_tokens\":120,\"completion_tokens\":7,\"total_tokens\":127,\"prompt_tokens_details\":{\"cached_tokens\":100}}}\n\n"
	evDone  = "data: [DONE]\n\n"
	evPing  = ": keep-alive\n\n"
)

var wantUsage = kompact.Usage{InputOther: 20, Output: 7, InputCacheRead: 100}

// relayAll relays src, failing the test on an error.
func relayAll(t *testing.T, src io.Reader, strip bool) (string, *kompact.Usage) {
	t.Helper()
	var out bytes.Buffer
	u, err := openai.RelayStream(&out, nil, src, strip, 0)
	if err != nil {
		t.Fatalf("RelayStream: %v", err)
	}
	return out.String(), u
}

// splitReader hands out its text in the pieces given.
type splitReader struct{ pieces []string }

func (s *splitReader) Read(p []byte) (int, error) {
	if len(s.pieces) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.pieces[0])
	if s.pieces[0] = s.pieces[0][n:]; s.pieces[0] == "" {
		s.pieces = s.pieces[1:]
	}
	return n, nil
}

// TestRelayStream: byte for byte with strip off, the usage chunk alone left
// out with it on, at every read boundary and with every line end.
func TestRelayStream(t *testing.T) {
	stream := evRole + evPing + evText + evStop + evUsage + evDone
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		in := strings.ReplaceAll(stream, "\n", eol)
		stripped := strings.ReplaceAll(evRole+evPing+evText+evStop+evDone, "\n", eol)
		for k := 0; k <= len(in); k++ {
			for _, strip := range []bool{false, true} {
				got, u := relayAll(t, &splitReader{pieces: []string{in[:k], in[k:]}}, strip)
				want := in
				if strip {
					want = stripped
				}
				if got != want || u == nil || *u != wantUsage {
					t.Fatalf("eol %q, split at %d, strip %v:\n got %q (usage %v)\nwant %q", eol, k, strip, got, u, want)
				}
			}
		}
		got, u := relayAll(t, iotest.OneByteReader(strings.NewReader(in)), true)
		if got != stripped || u == nil || *u != wantUsage {
			t.Fatalf("eol %q, one byte at a time: %q %v", eol, got, u)
		}
	}
}

// TestRelayStreamForms: streams without usage, with Moonshot's choice-level
// usage, with multi-line data and other fields, and unterminated ends.
func TestRelayStreamForms(t *testing.T) {
	moonshot := "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\",\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":5,\"cached_tokens\":10}}]}\n\n"
	for _, tc := range []struct {
		name, in, want string
		usage          *kompact.Usage
	}{
		{"no usage", evRole + evText + evStop + evDone, evRole + evText + evStop + evDone, nil},
		{"choice-level usage is read and kept", evText + moonshot + evDone, evText + moonshot + evDone, &kompact.Usage{InputOther: 40, Output: 5, InputCacheRead: 10}},
		{"zero usage counts as none, and is stripped", "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":0,\"completion_tokens\":0}}\n\n", "", nil},
		{"multi-line data and fields", "event: message\nid: 7\ndata: {\"choices\":[],\ndata: \"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}\n\n" + evDone, evDone,
			&kompact.Usage{InputOther: 3, Output: 1}},
		{"an unterminated last event is passed on", evText + "data: [DONE]", evText + "data: [DONE]", nil},
		{"an unterminated usage chunk is read, and kept", evText + strings.TrimSuffix(evUsage, "\n\n"), evText + strings.TrimSuffix(evUsage, "\n\n"), &wantUsage},
		{"not JSON", "data: {oops\n\n" + evDone, "data: {oops\n\n" + evDone, nil},
		{"empty", "", "", nil},
	} {
		got, u := relayAll(t, strings.NewReader(tc.in), true)
		if got != tc.want || (u == nil) != (tc.usage == nil) || (u != nil && *u != *tc.usage) {
			t.Errorf("%s: got %q usage %v, want %q usage %v", tc.name, got, u, tc.want, tc.usage)
		}
	}
}

// TestRelayStreamDoesNotWait: each event reaches the client, flushed,
// while the upstream has not sent the next one.
func TestRelayStreamDoesNotWait(t *testing.T) {
	pr, pw := io.Pipe()
	got := make(chan string, 10)
	w := writerFunc(func(p []byte) (int, error) { got <- string(p); return len(p), nil })
	flushes := 0
	done := make(chan error, 1)
	go func() {
		_, err := openai.RelayStream(w, func() { flushes++ }, pr, true, 0)
		done <- err
	}()
	for _, ev := range []string{evRole, evPing, evText} {
		if _, err := pw.Write([]byte(ev)); err != nil {
			t.Fatal(err)
		}
		select {
		case s := <-got:
			if s != ev {
				t.Fatalf("relayed %q, want %q", s, ev)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("event %q not relayed before the next one", ev)
		}
	}
	pw.Close()
	if err := <-done; err != nil || flushes != 3 {
		t.Fatalf("err %v, %d flushes", err, flushes)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestRelayStreamSlowWriter: a client that reads slowly gets every byte.
func TestRelayStreamSlowWriter(t *testing.T) {
	var in strings.Builder
	for range 200 {
		in.WriteString(evText)
	}
	in.WriteString(evUsage + evDone)
	var out bytes.Buffer
	slow := writerFunc(func(p []byte) (int, error) { time.Sleep(200 * time.Microsecond); return out.Write(p) })
	u, err := openai.RelayStream(slow, nil, iotest.HalfReader(strings.NewReader(in.String())), false, 0)
	if err != nil || out.String() != in.String() || u == nil || *u != wantUsage {
		t.Fatalf("err %v, usage %v, %d of %d bytes", err, u, out.Len(), in.Len())
	}
}

// TestRelayStreamFailures: an over-long event, a broken upstream and a
// client gone away.
func TestRelayStreamFailures(t *testing.T) {
	long := "data: " + strings.Repeat("x", 500) + "\n\n"
	for _, in := range []string{evText + long, evText + long[:450], evText + long + evDone} {
		for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in))} {
			var out bytes.Buffer
			_, err := openai.RelayStream(&out, nil, r, false, 400)
			if kompact.ErrorCodeOf(err) != kompact.ELLM || !strings.Contains(err.Error(), "longer than 400 bytes") || out.String() != evText {
				t.Errorf("over-long event: %v, passed on %q", err, out.String())
			}
		}
	}
	broken := io.MultiReader(strings.NewReader(evText), iotest.ErrReader(errors.New("connection reset")))
	var out bytes.Buffer
	if _, err := openai.RelayStream(&out, nil, broken, false, 0); kompact.ErrorCodeOf(err) != kompact.ELLM || out.String() != evText {
		t.Errorf("broken upstream: %v, %q", err, out.String())
	}
	gone := errors.New("client gone")
	w := writerFunc(func([]byte) (int, error) { return 0, gone })
	if _, err := openai.RelayStream(w, nil, strings.NewReader(evText+evDone), false, 0); !errors.Is(err, gone) {
		t.Errorf("client gone: %v", err)
	}
}

func TestCompletionUsage(t *testing.T) {
	for _, tc := range []struct {
		body string
		want *kompact.Usage
	}{
		{`{"object":"chat.completion","choices":[{"message":{"content":"hi"}}],"usage":{"prompt_tokens":9,"completion_tokens":2,"cached_tokens":4}}`,
			&kompact.Usage{InputOther: 5, Output: 2, InputCacheRead: 4}},
		{`{"choices":[{"message":{"content":"hi"},"usage":{"prompt_tokens":9,"completion_tokens":2}}]}`, &kompact.Usage{InputOther: 9, Output: 2}},
		{`{"choices":[],"usage":null}`, nil},
		{`not json`, nil},
		{`{"error":{"message":"bad"}}`, nil},
	} {
		got := openai.CompletionUsage([]byte(tc.body))
		if (got == nil) != (tc.want == nil) || (got != nil && *got != *tc.want) {
			t.Errorf("%s: %v, want %v", tc.body, got, tc.want)
		}
	}
}
