package kimi_test

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"kompact"
	"kompact/fidelity"
	"kompact/internal/testing/cputime"
	"kompact/internal/testing/testkimi"
	"kompact/internal/testing/vectors"
	"kompact/kimi"
	"kompact/openai"
)

// benchSession builds a coding session of n messages with about 2 KB of text
// each: user questions, assistant answers with thinking and tool calls, tool
// results with text and structured payloads, and some media. It returns the
// session and its total text bytes.
func benchSession(n int) (*kompact.Session, int64) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"func", "return", "err", "nil", "the", "session", "compaction", "message", "\"quoted\"",
		"path/to/file.go", "x := 42", "if", "for", "range", "{", "}", "\n", "\t", "résumé", "数据", "→", "<tag>", "&&"}
	text := func(size int) string {
		var b strings.Builder
		for b.Len() < size {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	s := &kompact.Session{ID: "bench", Messages: make([]kompact.Message, 0, n)}
	var total int64
	id := "img"
	for i := 0; len(s.Messages) < n; i++ {
		var m kompact.Message
		switch i % 4 {
		case 0:
			m = kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(text(1500)), kompact.TextPart(text(500))}}
			if i%40 == 0 {
				m.Content = append(m.Content, kompact.Part{Type: kompact.PartImage, URL: "https://example.com/" + strconv.Itoa(i) + ".png", MediaID: &id})
			}
		case 1:
			args := `{"path":"file` + strconv.Itoa(i) + `.go"}`
			m = kompact.Message{Role: kompact.RoleAssistant,
				Content:   []kompact.Part{kompact.ThinkPart(text(300)), kompact.TextPart(text(1700))},
				ToolCalls: []kompact.ToolCall{{ID: "c" + strconv.Itoa(i), Name: "ReadFile", Arguments: &args}}}
		case 2:
			m = kompact.Message{Role: kompact.RoleTool, ToolCallID: "c" + strconv.Itoa(i-1), HasToolCallID: true,
				Content: []kompact.Part{kompact.TextPart(text(2000)), {Type: kompact.PartData, Data: []byte(`{"asset_ref":"A-` + strconv.Itoa(i) + `"}`)}}}
		case 3:
			m = kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart(text(2000))}}
		}
		for _, p := range m.Content {
			if p.Type == kompact.PartText {
				total += int64(len(p.Text))
			}
		}
		s.Messages = append(s.Messages, m)
	}
	return s, total
}

var sizes = []struct {
	name string
	n    int
}{{"1k", 1000}, {"10k", 10000}, {"100k", 100000}}

// benchSizes returns the session sizes to measure; -short leaves out 100k.
func benchSizes() []struct {
	name string
	n    int
} {
	if testing.Short() {
		return sizes[:2]
	}
	return sizes
}

// benchEachSession runs a sub-benchmark per session size: setup gets the
// session and its text bytes and returns the operation to time. MB/s is the session's text
// bytes.
//
// After the sizes, "gen10k" is the generated session of docs/benchmarks.md
// (../shared/tools/gen-session, the session the issues' figures use): 10k
// messages of prose with few artifacts, where benchSession has a path in
// every few words.
func benchEachSession(b *testing.B, setup func(b *testing.B, s *kompact.Session, total int64) func(b *testing.B)) {
	for _, sz := range benchSizes() {
		s, total := benchSession(sz.n)
		benchOne(b, sz.name, s, total, setup)
	}
	s, err := kompact.DecodeSession(vectors.GenSession(b, 10_000))
	if err != nil {
		b.Fatal(err)
	}
	var total int64
	for i := range s.Messages {
		for _, p := range s.Messages[i].Content {
			total += int64(len(p.Text))
		}
	}
	benchOne(b, "gen10k", s, total, setup)
}

// benchOne runs the sub-benchmark name on session s.
func benchOne(b *testing.B, name string, s *kompact.Session, total int64, setup func(b *testing.B, s *kompact.Session, total int64) func(b *testing.B)) {
	op := setup(b, s, total)
	b.Run(name, func(b *testing.B) {
		b.SetBytes(total)
		b.ReportAllocs()
		cpu := cputime.Process()
		for b.Loop() {
			op(b)
		}
		b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/op")
	})
}

// BenchmarkPrepare measures selecting the range and building the synthetic
// request message. MB/s is input text per second.
func BenchmarkPrepare(b *testing.B) {
	opt := kimi.Options{MaxPreserved: kompact.DefaultMaxPreserved}
	benchEachSession(b, func(b *testing.B, s *kompact.Session, total int64) func(*testing.B) {
		return func(b *testing.B) {
			p, err := kimi.Prepare(s, opt)
			if err != nil || p.Noop {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRequestBodySynthetic is sessionjson's BenchmarkRequestBody
// ("checked") on the in-process session of benchSession, whose texts hold
// many characters to escape.
func BenchmarkRequestBodySynthetic(b *testing.B) {
	opt := kimi.Options{MaxPreserved: kompact.DefaultMaxPreserved}
	benchEachSession(b, func(b *testing.B, s *kompact.Session, total int64) func(*testing.B) {
		p, err := kimi.Prepare(s, opt)
		if err != nil || p.Noop {
			b.Fatal(err)
		}
		msgs := p.RequestMessages()
		return func(b *testing.B) {
			body, err := openai.RequestBody(kompact.RequestConfig{Model: "m"}, msgs)
			if err != nil || len(body) < int(total) {
				b.Fatal("short body", err)
			}
		}
	})
}

// BenchmarkApply measures building the compacted session from an answer.
// The whole session's token estimate (Result.TokensBefore) is made once per
// plan, and Job.Run makes it while the LLM works: after the first iteration
// this is Apply's own work.
func BenchmarkApply(b *testing.B) {
	a := testkimi.Answer(strings.Repeat("<current_focus>x</current_focus>\n", 100))
	benchEachSession(b, func(b *testing.B, s *kompact.Session, total int64) func(*testing.B) {
		p, err := kimi.Prepare(s, kimi.Options{MaxPreserved: kompact.DefaultMaxPreserved})
		if err != nil {
			b.Fatal(err)
		}
		return func(b *testing.B) {
			if _, err := p.Apply(a); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkArtifacts measures listing the artifacts of the range a
// compaction replaces and measuring a summary against them (what every
// compaction adds for its fidelity report); compare it with
// BenchmarkCompactionCPU, the compaction's own work without the LLM.
func BenchmarkArtifacts(b *testing.B) {
	summary := strings.Repeat("<current_focus>path/to/file.go x := 42</current_focus>\n", 100)
	benchEachSession(b, func(b *testing.B, s *kompact.Session, total int64) func(*testing.B) {
		p, err := kimi.Prepare(s, kimi.Options{MaxPreserved: kompact.DefaultMaxPreserved})
		if err != nil {
			b.Fatal(err)
		}
		return func(b *testing.B) {
			if f := fidelity.MeasureFidelity(p.Artifacts(), summary); f.Artifacts == 0 {
				b.Fatal("no artifacts")
			}
		}
	})
}

// BenchmarkCompactionCPU measures a compaction's work without the LLM:
// Prepare, then Apply with a canned answer, on a fresh plan each time (so
// that the session's token estimate is made each time too), and the
// request body the LLM client would send.
func BenchmarkCompactionCPU(b *testing.B) {
	a := testkimi.Answer(strings.Repeat("<current_focus>x</current_focus>\n", 100))
	benchEachSession(b, func(b *testing.B, s *kompact.Session, total int64) func(*testing.B) {
		return func(b *testing.B) {
			p, err := kimi.Prepare(s, kimi.Options{MaxPreserved: kompact.DefaultMaxPreserved})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := openai.RequestBody(kompact.RequestConfig{Model: "m"}, p.RequestMessages()); err != nil {
				b.Fatal(err)
			}
			if _, err := p.Apply(a); err != nil {
				b.Fatal(err)
			}
		}
	})
}
