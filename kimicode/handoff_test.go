package kimicode_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"kompact/internal/testing/kcvectors"
	"kompact/kimicode"
)

// wirePath is the templated path of a recorded session's wire.jsonl.
const wirePath = "$KIMI_CODE_HOME/sessions/$WORKSPACE_ID/$SESSION_ID/agents/main/wire.jsonl"

// appended are a compaction's recorded records, decoded, by type.
func appended(t *testing.T, c *kcvectors.Case, raw map[string]string, dir string) map[string]map[string]json.RawMessage {
	t.Helper()
	out := map[string]map[string]json.RawMessage{}
	for _, line := range bytes.Split(bytes.TrimSpace(c.Read(t, raw, dir+"/appended.jsonl")), []byte("\n")) {
		var r map[string]json.RawMessage
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		var typ string
		_ = json.Unmarshal(r["type"], &typ)
		out[typ] = r
	}
	return out
}

// TestHandoffVectors: the summary message and the rebuilt context kompact makes are those
// Kimi Code 2.1.0 wrote (contextSummary, the kept-message counts) and then sent (the next
// request's messages up to the continuation note), for every recorded compaction: the
// footer's line windows, the TODO list, the head, elision note and tail of long input.
func TestHandoffVectors(t *testing.T) {
	texts, raw := sharedTexts(t)
	kcvectors.EachCompaction(t, func(t *testing.T, c *kcvectors.Case, cp kcvectors.Compaction) {
		w := readWire(t, c, raw, cp.Dir+"/session_before/agents/main/wire.jsonl")
		s := kimicode.Summary{Model: cp.SummaryResponse.Text, Todos: w.Todos, WirePath: wirePath,
			Applied: w.Applied, ApplyLine: w.Lines + kimicode.RecordsBeforeApply + 1}
		text := s.Text(texts)
		rec := appended(t, c, raw, cp.Dir)["context.apply_compaction"]
		var want string
		_ = json.Unmarshal(rec["contextSummary"], &want)
		if text != want {
			t.Errorf("contextSummary:\n got %q\nwant %q", text, want)
		}
		h := kimicode.Rebuild(w.Context, text, texts)
		var kept int
		_ = json.Unmarshal(rec["keptUserMessageCount"], &kept)
		if h.Kept != kept {
			t.Errorf("kept %d user messages, Kimi Code %d", h.Kept, kept)
		}
		if head, ok := rec["keptHeadUserMessageCount"]; ok != h.Elided || (ok && string(head) != itoa(h.KeptHead)) {
			t.Errorf("keptHeadUserMessageCount %s, kompact elided=%v head=%d", head, h.Elided, h.KeptHead)
		}
		var after struct{ Messages []json.RawMessage }
		_ = json.Unmarshal(c.Read(t, raw, cp.Dir+"/after_request.json"), &after)
		got := kimicode.ChatMessageBytes(h.Messages)
		if len(after.Messages) < len(got)+1 {
			t.Fatalf("the next request has %d messages, the rebuilt context %d", len(after.Messages), len(got))
		}
		for i, g := range got {
			if !bytes.Equal(g, after.Messages[i+1]) {
				t.Errorf("message %d:\n got %.500s\nwant %.500s", i+1, g, after.Messages[i+1])
			}
		}
	})
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
