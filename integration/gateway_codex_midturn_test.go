package integration

import (
	"encoding/json"
	"strings"
	"testing"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakeresponses"
)

// TestCodexMidTurnCompactionThroughGateway (issue 42 §2): the real Codex
// compacts inside a turn (a tool call's answer reported a full window)
// through the gateway, for both provider names; the gateway answers the
// compaction with no upstream compaction request, and Codex's next
// request, its rebuilt history ending with the summary, continues the
// thread's one session, which holds kompact's summary once.
func TestCodexMidTurnCompactionThroughGateway(t *testing.T) {
	for _, provider := range []string{"OpenAI", "Fake"} {
		t.Run(provider, func(t *testing.T) {
			// Answers 0-1: turn 1 (a tool call, then its output answered);
			// answer 2, turn 2's tool call, reports a full window, so
			// Codex compacts before it sends the call's output.
			c := &fakeresponses.Codex{Text: "done", Tool: fakeresponses.ToolCall{Name: "exec_command", Arguments: `{"cmd":"echo kompact-mid"}`},
				Usage: func(n int, _ fakeresponses.Kind) fakeresponses.Usage {
					if n == 2 {
						return fakeresponses.Usage{Input: 9000, Output: 10}
					}
					return fakeresponses.Usage{Input: 300, Output: 10}
				}}
			fake := apitest.CodexUpstream(t, c, codexSummary)
			srv, front, _, first, second := codexFirstTurns(t, provider, fake, "First: run the command.", "Second: run it again.")
			if second.Failed {
				t.Fatalf("turn 2:\n%s", second)
			}
			kind := compactionKind(provider)
			if n := len(front.of(kind)); n != 1 {
				t.Fatalf("%d compaction requests through the gateway, want 1 (the mid-turn one)", n)
			}
			if n := len(responsesTurns(fake, kind)); n != 0 {
				t.Errorf("%d compaction requests reached the upstream", n)
			}
			// Mid-turn: the request after the compaction ends with the
			// summary (no new user message), expanded for the upstream.
			turns := responsesTurns(fake, fakeresponses.KindTurn)
			if last := turns[len(turns)-1].Body; !strings.Contains(fakeresponses.LastUserText(last), "KOMPACT-CODEX-SUMMARY") {
				t.Errorf("the request after the compaction does not end with kompact's summary: %.2000s", last)
			}
			if ids := listedSessions(t, srv.URL); len(ids) != 1 || ids[0] != first.ThreadID {
				t.Errorf("sessions %v, want the thread's %s only", ids, first.ThreadID)
			}
			var s struct {
				Messages []json.RawMessage `json:"messages"`
			}
			apitest.GetJSON(t, srv.URL, "/v1/sessions/"+first.ThreadID, &s)
			n := 0
			for _, m := range s.Messages {
				n += strings.Count(string(m), "KOMPACT-CODEX-SUMMARY")
			}
			if n != 1 {
				t.Errorf("the session holds kompact's summary %d times, want once", n)
			}
		})
	}
}
