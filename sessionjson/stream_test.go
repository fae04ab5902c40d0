package sessionjson_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"kompact"
	"kompact/sessionjson"
)

// chunkReader hands out at most n bytes a read, to cut the body anywhere.
type chunkReader struct {
	b []byte
	n int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), r.n)], r.b)
	r.b = r.b[k:]
	return k, nil
}

// streamed reads data with a SessionStream of the given batch size.
func streamed(data []byte, chunk, batch int) (*kompact.Session, error) {
	s := sessionjson.NewSessionStream(&chunkReader{b: data, n: chunk}, batch)
	if _, err := s.Head(); err != nil {
		return nil, err
	}
	var msgs []kompact.Message
	for {
		b, err := s.Next()
		if err != nil {
			return nil, err
		}
		if len(b) == 0 {
			break
		}
		// The stream's buffers may be reused: keep JSON copies.
		for i := range b {
			m, err := kompact.DecodeMessage(b[i].AppendJSON(nil), i)
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, m)
		}
	}
	out := s.Final()
	out.Messages = msgs
	if s.Count() != len(msgs) {
		return nil, fmt.Errorf("count %d, messages %d", s.Count(), len(msgs))
	}
	return &out, nil
}

// sameStream checks that a SessionStream reads data as DecodeSessionUTF8
// does: the same session, the same error, or both invalid UTF-8 (at the
// same byte).
func sameStream(t *testing.T, data []byte) {
	t.Helper()
	want, valid, werr := sessionjson.DecodeSessionUTF8(bytes.Clone(data))
	for _, c := range [][2]int{{1 << 20, 1 << 20}, {7, 1}, {3, 40}} {
		got, gerr := streamed(data, c[0], c[1])
		var ue *sessionjson.UTF8Error
		switch {
		case !valid:
			if !errors.As(gerr, &ue) || int(ue.At) != badByte(data) {
				t.Fatalf("%q (chunk %d, batch %d): invalid UTF-8 at %d; stream: %v", data, c[0], c[1], badByte(data), gerr)
			}
		case werr != nil:
			if gerr == nil || gerr.Error() != werr.Error() {
				t.Fatalf("%q (chunk %d, batch %d): error %v; stream: %v", data, c[0], c[1], werr, gerr)
			}
		case gerr != nil:
			t.Fatalf("%q (chunk %d, batch %d): stream error %v", data, c[0], c[1], gerr)
		default:
			if a, b := string(want.AppendJSON(nil)), string(got.AppendJSON(nil)); a != b {
				t.Fatalf("%q (chunk %d, batch %d):\nwant %s\ngot  %s", data, c[0], c[1], a, b)
			}
		}
	}
}

// badByte is the first byte of b that is not valid UTF-8 (a range over
// the string yields it as a RuneError one byte wide).
func badByte(b []byte) int {
	for at, r := range string(b) {
		if r == utf8.RuneError && !strings.HasPrefix(string(b[at:]), "\uFFFD") {
			return at
		}
	}
	return -1
}

func streamSamples() [][]byte {
	docs := sessionSamples()
	docs = append(docs,
		[]byte("\xEF\xBB\xBF"+`{"id":"s","agent":"a","messages":[{"role":"user","content":"x"}]}`),
		[]byte(`{"messages":[{"role":"user","content":"x"}],"agent":"late","id":"i"}`),
		[]byte(`{"messages":[{"role":"user","content":"x"},{"role":"user","content":"\ud800"}]}`),
		[]byte(`{"messages":[{"role":"user","content":"x"},{"role":"user","content":"a`+"\xff"+`"}]}`),
		[]byte(`{"messages":[{"role":"user","content":"x"}], "colour": 1}`),
		[]byte(`{"messages":[{"role":"user","content":"x"}]} ]`),
		[]byte(`{"messages":[{"role":"user","content":"x"},{"role":"robot"}], "x": `+"\xfe"+`}`),
		[]byte(`{"messages":[{"id":"a","role":"user","content":"x"},{"role":"user"},{"id":"a","role":"user"},{"role":"nobody"}]}`),
		[]byte(`{"messages":[{"id":"a","role":"user","content":"x"},{"role":"user"},{"id":"a","role":"user"}]}`),
		[]byte(`{"messages":[{"role":"user","content":"x"}],"messages":[{"role":"user"}]}`),
		[]byte(`{"agent":{"x":[1,"]"]},"messages":[]}`),
		[]byte(`{"agent":"a","messages":[{"role":"user","content":[{"type":"data","data":{"k":"}{\"]"}}]}`),
		[]byte(`{"messages":[{"role":"user","content":"x"} , ]}`),
		[]byte(`{"messages":[{"role":"user","content":"x"}`),
		[]byte(`{"messages":[`),
		[]byte(``),
	)
	return docs
}

func TestSessionStream(t *testing.T) {
	for _, d := range streamSamples() {
		sameStream(t, d)
	}
	var b strings.Builder
	b.WriteString(`{"id":"long","messages":[`)
	for i := range 300 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id":"m%d","role":"user","content":[{"type":"text","text":"message \"%d\" é 🚀"}]}`, i, i)
	}
	b.WriteString("]}")
	sameStream(t, []byte(b.String()))
}

// FuzzSessionStream: the stream reads a session document as
// DecodeSessionUTF8 reads it whole, however the body is cut.
func FuzzSessionStream(f *testing.F) {
	for _, d := range streamSamples() {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameStream(t, data)
	})
}
