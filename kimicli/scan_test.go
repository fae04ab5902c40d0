package kimicli_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/vectors"
	"kompact/kimicli"
	"kompact/openai"
	"kompact/sessionjson"
)

// sameContext checks ParseContext's one-pass reading of message lines
// against the precise reading: the same records, system prompt and skip
// reasons, word for word.
func sameContext(t *testing.T, data []byte) {
	t.Helper()
	fast, precise := kimicli.ParseContext(data), kimicli.ParseContextPrecisely(data)
	if !reflect.DeepEqual(fast, precise) {
		t.Fatalf("readings differ for %q:\nfast    %+v\nprecise %+v", data, fast, precise)
	}
	if mid := kimicli.MiddleLine(data); mid > 0 {
		if split := kimicli.ParseContextSplit(data, mid); !reflect.DeepEqual(split, precise) {
			t.Fatalf("reading in halves at %d differs for %q:\nhalves  %+v\nprecise %+v", mid, data, split, precise)
		}
	}
	sameVerifiedBody(t, data, fast.Messages())
}

// sameVerifiedBody checks that the request body of msgs, read from data,
// is the same with data verified (its texts copied unchecked) as without.
func sameVerifiedBody(t *testing.T, data []byte, msgs []kompact.Message) {
	t.Helper()
	plain, err := openai.RequestBody(kompact.RequestConfig{Model: "m"}, msgs)
	if err != nil {
		t.Fatal(err)
	}
	verified, err := openai.RequestBody(kompact.RequestConfig{Model: "m"}, msgs, openai.WithVerified(sessionjson.VerifiedDocument(data)))
	if err != nil {
		t.Fatal(err)
	}
	if string(plain) != string(verified) {
		t.Fatalf("request bodies differ with %q verified:\n%s\n%s", data, verified, plain)
	}
}

// TestParseContextInHalves: reading a file in two halves at once, split
// at any line, gives what reading it in one go gives: the same records,
// line numbers, skipped lines and system prompt (the last one).
func TestParseContextInHalves(t *testing.T) {
	samples := append(contextSamples(t),
		[]byte(`{"role": "_system_prompt", "content": "one"}`+"\n"+`{"role":"user","content":"x"}`+"\n\n"+`{bad`+"\n"+`{"role": "_system_prompt", "content": "two"}`+"\n"+`{"role":"user","content":"y"}`))
	for _, d := range samples {
		whole := kimicli.ParseContext(d)
		for mid := 1; mid < len(d); mid++ {
			if d[mid-1] != '\n' {
				continue
			}
			if split := kimicli.ParseContextSplit(d, mid); !reflect.DeepEqual(split, whole) {
				t.Fatalf("split at %d of %q:\nhalves %+v\nwhole  %+v", mid, d, split, whole)
			}
		}
	}
}

// contextSamples are kimi-cli lines: the shared example files, every
// vector's file after compaction, and hand-written odd forms.
func contextSamples(t testing.TB) [][]byte {
	var out [][]byte
	dir := filepath.Join(vectors.SharedDir(t), "kimi-parity", "context-example")
	for _, name := range []string{"before.context.jsonl", "after.context.jsonl"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	for _, v := range vectors.Load(t) {
		if v.Expected.ContextJSONLAfter != nil {
			out = append(out, []byte(strings.Join(v.Expected.ContextJSONLAfter, "\n")+"\n"))
		}
	}
	return append(out,
		[]byte("{\"role\": \"user\", \"content\": \"x\", \"partial\": true}\r\n\n  \n{\"partial\": null, \"role\": \"assistant\", \"content\": [{\"type\": \"think\", \"think\": \"t\", \"encrypted\": null}]}"),
		[]byte(`{"role":"assistant","content":"","partial":false,"tool_calls":[{"type":"function","id":"c","function":{"name":"f","arguments":null},"extras":{"a":"<&>"}}]}`),
		[]byte(`{"role":"user","content":[{"type":"text","text":"a"}],"partial":1,"partial":2}`),
		[]byte(`{"role":"tool","content":[{"type":"image_url","image_url":{"url":"u","id":null}}],"tool_call_id":"c"}`),
		[]byte(`{"role":"user","content":"x","bad":1}`+"\n"+`{"role":"_usage","token_count":12}`+"\n"+`[]`+"\n"+`{bad`),
	)
}

func TestParseContextOnePass(t *testing.T) {
	for _, d := range contextSamples(t) {
		sameContext(t, d)
	}
}

// FuzzParseContextOnePass: the one-pass reading never disagrees with the
// precise one.
func FuzzParseContextOnePass(f *testing.F) {
	for _, d := range contextSamples(f) {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameContext(t, data)
	})
}
