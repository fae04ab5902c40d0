package integration

import (
	"strings"
	"testing"

	"kompact/internal/testing/codexcli"
	"kompact/internal/testing/fakeresponses"
	"kompact/openai"
)

// These tests drive a real Codex CLI headless against the fake Responses
// server directly, proving the harness and the fake before the gateway
// stands between them (issue 42 §4).

// turns is the requests of kind k the fake received.
func turns(fake *fakeresponses.Server, k fakeresponses.Kind) []fakeresponses.Request {
	var out []fakeresponses.Request
	for _, r := range fake.Requests() {
		if fakeresponses.KindOf(r.Body) == k {
			out = append(out, r)
		}
	}
	return out
}

func TestCodexTurnAgainstFake(t *testing.T) {
	c := &fakeresponses.Codex{Text: "four"}
	fake := fakeresponses.New(t, c.Answer)
	home := codexcli.Home(t, codexcli.Config{Provider: "Fake", BaseURL: fake.URL + "/v1"})
	r := codexcli.Exec(t, home, "What is 2+2?")
	if !r.Completed || r.Failed || r.Err != nil || r.ThreadID == "" || len(r.Messages) != 1 || r.Messages[0] != "four" {
		t.Fatalf("the turn:\n%s", r)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 || reqs[0].Method != "POST" || reqs[0].Path != "/v1/responses" {
		t.Fatalf("%d requests, the first %s %s", len(reqs), reqs[0].Method, reqs[0].Path)
	}
	q := reqs[0]
	if q.Header.Get("Authorization") != "Bearer "+codexcli.Key || q.Header.Get("Thread-Id") != r.ThreadID || q.Header.Get("Session-Id") != r.ThreadID {
		t.Errorf("headers: %v", q.Header)
	}
	meta, ok := openai.ParseTurnMetadata(q.Header.Get("X-Codex-Turn-Metadata"))
	if !ok || meta.RequestKind != "turn" || meta.ThreadID != r.ThreadID {
		t.Errorf("x-codex-turn-metadata: %+v %v", meta, ok)
	}
	req, err := openai.ParseResponsesRequest(q.Body)
	if err != nil {
		t.Fatal(err)
	}
	last := req.Len() - 1
	m, _ := req.Message(last)
	if !req.Stream() || req.NoTools() || req.Context(last) || m.Content[0].Text != "What is 2+2?" || !req.Context(0) {
		t.Errorf("the body as the codec reads it: stream %v, no tools %v, last %+v", req.Stream(), req.NoTools(), m)
	}
	// exec resume continues the thread: the same thread id, the history
	// re-sent before the new question.
	r2 := codexcli.Resume(t, home, r.ThreadID, "And 3+3?")
	if !r2.Completed || r2.ThreadID != r.ThreadID {
		t.Fatalf("the resumed turn:\n%s", r2)
	}
	reqs = fake.Requests()
	if len(reqs) != 2 || reqs[1].Header.Get("Thread-Id") != r.ThreadID || !strings.Contains(string(reqs[1].Body), "What is 2+2?") {
		t.Errorf("the resumed request: %d requests", len(reqs))
	}
}

func TestCodexToolRoundTripAgainstFake(t *testing.T) {
	c := &fakeresponses.Codex{Text: "done", Tool: fakeresponses.ToolCall{Name: "exec_command", Arguments: `{"cmd":"echo kompact-tool-output"}`}}
	fake := fakeresponses.New(t, c.Answer)
	home := codexcli.Home(t, codexcli.Config{Provider: "Fake", BaseURL: fake.URL + "/v1"})
	r := codexcli.Exec(t, home, "Run the command.")
	if !r.Completed || len(r.Messages) == 0 || r.Messages[len(r.Messages)-1] != "done" {
		t.Fatalf("the turn:\n%s", r)
	}
	outs := turns(fake, fakeresponses.KindToolOutput)
	if len(outs) != 1 {
		t.Fatalf("%d requests bringing a tool's output", len(outs))
	}
	items := fakeresponses.Items(outs[0].Body)
	call, out := items[len(items)-2], items[len(items)-1]
	if call.Type != "function_call" || call.CallID != "call_fake_0" || out.Type != "function_call_output" || out.CallID != "call_fake_0" {
		t.Errorf("the round trip: %+v %+v", call, out)
	}
}

// compactingUsage reports a full window on the first turn only, so that
// the next turn compacts first, and little afterwards (Codex has no cap
// on back-to-back compactions).
func compactingUsage(n int, k fakeresponses.Kind) fakeresponses.Usage {
	if n == 0 {
		return fakeresponses.Usage{Input: 9000, Output: 10}
	}
	return fakeresponses.Usage{Input: 300, Output: 10}
}

// compactionAgainstFake runs two turns of Codex, under provider's name,
// straight against a fake whose compactions answer summary and whose
// usage is compactingUsage, so that the second turn compacts first; both
// turns must complete. It returns the fake and the one request of kind k
// it received (what names that kind if there is not exactly one).
func compactionAgainstFake(t *testing.T, provider, summary string, k fakeresponses.Kind, what string) (*fakeresponses.Server, fakeresponses.Request) {
	t.Helper()
	c := &fakeresponses.Codex{Summary: summary, Usage: compactingUsage}
	fake := fakeresponses.New(t, c.Answer)
	home := codexcli.Home(t, codexcli.Config{Provider: provider, BaseURL: fake.URL + "/v1"})
	r := codexcli.Exec(t, home, "First question.")
	if !r.Completed {
		t.Fatalf("turn 1:\n%s", r)
	}
	r2 := codexcli.Resume(t, home, r.ThreadID, "Second question.")
	if !r2.Completed {
		t.Fatalf("turn 2:\n%s", r2)
	}
	got := turns(fake, k)
	if len(got) != 1 {
		t.Fatalf("%d %s requests, want 1", len(got), what)
	}
	return fake, got[0]
}

// TestCodexRemoteCompactionAgainstFake: named OpenAI, Codex compacts by
// a compaction_trigger, takes the compaction item, and sends it back as
// it came in the next turn.
func TestCodexRemoteCompactionAgainstFake(t *testing.T) {
	fake, trig := compactionAgainstFake(t, "OpenAI", "kompact:s:1", fakeresponses.KindRemoteCompaction, "compaction_trigger")
	meta, _ := openai.ParseTurnMetadata(trig.Header.Get("X-Codex-Turn-Metadata"))
	if meta.RequestKind != "compaction" || meta.Compaction == nil || meta.Compaction.Implementation != "responses_compaction_v2" {
		t.Errorf("the trigger's metadata: %+v", meta)
	}
	after := turns(fake, fakeresponses.KindTurn)
	next := after[len(after)-1]
	req, err := openai.ParseResponsesRequest(next.Body)
	if err != nil {
		t.Fatal(err)
	}
	idx, hs := req.Handles()
	if len(idx) != 1 || hs[0] != (openai.CompactionHandle{Session: "s", Revision: 1}) {
		t.Errorf("the next turn's compaction items: %v %v", idx, hs)
	}
	if fakeresponses.LastUserText(next.Body) != "Second question." {
		t.Errorf("the next turn's last user text: %q", fakeresponses.LastUserText(next.Body))
	}
}

// TestCodexLocalCompactionAgainstFake: under another name, Codex compacts
// by a tool-less turn with its checkpoint prompt, which the codec knows,
// and sends the summary behind its prefix as a user message next.
func TestCodexLocalCompactionAgainstFake(t *testing.T) {
	fake, local := compactionAgainstFake(t, "Fake", "The local summary.", fakeresponses.KindLocalCompaction, "local compaction")
	meta, _ := openai.ParseTurnMetadata(local.Header.Get("X-Codex-Turn-Metadata"))
	req, err := openai.ParseResponsesRequest(local.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got := req.Compaction(meta); got != openai.LocalCompaction {
		t.Errorf("the codec reads Codex's local compaction as %v", got)
	}
	after := turns(fake, fakeresponses.KindTurn)
	next, err := openai.ParseResponsesRequest(after[len(after)-1].Body)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for i := range next.Len() {
		if s, ok := next.CodexSummary(i); ok && s == "The local summary." {
			found = true
		}
	}
	if !found {
		t.Error("the next turn carries no summary message behind Codex's prefix")
	}
}
