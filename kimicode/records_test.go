package kimicode_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"kompact/internal/kcvectors"
	"kompact/kimicode"
)

// TestRecordVectors: the six records kompact appends are those Kimi Code 2.1.0 appended, in
// order, field for field, but the times (not reproducible) and the token estimates
// tokensBefore, tokensAfter and summaryOutputTokens, whose formulas are not fully known:
// their differences are logged (docs/kimi-code.md).
func TestRecordVectors(t *testing.T) {
	texts, raw := sharedTexts(t)
	estimates := map[string]bool{"tokensBefore": true, "tokensAfter": true, "summaryOutputTokens": true, "tokens": true}
	for _, c := range kcvectors.Cases(t) {
		for _, cp := range c.Compactions {
			t.Run(c.Name+"/"+cp.Dir, func(t *testing.T) {
				w := readWire(t, c, raw, cp.Dir+"/session_before/agents/main/wire.jsonl")
				r := &kimicode.Request{Wire: w, SessionID: "$SESSION_ID", Window: c.MaxContextSize, Instruction: cp.Instruction, Texts: texts}
				u := cp.SummaryResponse.Usage
				o := r.Apply(kimicode.Answer{Text: cp.SummaryResponse.Text, PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens},
					wirePath, cp.Source, 0)
				got := bytes.Split(bytes.TrimSpace(kimicode.Records(w, o)), []byte("\n"))
				want := bytes.Split(bytes.TrimSpace(c.Read(t, raw, cp.Dir+"/appended.jsonl")), []byte("\n"))
				if len(got) != len(want) {
					t.Fatalf("%d records, Kimi Code %d", len(got), len(want))
				}
				for i := range want {
					var g, wv map[string]json.RawMessage
					_ = json.Unmarshal(got[i], &g)
					_ = json.Unmarshal(want[i], &wv)
					if len(g) != len(wv) {
						t.Errorf("record %d: keys %v, Kimi Code's %v", i, keys(g), keys(wv))
					}
					for k, v := range wv {
						switch {
						case k == "time":
						case estimates[k]:
							if !bytes.Equal(g[k], v) {
								t.Logf("record %d %s: %s, Kimi Code %s", i, k, g[k], v)
							}
						case !bytes.Equal(g[k], v):
							t.Errorf("record %d %s: %.300s, Kimi Code %.300s", i, k, g[k], v)
						}
					}
				}
			})
		}
	}
}

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
