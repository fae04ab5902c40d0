package openai

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"kompact"
	"kompact/sessionjson"
)

// TestStreamedBodyIsRequestBody: the length is unknown until counted, and
// then RequestBody's, as are the bytes read from each opening, for bodies from empty to several
// times the encoder's buffer.
func TestStreamedBodyIsRequestBody(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é\"数据\n<tag> ", 3000)
	cases := map[string][]kompact.Message{
		"no messages": nil,
		"one":         {{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("hi")}}},
		"many parts": {{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart("sys")}},
			{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(long), kompact.ThinkPart("t"), kompact.TextPart(long), kompact.TextPart(long)}}},
	}
	fields := map[string]any{"temperature": 0.3, "tools": []int{1}, "max_tokens": 10}
	for name, msgs := range cases {
		want, err := RequestBody(kompact.RequestConfig{Model: "m", Fields: fields}, msgs)
		if err != nil {
			t.Fatal(err)
		}
		b, err := newStreamedBody(kompact.RequestConfig{Model: "m", Fields: fields}, msgs, sessionjson.Verified{})
		if err != nil {
			t.Fatal(err)
		}
		if b.size != -1 {
			t.Errorf("%s: size %d before counting, want -1", name, b.size)
		}
		if !b.count() || b.size != int64(len(want)) || b.count() {
			t.Errorf("%s: counted %d bytes, RequestBody has %d", name, b.size, len(want))
		}
		for i := range 2 {
			rc := b.open(context.Background())
			got, err := io.ReadAll(rc)
			_ = rc.Close()
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s, opening %d: %d bytes (%v), want RequestBody's %d", name, i+1, len(got), err, len(want))
			}
		}
	}
	if _, err := newStreamedBody(kompact.RequestConfig{Model: "m", Fields: map[string]any{"x": func() {}}}, nil, sessionjson.Verified{}); kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Errorf("a field that is not JSON: %v", err)
	}
}

// TestStreamedBodyStopsWithContext: a body opened and never taken (as
// when a request fails before net/http takes its body) starts no encoder
// and is released when the attempt's context is done (wait returns then);
// a body being read, or written into a connection that stopped reading,
// stops its encoder then too; reading or writing afterwards gives the
// context's error. (Not parallel: it counts the package's encoders.)
func TestStreamedBodyStopsWithContext(t *testing.T) {
	big := kompact.Message{Role: kompact.RoleUser}
	for range 200 {
		big.Content = append(big.Content, kompact.TextPart(strings.Repeat("x", 64<<10)))
	}
	b, err := newStreamedBody(kompact.RequestConfig{Model: "m"}, []kompact.Message{big}, sessionjson.Verified{})
	if err != nil {
		t.Fatal(err)
	}
	for _, take := range []string{"nothing", "Read", "WriteTo"} {
		ctx, cancel := context.WithCancel(context.Background())
		rc := b.open(ctx)
		wrote := make(chan error, 1)
		switch take {
		case "Read":
			if _, err := rc.Read(make([]byte, 1)); err != nil {
				t.Fatal(err)
			}
		case "WriteTo":
			stuck := &stuckWriter{first: make(chan struct{})}
			go func() {
				_, err := rc.(io.WriterTo).WriteTo(stuck)
				wrote <- err
			}()
			<-stuck.first
		}
		want := 1
		if take == "nothing" {
			want = 0
		}
		if n := WaitEncoders(want); n != want {
			t.Fatalf("%s: %d encoders for the open body, want %d", take, n, want)
		}
		cancel()
		if take == "WriteTo" {
			if err := <-wrote; !errors.Is(err, context.Canceled) {
				t.Errorf("WriteTo ended with %v, want the context's error", err)
			}
		}
		b.wait()
		if n := Encoders(); n != 0 {
			t.Fatalf("%s: %d encoders after the context was cancelled and wait returned", take, n)
		}
		if _, err := rc.Read(make([]byte, 1)); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: read after cancellation: %v", take, err)
		}
		_ = rc.Close()
	}
}

// stuckWriter takes writes slowly, as a connection whose peer stopped
// reading: the first is signalled, each then waits a little.
type stuckWriter struct {
	first chan struct{}
	once  sync.Once
}

func (w *stuckWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.first) })
	time.Sleep(time.Millisecond)
	return len(p), nil
}

// TestStreamedBodyWriteTo: writing the body into a connection (what
// net/http does over HTTP/1.1) gives RequestBody's bytes, runs no encoder
// goroutine of its own beyond the write, and a body closed before it is
// taken gives nothing.
func TestStreamedBodyWriteTo(t *testing.T) {
	msgs := []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(strings.Repeat("é\"数据\n ", 50000))}}}
	want, err := RequestBody(kompact.RequestConfig{Model: "m"}, msgs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := newStreamedBody(kompact.RequestConfig{Model: "m"}, msgs, sessionjson.Verified{})
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	rc := b.open(context.Background())
	n, err := io.Copy(&got, rc)
	if err != nil || n != int64(len(want)) || !bytes.Equal(got.Bytes(), want) {
		t.Errorf("io.Copy of the body: %d bytes (%v), want RequestBody's %d", n, err, len(want))
	}
	_ = rc.Close()
	closed := b.open(context.Background())
	_ = closed.Close()
	if n, err := io.Copy(io.Discard, closed); n != 0 || err == nil {
		t.Errorf("a body closed before it was taken gave %d bytes (%v)", n, err)
	}
	b.wait()
}

// Encoders counts the goroutines running WriteRequestBody (for this
// package's tests, internal and external).
func Encoders() int {
	var b strings.Builder
	_ = pprof.Lookup("goroutine").WriteTo(&b, 2)
	return strings.Count(b.String(), "kompact/openai.WriteRequestBody(")
}

// WaitEncoders polls Encoders, up to 10 s, until it returns want; it
// returns the last count.
func WaitEncoders(want int) int {
	n := Encoders()
	for deadline := time.Now().Add(10 * time.Second); n != want && time.Now().Before(deadline); n = Encoders() {
		time.Sleep(10 * time.Millisecond)
	}
	return n
}

// TestBodyEncoderStopsAtWriteError: once a write fails, the encoder stops
// reading the messages (it used to encode the rest of the body, writing
// nothing, while the attempt waited for it). Two forms: many messages, and
// one message whose long content list two goroutines encode in chunks.
func TestBodyEncoderStopsAtWriteError(t *testing.T) {
	text := strings.Repeat("words in a long session ", 1000)
	many := make([]kompact.Message, 2000)
	for i := range many {
		many[i] = kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(text)}}
	}
	long := kompact.Message{Role: kompact.RoleUser}
	for range 2000 {
		long.Content = append(long.Content, kompact.TextPart(text))
	}
	for name, msgs := range map[string][]kompact.Message{"many messages": many, "one long content list": {long}} {
		w := &failingWriter{}
		e := wireEncoder{dst: make([]byte, 0, spillSize+spillSize/4), w: w}
		e.body("m", msgs, nil)
		if e.err == nil || w.calls != 1 {
			t.Errorf("%s: error %v after %d writes, want the first write's error", name, e.err, w.calls)
		}
		// 2000 messages, or 1 message and 2000 parts, when it runs to the end.
		if e.encoded > 200 {
			t.Errorf("%s: %d messages and parts encoded after the first write failed", name, e.encoded)
		}
	}
}

// failingWriter fails every write.
type failingWriter struct{ calls int }

func (w *failingWriter) Write([]byte) (int, error) {
	w.calls++
	return 0, errors.New("disk full")
}
