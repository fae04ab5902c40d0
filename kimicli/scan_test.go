package kimicli_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"kompact/internal/vectors"
	"kompact/kimicli"
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
