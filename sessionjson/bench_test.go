package sessionjson_test

import (
	"bytes"
	"io"
	"runtime"
	"testing"

	"kompact"
	"kompact/internal/testing/vectors"
	"kompact/kimi"
	"kompact/openai"
	"kompact/sessionjson"
)

// decodeAndPrepare is what kompact request does with a document before it
// writes the body: decode it, then select and build the request.
func decodeAndPrepare(b *testing.B, data []byte, opt kimi.Options) (*kompact.Session, *kimi.Plan) {
	s, err := sessionjson.DecodeSession(data)
	if err != nil {
		b.Fatal(err)
	}
	p, err := kimi.Prepare(s, opt)
	if err != nil || p.Noop {
		b.Fatal(err)
	}
	return s, p
}

// allocsPerMessage starts counting heap allocations; the function it returns
// reports them per message of a session of n messages, as allocs/msg.
func allocsPerMessage(b *testing.B, n int) func() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	start := m.Mallocs
	return func() {
		runtime.ReadMemStats(&m)
		b.ReportMetric(float64(m.Mallocs-start)/float64(b.N)/float64(n), "allocs/msg")
	}
}

// BenchmarkDecodeSession measures DecodeSession on the generated sessions
// ("fast") and, for comparison, the root's reference decoder
// (kompact.DecodeSession, "precise"). MB/s is
// document bytes per second; allocs/op is for the whole session.
func BenchmarkDecodeSession(b *testing.B) {
	for _, sz := range benchSizes() {
		data := vectors.GenSession(b, sz.n)
		for _, tc := range []struct {
			name string
			fn   func([]byte) (*kompact.Session, error)
		}{{"fast", sessionjson.DecodeSession}, {"precise", kompact.DecodeSession}} {
			if tc.name == "precise" && sz.n > 10000 {
				continue
			}
			b.Run(sz.name+"/"+tc.name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				defer allocsPerMessage(b, sz.n)()
				for b.Loop() {
					if _, err := tc.fn(data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkRequestPath is what `kompact request` does after reading the
// file: decode, prepare, write the body. MB/s is input document bytes.
func BenchmarkRequestPath(b *testing.B) {
	for _, sz := range benchSizes() {
		data := vectors.GenSession(b, sz.n)
		opt := kimi.Options{MaxPreserved: kompact.DefaultMaxPreserved, Prompt: kompact.Prompt{Body: "Summarize."}}
		b.Run(sz.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			defer allocsPerMessage(b, sz.n)()
			for b.Loop() {
				_, p := decodeAndPrepare(b, data, opt)
				rc, v := kompact.RequestConfig{Model: "m"}, sessionjson.VerifiedDocument(data)
				if err := openai.WriteRequestBody(io.Discard, rc, p.RequestMessages(), openai.WithVerified(v)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRequestBody measures openai.RequestBody alone: encoding the
// chat-completions request body (the bytes that go on the wire) of a
// session prepared once beforehand. MB/s is the session's text bytes. The
// whole path (decode, Prepare, body) is BenchmarkRequestPath.
//
// The session is gen_session's, decoded from its document. "document" is
// what kompact request and compact do: the document is Verified
// (openai.WithVerified), so the
// texts the decoder shares with it are copied unchecked. "checked" encodes
// the same messages without that (as for messages a store returns), so every
// text is checked for UTF-8 and escapes.
func BenchmarkRequestBody(b *testing.B) {
	opt := kimi.Options{MaxPreserved: kompact.DefaultMaxPreserved}
	for _, sz := range benchSizes() {
		data := vectors.GenSession(b, sz.n)
		s, p := decodeAndPrepare(b, data, opt)
		msgs, total := p.RequestMessages(), textBytes(s)
		for _, tc := range []struct {
			name string
			v    sessionjson.Verified
		}{{"document", sessionjson.VerifiedDocument(data)}, {"checked", sessionjson.Verified{}}} {
			b.Run(sz.name+"/"+tc.name, func(b *testing.B) {
				b.SetBytes(total)
				b.ReportAllocs()
				for b.Loop() {
					body, err := openai.RequestBody(kompact.RequestConfig{Model: "m"}, msgs, openai.WithVerified(tc.v))
					if err != nil || len(body) < int(total) {
						b.Fatal("short body", err)
					}
				}
			})
		}
	}
}

// benchSizes returns the session sizes to measure; -short leaves out 100k.
func benchSizes() []struct {
	name string
	n    int
} {
	sizes := []struct {
		name string
		n    int
	}{{"1k", 1000}, {"10k", 10000}, {"100k", 100000}}
	if testing.Short() {
		return sizes[:2]
	}
	return sizes
}

// textBytes counts the bytes of s's text parts.
func textBytes(s *kompact.Session) int64 {
	var n int64
	for i := range s.Messages {
		for j := range s.Messages[i].Content {
			n += int64(len(s.Messages[i].Content[j].Text))
		}
	}
	return n
}

// BenchmarkDecodeStoredRows decodes the 10k generated session's messages
// as a store reads them, one stored body (Message.AppendJSON) at a time:
// "stored" is DecodeStoredMessage from one reused buffer (PostgreSQL's
// pgx), "owned" DecodeOwnedMessage from a buffer of each row's own, as
// SQLite's driver hands them out, and "copied-owned" a copy of the reused
// buffer then DecodeOwnedMessage (what a store over pgx could do instead).
// MB/s is body bytes.
func BenchmarkDecodeStoredRows(b *testing.B) {
	s, err := sessionjson.DecodeSession(vectors.GenSession(b, 10_000))
	if err != nil {
		b.Fatal(err)
	}
	var bodies [][]byte
	var size int64
	for i := range s.Messages {
		bodies = append(bodies, s.Messages[i].AppendJSON(nil))
		size += int64(len(bodies[i]))
	}
	rows := func(b *testing.B, decode func(body []byte, i int) (kompact.Message, error)) {
		b.SetBytes(size)
		b.ReportAllocs()
		msgs := make([]kompact.Message, len(bodies))
		for b.Loop() {
			for i, body := range bodies {
				if msgs[i], err = decode(body, i); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	var reused []byte
	b.Run("stored", func(b *testing.B) {
		rows(b, func(body []byte, i int) (kompact.Message, error) {
			reused = append(reused[:0], body...) // the driver's copy into its buffer
			return sessionjson.DecodeStoredMessage(reused, i)
		})
	})
	b.Run("owned", func(b *testing.B) {
		rows(b, func(body []byte, i int) (kompact.Message, error) {
			return sessionjson.DecodeOwnedMessage(bytes.Clone(body), i) // the driver's new buffer
		})
	})
	b.Run("copied-owned", func(b *testing.B) {
		rows(b, func(body []byte, i int) (kompact.Message, error) {
			reused = append(reused[:0], body...)
			return sessionjson.DecodeOwnedMessage(bytes.Clone(reused), i)
		})
	})
}
