package service_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/testllm"
	"kompact/service"
	"kompact/toolprune"
)

// toolConversation is [sys, u1, a1 (calls c1 and c2), t1, t2, a1b, u2, a2,
// u3, a3]: a tool exchange inside the range kimi compacts by default.
func toolConversation() *kompact.Session {
	args := `{"path":"/srv/app/main.go"}`
	call := msg(kompact.RoleAssistant, "a1", "let me look")
	call.ToolCalls = []kompact.ToolCall{{ID: "c1", Name: "read", Arguments: &args}, {ID: "c2", Name: "read", Arguments: &args}}
	res := func(id, call, text string) kompact.Message {
		m := msg(kompact.RoleTool, id, text)
		m.ToolCallID = call
		return m
	}
	return sess(
		msg(kompact.RoleSystem, "sys", "You are an agent."),
		msg(kompact.RoleUser, "u1", "first question"),
		call, res("t1", "c1", "PINNED RESULT ONE"), res("t2", "c2", "PINNED RESULT TWO"),
		msg(kompact.RoleAssistant, "a1b", "first answer"),
		msg(kompact.RoleUser, "u2", "second question"),
		msg(kompact.RoleAssistant, "a2", "second answer"),
		msg(kompact.RoleUser, "u3", "third question"),
		msg(kompact.RoleAssistant, "a3", "third answer"),
	)
}

// runPinned compacts s (pins set) with the default range and returns the
// outcome and the transcript the model was sent.
func runPinned(t *testing.T, s *kompact.Session, req kompact.ActionRequest) (kompact.Outcome, string) {
	t.Helper()
	llm := &testllm.LLM{Answer: testllm.Reply("SUMMARY /srv/app/main.go")}
	out := (&service.Compactor{LLM: llm}).Execute(context.Background(), testllm.Agent(), s, req, nil)
	if out.Status != kompact.OutcomeCompacted {
		t.Fatalf("outcome %+v", out)
	}
	var b strings.Builder
	for _, p := range llm.Requests[0][1].Content {
		b.WriteString(p.Text)
	}
	return out, b.String()
}

// TestPinnedToolExchange (issue 33 §1, KCP-002, KCP-005): pinning a tool
// result pins its whole exchange: the assistant message with the calls and
// both results stay verbatim, in order, right after the summary and before
// the preserved tail, and the transcript the model summarises leaves them
// out. The counts, the commit (its replacement and note) and the fidelity
// report say so.
func TestPinnedToolExchange(t *testing.T) {
	s := toolConversation()
	s.Pinned = []string{"t2", "nowhere"} // a pin that names no message is passed over
	out, transcript := runPinned(t, s, kompact.ActionRequest{Action: kompact.ActionCompactConversation})
	r := out.Result
	if got := ids(r.Session.Messages); got != "sys,<user>,a1,t1,t2,u3,a3" {
		t.Fatalf("compacted session %s", got)
	}
	if !reflect.DeepEqual(r.Session.Messages[2], s.Messages[2]) || !reflect.DeepEqual(r.Session.Messages[4], s.Messages[4]) {
		t.Error("the pinned messages are not verbatim")
	}
	for _, text := range []string{"PINNED RESULT", "let me look"} {
		if strings.Contains(transcript, text) {
			t.Errorf("the transcript shows the pinned %q:\n%s", text, transcript)
		}
	}
	if !strings.Contains(transcript, "## Message 3\nRole: assistant\nContent:\nfirst answer") || strings.Contains(transcript, "## Message 6") {
		t.Errorf("the transcript is not sys, u1, a1b, u2, a2 numbered from 1:\n%s", transcript)
	}
	if c := r.Counts(); c != (kompact.PlanCounts{Before: 1, Replaced: 4, Pinned: 3, After: 2}) || c.First() != 2 || c.Last() != 8 {
		t.Errorf("counts %+v", c)
	}
	cm := r.Commit()
	if ids(cm.Replacement) != "sys,<user>,a1,t1,t2" || cm.End != 8 || cm.Note != "compacted 4 messages, 3 pinned messages kept" {
		t.Errorf("commit: replacement %s, end %d, note %q", ids(cm.Replacement), cm.End, cm.Note)
	}
	if r.Fidelity.Pinned == 0 {
		t.Errorf("fidelity %+v counts no pinned artifact", *r.Fidelity)
	}
	if r.TokensBefore != kompact.EstimateTokens(s.Messages) || r.TokensAfter != kompact.EstimateTokens(r.Session.Messages) {
		t.Errorf("tokens before %d after %d", r.TokensBefore, r.TokensAfter)
	}
	if got := ids(r.KimiMessages); got != "<user>,a1,t1,t2,u3,a3" { // kimi-cli's form: the range's system message is summarised
		t.Errorf("kimi messages %s", got)
	}
}

// TestPinnedExplicitRange: a range whose first and last messages are
// pinned compacts the messages between them; the pinned ones stay.
func TestPinnedExplicitRange(t *testing.T) {
	s := conversation()
	s.Pinned = []string{"u2", "a2"}
	out, transcript := runPinned(t, s, kompact.ActionRequest{Action: kompact.ActionCompactConversation, Start: "a1", End: "a2"})
	if got := ids(out.Result.Session.Messages); got != "sys,u1,<user>,u2,a2,u3,a3" {
		t.Fatalf("compacted session %s", got)
	}
	if strings.Contains(transcript, "second") || !strings.Contains(transcript, "first answer") {
		t.Errorf("transcript:\n%s", transcript)
	}
}

// TestPinsOutsideTheRangeChangeNothing (KCP-005): pins in the preserved
// tail (or none at all) leave the plan the type's, byte for byte.
func TestPinsOutsideTheRangeChangeNothing(t *testing.T) {
	plain := conversation()
	pinned := conversation()
	pinned.Pinned = []string{"a3", "sys"}
	a, ta := runPinned(t, plain, kompact.ActionRequest{Action: kompact.ActionCompactConversation})
	b, tb := runPinned(t, pinned, kompact.ActionRequest{Action: kompact.ActionCompactConversation})
	if ta != tb || ids(a.Result.Session.Messages) != ids(b.Result.Session.Messages) || a.Result.Commit().Note != b.Result.Commit().Note {
		t.Errorf("pins outside the range changed the compaction:\n%s\n%s", ta, tb)
	}
	job, err := (&service.Compactor{}).NewJob(testllm.Agent(), pinned, kompact.ActionRequest{Action: kompact.ActionCompactConversation})
	if err != nil || reflect.TypeOf(job.Plan).String() != "*kimi.Plan" {
		t.Errorf("plan %T, %v", job.Plan, err)
	}
}

// TestAllPinnedIsNoop: a range of pinned messages only has nothing to
// summarise.
func TestAllPinnedIsNoop(t *testing.T) {
	s := conversation()
	s.Pinned = []string{"u2", "a2"}
	job, err := (&service.Compactor{}).NewJob(testllm.Agent(), s, kompact.ActionRequest{Action: kompact.ActionCompactConversation, Start: "u2", End: "a2"})
	if err != nil {
		t.Fatal(err)
	}
	if info := job.Plan.About(); !info.Noop || job.Plan.Counts().After != len(s.Messages) {
		t.Errorf("plan %+v, counts %+v", info, job.Plan.Counts())
	}
}

// TestPinnedPreviewEdited: a pinned compaction kept as a preview keeps
// its pins through the stored preview; applied with a person's summary,
// the session gets that summary, then the pinned message, then the tail,
// and the pin survives.
func TestPinnedPreviewEdited(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	e.create("s", "manual")
	pins := []string{"m2"}
	if _, err := e.s.UpdateSettings(context.Background(), "s", kompact.SessionSettings{Pinned: &pins}); err != nil {
		t.Fatal(err)
	}
	pv := e.run("s", service.ActionOptions{Preview: true})
	if pv.Status != kompact.OutcomePreview || pv.Result.Counts().Pinned != 1 {
		t.Fatalf("preview %s, counts %+v", pv.Status, pv.Result.Counts())
	}
	edited := "<current_focus>\nedited\n</current_focus>"
	out, err := e.s.ApplyPreview(context.Background(), "s", pv.PreviewID, &edited)
	if err != nil || out.Status != kompact.OutcomeCompacted {
		t.Fatalf("apply: %+v, %v", out, err)
	}
	st, err := e.store.GetSession(context.Background(), "s")
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(st.Messages); !strings.HasSuffix(got, ",m2,m3,m4") || len(st.Messages) != 4 || !strings.HasSuffix(st.Messages[0].Content[0].Text, edited) || !reflect.DeepEqual(st.Pinned, pins) {
		t.Fatalf("applied: %s, summary %q, pinned %v", got, st.Messages[0].Content[0].Text, st.Pinned)
	}
	if out.Result.Fidelity == nil || out.Result.Counts() != (kompact.PlanCounts{Replaced: 1, Pinned: 1, After: 2}) {
		t.Fatalf("applied result: counts %+v", out.Result.Counts())
	}
}

// TestPruneLeavesPinsAlone (issue 33 §1 with §3): a prune clears no
// pinned tool result, nor one whose call is pinned; the others it clears
// as before.
func TestPruneLeavesPinsAlone(t *testing.T) {
	s := sess(msg(kompact.RoleSystem, "s", "system"), msg(kompact.RoleUser, "u", "fix the build"))
	for i := range 4 {
		call := msg(kompact.RoleAssistant, "a"+itoa(i), "running")
		call.ToolCalls = []kompact.ToolCall{{ID: "c" + itoa(i), Name: "run"}}
		res := msg(kompact.RoleTool, "t"+itoa(i), strings.Repeat("build output line\n", 300))
		res.ToolCallID, res.HasToolCallID = "c"+itoa(i), true
		s.Messages = append(s.Messages, call, res)
	}
	s.Pinned = []string{"a0", "t1"}
	opts := toolprune.Options{KeepRecent: 1, MinChars: 2000, Pinned: service.PinnedIndexes(s)}
	r := toolprune.Prune(s.Messages, opts)
	var cleared []string
	for _, c := range r.Cleared {
		cleared = append(cleared, c.Message)
	}
	if strings.Join(cleared, ",") != "t2" {
		t.Errorf("cleared %v, want t2 only (t0's call and t1 are pinned, t3 is recent)", cleared)
	}
	if got := service.PinnedIndexes(sess()); got != nil {
		t.Errorf("no pins: %v", got)
	}
}

// TestPinnedByNumber: a pin may name a message by #N, as --pin does.
func TestPinnedByNumber(t *testing.T) {
	s := conversation()
	s.Pinned = []string{"#4"} // u2
	out, transcript := runPinned(t, s, kompact.ActionRequest{Action: kompact.ActionCompactConversation})
	if got := ids(out.Result.Session.Messages); got != "sys,<user>,u2,u3,a3" || strings.Contains(transcript, "second question") {
		t.Fatalf("compacted session %s", got)
	}
}

// TestPinnedKimiCode: the seam holds for the kimi-code type too (issue
// 31's): its request leaves the pinned message out, and the result keeps
// it right after the summary, before the type's own note after it.
func TestPinnedKimiCode(t *testing.T) {
	a := testllm.Agent()
	a.Compaction.Type = "kimi-code"
	s := conversation()
	s.Pinned = []string{"u2"}
	llm := &testllm.LLM{Answer: testllm.Reply("SUMMARY")}
	out := (&service.Compactor{LLM: llm}).Execute(context.Background(), a, s, kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
	if out.Status != kompact.OutcomeCompacted {
		t.Fatalf("outcome %+v", out)
	}
	for _, m := range llm.Requests[0] {
		for _, p := range m.Content {
			if strings.Contains(p.Text, "second question") {
				t.Fatal("the kimi-code request shows the pinned message")
			}
		}
	}
	r := out.Result
	at := r.SummaryAt()
	if r.Session.Messages[at].Content[0].Text != r.SummaryMessage.Content[0].Text || r.Session.Messages[at+1].ID != "u2" || r.Span.Trailing == 0 {
		t.Fatalf("session %s (summary at %d, trailing %d)", ids(r.Session.Messages), at, r.Span.Trailing)
	}
	if cm := r.Commit(); len(cm.Replacement) != len(r.Session.Messages) || cm.End != len(s.Messages) {
		t.Errorf("commit replaces %d of %d with %d", cm.End, len(s.Messages), len(cm.Replacement))
	}
}
