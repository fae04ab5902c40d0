package kimicode_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"kompact/internal/testing/kcvectors"
	"kompact/kimicode"
)

// TestRecordVectors: the six records kompact appends are those Kimi Code 2.1.0 appended, in
// order, field for field, the token estimates included (tokensBefore, tokensAfter,
// summaryOutputTokens: they count the characters of the session's paths, so the session
// is laid out with paths as long as the recording's), but the times.
func TestRecordVectors(t *testing.T) {
	texts, raw := sharedTexts(t)
	kcvectors.EachCompaction(t, func(t *testing.T, c *kcvectors.Case, cp kcvectors.Compaction) {
		// The recording's paths (record.py's scratch folder): the estimates count
		// their characters.
		e := recordingEnv(c.Name)
		w, err := kimicode.ReadWire(bytes.NewReader(e.Untemplate(c.Read(t, raw, cp.Dir+"/session_before/agents/main/wire.jsonl"))), texts)
		if err != nil {
			t.Fatal(err)
		}
		r := &kimicode.Request{Wire: w, SessionID: e.SessionID, Window: c.MaxContextSize, Instruction: cp.Instruction, Texts: texts}
		u := cp.SummaryResponse.Usage
		o := r.Apply(kimicode.Answer{Text: cp.SummaryResponse.Text, PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens},
			filepath.Join(e.Home, "sessions", e.WorkspaceID, e.SessionID, "agents", "main", "wire.jsonl"), cp.Source, 0)
		got := bytes.Split(bytes.TrimSpace(kimicode.Records(w, o)), []byte("\n"))
		want := bytes.Split(bytes.TrimSpace(e.Untemplate(c.Read(t, raw, cp.Dir+"/appended.jsonl"))), []byte("\n"))
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
				case !bytes.Equal(g[k], v):
					t.Errorf("record %d %s: %.300s, Kimi Code %.300s", i, k, g[k], v)
				}
			}
		}
	})
}

// recordingEnv has values as long as the recording's: record.py's default scratch folder
// /tmp/kc/rec/<case>, a session id of the same form.
func recordingEnv(name string) kcvectors.Env {
	work := "/tmp/kc/rec/" + name + "/work"
	return kcvectors.Env{Home: "/tmp/kc/rec/" + name + "/home", Work: work, WorkspaceID: kcvectors.WorkspaceID(work),
		SessionID: "session_00000000-0000-4000-8000-000000000000", Date: "2026-12-04"}
}

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
