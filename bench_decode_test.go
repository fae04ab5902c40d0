package kompact_test

import (
	"io"
	"runtime"
	"testing"

	"kompact"
	"kompact/internal/vectors"
	"kompact/openai"
)

// decodeAndPrepare is what kompact request does with a document before it
// writes the body: decode it, then select and build the request.
func decodeAndPrepare(b *testing.B, data []byte, opt kompact.Options) (*kompact.Session, *kompact.Plan) {
	s, err := kompact.DecodeSession(data)
	if err != nil {
		b.Fatal(err)
	}
	p, err := kompact.Prepare(s, opt)
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
// (fast pass) and, for comparison, the precise decoder alone. MB/s is
// document bytes per second; allocs/op is for the whole session.
func BenchmarkDecodeSession(b *testing.B) {
	for _, sz := range benchSizes() {
		data := vectors.GenSession(b, sz.n)
		for _, tc := range []struct {
			name string
			fn   func([]byte) (*kompact.Session, error)
		}{{"fast", kompact.DecodeSession}, {"precise", kompact.DecodeSessionPrecisely}} {
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
		opt := kompact.Options{MaxPreserved: kompact.DefaultMaxPreserved, Prompt: kompact.Prompt{Body: "Summarize."}}
		b.Run(sz.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			defer allocsPerMessage(b, sz.n)()
			for b.Loop() {
				_, p := decodeAndPrepare(b, data, opt)
				rc := kompact.RequestConfig{Model: "m", Verified: kompact.VerifiedDocument(data)}
				if err := openai.WriteRequestBody(io.Discard, rc, p.RequestMessages()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
