package artifacts

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"kompact/internal/testing/cputime"
)

// Scan and ScanJSON scan one text or JSON value with a scanner of their
// own.
func Scan(text string, src Source, emit Emit) { NewScanner(emit).Scan(text, src) }

func ScanJSON(data []byte, emit Emit) { NewScanner(emit).ScanJSON(data) }

// scanBoth returns what the scanner and the reference find in text.
func scanBoth(text string, src Source) (got, want []string) {
	Scan(text, src, func(c Class, t string) { got = append(got, c.String()+" "+t) })
	refScan(text, src, func(c Class, t string) { want = append(want, c.String()+" "+t) })
	return got, want
}

// pieces are the bits generated texts are made of: every rule's triggers
// and near misses, and plain prose.
var pieces = []string{
	"the", "session", "and", "of", "x", "a", "é", "数据", "→", "<tag>", "&&", "x := 42", "\"quoted\"", "{", "}",
	"path/to/file.go", "file.go:12:5:", "main.go:7:", "./run", "../up", "~/home", "/etc/hosts", "/compact", "a/b/c",
	"cmd/", "client/server", "go.mod", ".env", ".Env", "a.b", "v1.2.3", "e.g.", "archive.tar.gz", "foo_test.go",
	"x.y", "--out=build/app.bin", "a//b", "https://example.com/a_b?x=1.", "(http://x.org/p)", "ftp://", "mailto:x",
	"[t](https://go.dev/doc)", "HTTPS://A.B/(c))", "ParseConfig", "parseConfig", "HTTPServer", "max_recall",
	"MAX_RECALL", "os.Exit", "Plan.Apply()", "run()", "self.max_recall", "Hello", "JSON", "_x_", "iOS", "kompact.Plan",
	"`", "`go test ./...`", "`Job.Run`", "`x`", "``", "```", "```bash", "```sh {x}", "```console", "```go", "~~~",
	"$ ", "$", "# ", "#", "- ", "* ", "+ ", "1. ", "2) ", "- [ ] ", "[ ]", "TODO", "TODO(ann):", "FIXME:", "TODOs",
	"xTODO", "Next step:", "next steps:", "NEXT:", "next:", "panic:", "--- FAIL:", "FAIL", "FAIL:", "FAILED", "(0.00s)",
	"ValueError:", "java.io.IOException:", "error:", "Error:", "ERROR", "fatal", "fatal:", "FATAL:", "error[E0308]:",
	"warning:", "exit status 2", "exit code -1.", "exit", "xit ", "status", "code", "exited", "'s", "it's", "(go.mod)",
	"Rust's", "*bold*", "a.m.", "I/O", "24/7", "()", "(", ")", ":", ".", "_", "/", "a=b=c/d.go", strings.Repeat("long", 60),
	strings.Repeat("é", 120), "\x80", "\xff/x.go",
	"fix", "(exit", "a/exit", "exit\tstatus", "`x exit status 1 `", "`exit `", "`" + strings.Repeat("a ", 60) + "exit status 3 `",
}

var seps = []string{" ", " ", " ", " ", "  ", "\t", "\n", "\n", "\r\n", "\n\n", " \v", "\f"}

// genText returns a random text of about size bytes from pieces.
func genText(r *rand.Rand, size int) string {
	var b strings.Builder
	for b.Len() < size {
		b.WriteString(pieces[r.IntN(len(pieces))])
		b.WriteString(seps[r.IntN(len(seps))])
	}
	return b.String()
}

// TestScanMatchesReference compares the scanner with the reference on many
// generated texts, in both sources.
func TestScanMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 1))
	n := 4000
	if testing.Short() {
		n = 500
	}
	for i := range n {
		text := genText(r, 1+r.IntN(600))
		for _, src := range []Source{Prose, Output} {
			if got, want := scanBoth(text, src); !slices.Equal(got, want) {
				t.Fatalf("text %d (%q), source %d:\n got %q\nwant %q", i, text, src, got, want)
			}
		}
	}
}

// FuzzScanMatchesReference compares the scanner with the reference on any
// text.
func FuzzScanMatchesReference(f *testing.F) {
	r := rand.New(rand.NewPCG(20, 2))
	for range 20 {
		f.Add(genText(r, 200), false)
	}
	f.Add("```bash\n$ go test ./...\n```\nTODO: x\nexit status 1", true)
	f.Fuzz(func(t *testing.T, text string, output bool) {
		src := Prose
		if output {
			src = Output
		}
		if got, want := scanBoth(text, src); !slices.Equal(got, want) {
			t.Fatalf("%q:\n got %q\nwant %q", text, got, want)
		}
	})
}

// BenchmarkScan measures the scanner alone on generated text, on the text
// of the root's compaction benchmark (benchSession's words) and on
// English-like sentences (capitalised words, a path now and then). MB/s is
// the text scanned.
func BenchmarkScan(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	bench := []string{"func", "return", "err", "nil", "the", "session", "compaction", "message", "\"quoted\"",
		"path/to/file.go", "x := 42", "if", "for", "range", "{", "}", "\n", "\t", "résumé", "数据", "→", "<tag>", "&&"}
	var sess strings.Builder
	for sess.Len() < 1<<20 {
		sess.WriteString(bench[r.IntN(len(bench))])
		sess.WriteByte(' ')
	}
	english := []string{"The", "summary", "keeps", "the", "task.", "Then", "I", "ran", "it", "again,", "and", "It", "failed",
		"on", "Linux", "This", "is", "what", "we", "want:", "a", "short", "report", "of", "each", "change.", "We", "read",
		"path/to/file.go", "first.", "\n"}
	var prose strings.Builder
	for prose.Len() < 1<<20 {
		prose.WriteString(english[r.IntN(len(english))])
		prose.WriteByte(' ')
	}
	texts := []struct {
		name string
		text string
	}{{"session", sess.String()}, {"mixed", genText(r, 1<<20)}, {"english", prose.String()}}
	for _, tx := range texts {
		for _, src := range []Source{Prose, Output} {
			name := tx.name + "/prose"
			if src == Output {
				name = tx.name + "/output"
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(tx.text)))
				b.ReportAllocs()
				n := 0
				cpu := cputime.Process()
				for b.Loop() {
					Scan(tx.text, src, func(Class, string) { n++ })
				}
				b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/op")
				if n == 0 {
					b.Fatal("no artifacts")
				}
			})
		}
	}
}

// scanJSONBoth returns what ScanJSON and the reference find in data,
// sorted: both visit an object's keys in no particular order.
func scanJSONBoth(data []byte) (got, want []string) {
	ScanJSON(data, func(c Class, t string) { got = append(got, c.String()+" "+t) })
	refScanJSON(data, func(c Class, t string) { want = append(want, c.String()+" "+t) })
	slices.Sort(got)
	slices.Sort(want)
	return got, want
}

var jsonPieces = []string{`"path"`, `"file_path"`, `"Path"`, `"command"`, `"cmd"`, `"cwd"`, `"other"`, `"x"`,
	`"internal/a.go"`, `"go test ./..."`, `"ls  -la\tx"`, `"a b/c.go"`, `"see https://x.org/a and b.go"`,
	`"\u0041pp.go"`, `"\ud83d\ude00 x.go"`, `"\ud800"`, `"a\\b/c.go"`, `"\n$ make\n"`, `"é/数据.go"`, "\"\xff.go\"",
	`1`, `-0.5e3`, `1e400`, `1e-400`, `true`, `false`, `null`, `01`, `"`, `""`}

// genJSON returns a random JSON-like value (often valid, sometimes not).
func genJSON(r *rand.Rand, depth int) string {
	switch n := r.IntN(10); {
	case depth > 3 || n < 4:
		return jsonPieces[r.IntN(len(jsonPieces))]
	case n < 8:
		var b strings.Builder
		b.WriteByte('{')
		for i := range r.IntN(4) {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(jsonPieces[r.IntN(8)] + ":" + genJSON(r, depth+1))
		}
		b.WriteByte('}')
		return b.String()
	default:
		parts := make([]string, r.IntN(4))
		for i := range parts {
			parts[i] = genJSON(r, depth+1)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
}

// TestScanJSONMatchesReference compares ScanJSON, whose quick path skips
// encoding/json, with the reference on generated values.
func TestScanJSONMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 3))
	for i := range 5000 {
		data := []byte(genJSON(r, 0))
		if r.IntN(20) == 0 {
			data = append(data, " }"...)
		}
		if got, want := scanJSONBoth(data); !slices.Equal(got, want) {
			t.Fatalf("value %d (%s):\n got %q\nwant %q", i, data, got, want)
		}
	}
}

// FuzzScanJSONMatchesReference compares ScanJSON with the reference on any
// bytes.
func FuzzScanJSONMatchesReference(f *testing.F) {
	r := rand.New(rand.NewPCG(20, 4))
	for range 20 {
		f.Add([]byte(genJSON(r, 0)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := scanJSONBoth(data); !slices.Equal(got, want) {
			t.Fatalf("%q:\n got %q\nwant %q", data, got, want)
		}
	})
}

// TestByteSets checks the byte tables that replaced strings.IndexByte in
// trimPunct and urlAt against it, for every byte.
func TestByteSets(t *testing.T) {
	for _, set := range []struct {
		name  string
		table *[256]bool
		bytes string
	}{{"openPunct", &openPunct, "([{<\"'*"}, {"closePunct", &closePunct, ")]}>\"',;:.!?*"}, {"urlClose", &urlClose, ".,;:!?'\"`>]}*"}} {
		for c := range 256 {
			if set.table[c] != (strings.IndexByte(set.bytes, byte(c)) >= 0) {
				t.Errorf("%s[%q] = %v", set.name, byte(c), set.table[c])
			}
		}
	}
}

// TestCutWord compares cutWord with refCutWord on generated texts.
func TestCutWord(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 7))
	for range 2000 {
		text := genText(r, r.IntN(40))
		w, rest := cutWord(text)
		if rw, rrest := refCutWord(text); w != rw || rest != rrest {
			t.Fatalf("cutWord(%q) = %q, %q; want %q, %q", text, w, rest, rw, rrest)
		}
	}
}
