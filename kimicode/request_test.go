package kimicode_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"kompact/internal/testing/kcvectors"
	"kompact/kimicode"
)

// sharedTexts are Kimi Code's texts from ../shared/kimi-code/texts.
func sharedTexts(t *testing.T) (*kimicode.Texts, map[string]string) {
	t.Helper()
	raw := kcvectors.Texts(t)
	texts := kimicode.NewTexts(raw, "shared")
	if !texts.Genuine {
		t.Fatal("../shared/kimi-code/texts do not have the pinned SHA-256s")
	}
	return texts, raw
}

// readWire folds a case's wire.jsonl with its texts filled.
func readWire(t *testing.T, c *kcvectors.Case, raw map[string]string, rel string) *kimicode.Wire {
	t.Helper()
	texts := kimicode.NewTexts(raw, "shared")
	w, err := kimicode.ReadWire(bytes.NewReader(c.Read(t, raw, rel)), texts)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return w
}

// TestRequestVectors: the compaction request kompact builds of each recorded session is
// the body Kimi Code 2.1.0 sent, byte for byte (issue 31).
func TestRequestVectors(t *testing.T) {
	texts, raw := sharedTexts(t)
	kcvectors.EachCompaction(t, func(t *testing.T, c *kcvectors.Case, cp kcvectors.Compaction) {
		w := readWire(t, c, raw, cp.Dir+"/session_before/agents/main/wire.jsonl")
		if w.Lines != cp.WireLinesBefore {
			t.Errorf("lines = %d, recorded %d", w.Lines, cp.WireLinesBefore)
		}
		r := &kimicode.Request{Wire: w, SessionID: "$SESSION_ID", Window: c.MaxContextSize, Instruction: cp.Instruction, Texts: texts}
		got, want := r.Body(), c.Read(t, raw, cp.Dir+"/compaction_request.json")
		if !bytes.Equal(got, want) {
			t.Errorf("request differs:\n%s", firstDiff(t, got, want))
		}
	})
}

// firstDiff names the first message that differs.
func firstDiff(t *testing.T, got, want []byte) string {
	var g, w map[string]json.RawMessage
	if err := json.Unmarshal(got, &g); err != nil {
		return "kompact's body is not JSON: " + err.Error()
	}
	_ = json.Unmarshal(want, &w)
	for k, v := range w {
		if k == "messages" {
			var gm, wm []json.RawMessage
			_ = json.Unmarshal(g[k], &gm)
			_ = json.Unmarshal(v, &wm)
			for i := range max(len(gm), len(wm)) {
				var a, b string
				if i < len(gm) {
					a = string(gm[i])
				}
				if i < len(wm) {
					b = string(wm[i])
				}
				if a != b {
					return fmt.Sprintf("message %d:\n got %.600s\nwant %.600s", i, a, b)
				}
			}
		} else if !bytes.Equal(g[k], v) {
			return fmt.Sprintf("%s: got %.300s, want %.300s", k, g[k], v)
		}
	}
	return fmt.Sprintf("the key order or white space (got %d bytes, want %d)", len(got), len(want))
}
