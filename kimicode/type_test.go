package kimicode_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/kcvectors"
	"kompact/kimicode"
)

// chatJSON is a kompact message as the recorded requests hold it (role, content, tool
// calls, tool-call id), for comparing values.
func chatJSON(m kompact.Message) string {
	o := map[string]any{"role": string(m.Role)}
	var text strings.Builder
	m.Texts(func(s string) { text.WriteString(s) })
	o["content"] = text.String()
	if m.Role == kompact.RoleAssistant && text.Len() == 0 {
		o["content"] = nil
	}
	if m.ToolCallID != "" {
		o["tool_call_id"] = m.ToolCallID
	}
	if len(m.ToolCalls) > 0 {
		var calls []any
		for _, c := range m.ToolCalls {
			calls = append(calls, map[string]any{"id": c.ID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": *c.Arguments}})
		}
		o["tool_calls"] = calls
	}
	b, _ := json.Marshal(o)
	return string(b)
}

// normalized is a recorded message re-encoded as chatJSON encodes.
func normalized(raw json.RawMessage) string {
	var o map[string]any
	_ = json.Unmarshal(raw, &o)
	b, _ := json.Marshal(o)
	return string(b)
}

// TestTypeOnKompactSessions (issue 31 §2): the "kimi-code" type compacts a kompact session
// holding a recorded Kimi Code context (its system prompt first) as Kimi Code does: the
// request's messages are those Kimi Code sent, value for value (but the tools, which a
// kompact session does not record), and the replacement is the rebuilt context Kimi Code
// sent next (kept user messages, elision note, summary, continuation note), the summary
// without the footer a kompact session has no wire.jsonl for. An edited summary rebuilds
// it; the type is registered.
func TestTypeOnKompactSessions(t *testing.T) {
	texts, raw := sharedTexts(t)
	kimicode.UseTexts(texts)
	typ, err := kompact.LookupCompactionType(kimicode.Name)
	if err != nil {
		t.Fatal(err)
	}
	kcvectors.EachCompaction(t, func(t *testing.T, c *kcvectors.Case, cp kcvectors.Compaction) {
		w := readWire(t, c, raw, cp.Dir+"/session_before/agents/main/wire.jsonl")
		sess := &kompact.Session{Messages: append([]kompact.Message{{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart(w.SystemPrompt)}}},
			kimicode.ToKompact(w.Context)...)}
		a := &kompact.Agent{Name: "kc", Compaction: kompact.CompactionConfig{Enabled: true, Type: kimicode.Name}}
		plan, err := typ.Plan(a, sess, kompact.ActionRequest{Action: kompact.ActionCompactConversation, Instructions: cp.Instruction}, kompact.Prompt{})
		if err != nil {
			t.Fatal(err)
		}
		var req struct{ Messages []json.RawMessage }
		_ = json.Unmarshal(c.Read(t, raw, cp.Dir+"/compaction_request.json"), &req)
		got := plan.RequestMessages()
		if len(got) != len(req.Messages) {
			t.Fatalf("%d request messages, Kimi Code sent %d", len(got), len(req.Messages))
		}
		for i := range got {
			if g, w := chatJSON(got[i]), normalized(req.Messages[i]); g != w {
				t.Errorf("request message %d:\n got %.300s\nwant %.300s", i, g, w)
			}
		}
		if _, limit := plan.LimitCompletion(a, nil, c.MaxContextSize); limit != kimicode.MaxTokens(c.MaxContextSize) {
			t.Errorf("max_tokens %d", limit)
		}
		r, err := plan.Apply(kompact.Answer{Parts: []kompact.Part{kompact.TextPart(cp.SummaryResponse.Text)}})
		if err != nil {
			t.Fatal(err)
		}
		var after struct{ Messages []json.RawMessage }
		_ = json.Unmarshal(c.Read(t, raw, cp.Dir+"/after_request.json"), &after)
		msgs := r.Session.Messages
		if len(r.Replacement()) != len(msgs) || r.SummaryAt() != len(msgs)-2 {
			t.Fatalf("replacement %d of %d, summary at %d", len(r.Replacement()), len(msgs), r.SummaryAt())
		}
		for i := 1; i < len(msgs); i++ {
			g, w := chatJSON(msgs[i]), normalized(after.Messages[i])
			if i == r.SummaryAt() {
				want := texts.Prefix() + "\n" + cp.SummaryResponse.Text
				if g != chatJSON(kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(want)}}) {
					t.Errorf("summary message %s", g)
				}
				continue
			}
			if g != w {
				t.Errorf("message %d:\n got %.300s\nwant %.300s", i, g, w)
			}
		}
		edited := typ.WithSummary(r, "Edited.")
		if e := edited.Session.Messages; len(e) != len(msgs) || !bytes.Contains([]byte(chatJSON(e[r.SummaryAt()])), []byte("Edited.")) || edited.Summary != "Edited." {
			t.Errorf("WithSummary: %s", chatJSON(e[r.SummaryAt()]))
		}
	})
}

// TestTypeWarnsTokensNotReduced (issue 39 §3): a kimi-code compaction of a kompact session
// whose summary leaves the context no smaller warns tokens_not_reduced, as a kimi one does;
// the recorded summaries do not.
func TestTypeWarnsTokensNotReduced(t *testing.T) {
	texts, raw := sharedTexts(t)
	kimicode.UseTexts(texts)
	typ, err := kompact.LookupCompactionType(kimicode.Name)
	if err != nil {
		t.Fatal(err)
	}
	c := kcvectors.Cases(t)[0]
	cp := c.Compactions[0]
	w := readWire(t, c, raw, cp.Dir+"/session_before/agents/main/wire.jsonl")
	sess := &kompact.Session{Messages: append([]kompact.Message{{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart(w.SystemPrompt)}}},
		kimicode.ToKompact(w.Context)...)}
	a := &kompact.Agent{Name: "kc", Compaction: kompact.CompactionConfig{Enabled: true, Type: kimicode.Name}}
	plan, err := typ.Plan(a, sess, kompact.ActionRequest{Action: kompact.ActionCompactConversation}, kompact.Prompt{})
	if err != nil {
		t.Fatal(err)
	}
	codes := func(text string) []kompact.WarningCode {
		r, err := plan.Apply(kompact.Answer{Parts: []kompact.Part{kompact.TextPart(text)}})
		if err != nil {
			t.Fatal(err)
		}
		var out []kompact.WarningCode
		for _, w := range r.Warnings() {
			out = append(out, w.Code)
		}
		return out
	}
	if got := codes(strings.Repeat("A summary longer than the context. ", 20000)); !slices.Contains(got, kompact.WarnTokensNotReduced) {
		t.Errorf("a summary bigger than the context: warnings %v", got)
	}
	if got := codes(cp.SummaryResponse.Text); slices.Contains(got, kompact.WarnTokensNotReduced) {
		t.Errorf("the recorded summary: warnings %v", got)
	}
}
