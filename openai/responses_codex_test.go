package openai_test

import (
	"testing"

	"kompact/internal/testing/codexcli"
	"kompact/openai"
)

// localCompaction is Codex's local compaction request in its shape: the
// history, "tools": [], and the prompt as a last user message with no id.
func localCompaction(t *testing.T, prompt string) []byte {
	items := append(codexHistory(t, false), codexItem(t, map[string]any{"type": "message", "role": "user", "content": textContent("input_text", prompt)}))
	return codexBody(items, `[]`)
}

var compactionMeta = openai.TurnMetadata{RequestKind: "compaction"}

// TestResponsesRemoteCompaction: a last compaction_trigger item is a
// remote compaction, with or without the header.
func TestResponsesRemoteCompaction(t *testing.T) {
	items := append(codexHistory(t, true), `{"type":"compaction_trigger"}`)
	r := parse(t, codexBody(items, someTools))
	if r.Compaction(compactionMeta) != openai.RemoteCompaction || r.Compaction(openai.TurnMetadata{}) != openai.RemoteCompaction {
		t.Error("a trigger last is a remote compaction")
	}
	if r.Kind(len(items)-1) != openai.ItemCompactionTrigger {
		t.Errorf("kind %v", r.Kind(len(items)-1))
	}
	if parse(t, codexBody(codexHistory(t, true), someTools)).Compaction(compactionMeta) != openai.NoCompaction {
		t.Error("a turn is no compaction")
	}
	mid := append([]string{`{"type":"compaction_trigger"}`}, codexHistory(t, true)...)
	if parse(t, codexBody(mid, someTools)).Compaction(compactionMeta) != openai.NoCompaction {
		t.Error("only a last trigger asks for a compaction")
	}
}

// TestResponsesLocalCompaction: Codex's checkpoint prompt (read from the
// installed Codex, known to the code by SHA-256), tools [] and
// request_kind compaction, all three, make a local compaction.
func TestResponsesLocalCompaction(t *testing.T) {
	prompt := codexcli.CheckpointPrompt.Read(t)
	r := parse(t, localCompaction(t, prompt))
	if got := r.Compaction(compactionMeta); got != openai.LocalCompaction {
		t.Fatalf("Codex's local compaction: %v", got)
	}
	if r.Compaction(openai.TurnMetadata{RequestKind: "turn"}) != openai.NoCompaction {
		t.Error("request_kind turn is no compaction")
	}
	withTools := append(codexHistory(t, false), codexItem(t, map[string]any{"type": "message", "role": "user", "content": textContent("input_text", prompt)}))
	if parse(t, codexBody(withTools, someTools)).Compaction(compactionMeta) != openai.NoCompaction {
		t.Error("with tools it is no local compaction")
	}
	if parse(t, localCompaction(t, prompt+" ")).Compaction(compactionMeta) != openai.NoCompaction {
		t.Error("another prompt (a configured compact_prompt) is an ordinary turn")
	}
}

// TestParseTurnMetadata reads the header in Codex's shape.
func TestParseTurnMetadata(t *testing.T) {
	m, ok := openai.ParseTurnMetadata(`{"installation_id":"i","session_id":"s","thread_id":"th","turn_id":"tu","window_number":2,"request_kind":"compaction","compaction":{"trigger":"auto","reason":"context_limit","implementation":"responses_compaction_v2","phase":"pre_turn","strategy":"memento"},"sandbox":"x"}`)
	if !ok || m.ThreadID != "th" || m.SessionID != "s" || m.TurnID != "tu" || m.WindowNumber != 2 || m.RequestKind != "compaction" ||
		m.Compaction == nil || m.Compaction.Trigger != "auto" || m.Compaction.Implementation != "responses_compaction_v2" || m.Compaction.Phase != "pre_turn" {
		t.Errorf("%+v %v", m, ok)
	}
	for _, h := range []string{"", "{", "[]", `"x"`} {
		if _, ok := openai.ParseTurnMetadata(h); ok {
			t.Errorf("%q read", h)
		}
	}
}

// TestResponsesCodexSummary: the user message Codex opens its own summary
// with (its prefix read from the installed Codex) gives the summary back.
func TestResponsesCodexSummary(t *testing.T) {
	prefix := codexcli.SummaryPrefix.Read(t)
	items := []string{codexMsg(t, "", "user", prefix+"The work so far."), codexMsg(t, "", "user", "Not a summary."), codexMsg(t, "", "assistant", prefix+"x")}
	r := parse(t, codexBody(items, someTools))
	if s, ok := r.CodexSummary(0); !ok || s != "The work so far." {
		t.Errorf("Codex's summary message: %q %v", s, ok)
	}
	for _, i := range []int{1, 2} {
		if _, ok := r.CodexSummary(i); ok {
			t.Errorf("item %d read as Codex's summary", i)
		}
	}
}
