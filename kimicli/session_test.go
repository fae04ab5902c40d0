package kimicli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/testserver"
	"kompact/internal/testing/vectors"
	"kompact/kimi"
	"kompact/kimicli"
)

// kimiFiles are kimi-cli's own files: the example's, before and after
// /compact, and every vector's context_jsonl_after but those kimi-cli
// cannot read back itself (context_restore_lossy: a tool call without
// arguments, which kompact writes with "arguments": null on purpose).
func kimiFiles(t *testing.T) map[string]string {
	dir := filepath.Join(vectors.SharedDir(t), "kimi-parity", "context-example")
	files := map[string]string{}
	for _, name := range []string{"before.context.jsonl", "after.context.jsonl"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	lossy := 0
	for _, v := range vectors.Load(t) {
		switch {
		case v.Expected.ContextJSONLAfter == nil:
		case v.Expected.ContextRestoreLossy != nil:
			lossy++
		default:
			files[v.Name()] = strings.Join(v.Expected.ContextJSONLAfter, "\n") + "\n"
		}
	}
	if len(files) < 30 || lossy > 3 {
		t.Fatalf("%d files, %d lossy vectors", len(files), lossy)
	}
	return files
}

// TestKimiSessionRoundTrip: a kimi-cli file imported as a session and
// written back (FileFromSession) is the file byte for byte, also after the
// session went through a store.
func TestKimiSessionRoundTrip(t *testing.T) {
	files := kimiFiles(t)
	for name, data := range files {
		s, skipped := kimicli.ImportContext([]byte(data))
		if len(skipped) > 0 || s == nil || s.Kimi == nil {
			t.Fatalf("%s: skipped %v", name, skipped)
		}
		if got := string(kimicli.FileFromSession(s)); got != data {
			t.Fatalf("%s written back:\n%s\nwant:\n%s", name, got, data)
		}
	}
	for store, open := range testserver.Stores() {
		t.Run(store, func(t *testing.T) {
			st := open(t)
			for name, data := range files {
				s, _ := kimicli.ImportContext([]byte(data))
				info, err := st.CreateSession(t.Context(), s)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				stored, err := st.GetSession(t.Context(), info.ID)
				if err != nil {
					t.Fatal(err)
				}
				if got := string(kimicli.FileFromSession(&stored.Session)); got != data {
					t.Fatalf("%s through the store:\n%s\nwant:\n%s", name, got, data)
				}
			}
		})
	}
}

// TestKimiSessionCompactsAsCompactKimi: for every vector, a kimi-cli file
// of its input compacted as a stored session (import, Prepare on the
// stored session, commit, export) sends the request and writes the file
// that compact --kimi's path (ParseContext, Prepare on its messages,
// CompactedFile) sends and writes, byte for byte.
func TestKimiSessionCompactsAsCompactKimi(t *testing.T) {
	body, _ := vectors.KimiPrompt(t)
	prompt := kompact.Prompt{Body: body, Source: kompact.PromptFile}
	for store, open := range testserver.Stores() {
		t.Run(store, func(t *testing.T) {
			st := open(t)
			for _, v := range vectors.Load(t) {
				if v.Expected.Outcome == "error" || v.Expected.ContextRestoreLossy != nil {
					continue
				}
				in := v.Session(t)
				sp := placeholderPrompt
				file := kimicli.CompactedFile(&sp, in.Messages, 1000)
				opt := kimi.Options{MaxPreserved: v.Params.MaxPreserved, Instructions: v.Params.CustomInstruction, Prompt: prompt}
				wantReq, want := compactKimi(t, file, opt, v.Answer())
				gotReq, got := compactStored(t, st, file, opt, v.Answer())
				if gotReq != wantReq {
					t.Fatalf("%s: the request differs from byte %d (%d and %d bytes)", v.Name(), firstDiff(gotReq, wantReq), len(gotReq), len(wantReq))
				}
				if got != want {
					t.Fatalf("%s: the exported file differs:\n got %s\nwant %s", v.Name(), got, want)
				}
			}
		})
	}
}

// prepareApply prepares a compaction of s and applies answer a to it; a
// no-op is a nil plan.
func prepareApply(t *testing.T, s *kompact.Session, opt kimi.Options, a kompact.Answer) (*kimi.Plan, *kompact.Result) {
	t.Helper()
	p, err := kimi.Prepare(s, opt)
	if err != nil {
		t.Fatal(err)
	}
	if p.Noop {
		return nil, nil
	}
	res, err := p.Apply(a)
	if err != nil {
		t.Fatal(err)
	}
	return p, res
}

// compactKimi is compact --kimi's path: the request's JSON and the file
// written ("" for a no-op).
func compactKimi(t *testing.T, file []byte, opt kimi.Options, a kompact.Answer) (string, string) {
	c := kimicli.ParseContext(file)
	p, res := prepareApply(t, &kompact.Session{Messages: c.Messages()}, opt, a)
	if p == nil {
		return "noop", ""
	}
	return requestJSON(p), string(kimicli.CompactedFile(c.SystemPrompt, res.KimiMessages, int64(res.EstimatedTokenCount)))
}

// compactStored is the service's path over store st.
func compactStored(t *testing.T, st kompact.Store, file []byte, opt kimi.Options, a kompact.Answer) (string, string) {
	s, _ := kimicli.ImportContext(file)
	info, err := st.CreateSession(t.Context(), s)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := st.GetSession(t.Context(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	p, res := prepareApply(t, &stored.Session, opt, a)
	if p == nil {
		return "noop", ""
	}
	c := res.Commit()
	c.Version, c.Generation = stored.Version, stored.Generation
	if _, _, err := st.CommitCompaction(t.Context(), info.ID, c); err != nil {
		t.Fatal(err)
	}
	after, err := st.GetSession(t.Context(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	return requestJSON(p), string(kimicli.FileFromSession(&after.Session))
}

func requestJSON(p *kimi.Plan) string {
	var b []byte
	for _, m := range p.RequestMessages() {
		b = m.AppendJSON(b)
	}
	return string(b)
}

// firstDiff is the offset of the first byte where a and b differ.
func firstDiff(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}
