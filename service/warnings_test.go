package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/testllm"
	"kompact/service"
)

func warningCodes(ws []kompact.Warning) string {
	var out []string
	for _, w := range ws {
		out = append(out, string(w.Code))
	}
	return strings.Join(out, ",")
}

// TestResultWarnings: a result that leaves messages out of the summary, has
// no section, or does not shrink the session carries the matching warnings,
// in the outcome JSON too; a good result carries an empty list.
func TestResultWarnings(t *testing.T) {
	ctx := context.Background()
	good := "<current_focus>a</current_focus>"
	// A short summary of long messages: no warning.
	long := sess(
		msg(kompact.RoleUser, "u1", strings.Repeat("long question ", 40)),
		msg(kompact.RoleAssistant, "a1", strings.Repeat("long answer ", 40)),
		msg(kompact.RoleUser, "u2", "q"), msg(kompact.RoleAssistant, "a2", "a"),
	)
	out := (&service.Compactor{LLM: &testllm.LLM{Answer: testllm.Reply(good)}}).Execute(ctx, testllm.Agent(), long, kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
	if out.Status != kompact.OutcomeCompacted || len(out.Warnings()) != 0 {
		t.Fatalf("outcome %+v, warnings %v", out, out.Warnings())
	}
	data, _ := json.Marshal(out)
	if !strings.Contains(string(data), `"warnings":[]`) {
		t.Errorf("a result's JSON lacks an empty warnings list: %s", data)
	}

	// No sections and a summary longer than what it replaces.
	out = (&service.Compactor{LLM: &testllm.LLM{Answer: testllm.Reply(strings.Repeat("chatter ", 200))}}).Execute(ctx, testllm.Agent(), conversation(), kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
	if got := warningCodes(out.Warnings()); got != "all_sections_missing,tokens_not_reduced" {
		t.Fatalf("warnings %q", got)
	}
	if w := out.Warnings()[1].Message; !strings.Contains(w, "tokens before") {
		t.Errorf("message %q", w)
	}
	data, _ = json.Marshal(out)
	if !strings.Contains(string(data), `"warnings":[{"code":"all_sections_missing","message":`) {
		t.Errorf("outcome JSON %s", data)
	}

	// Dropped to fit the context window.
	llm := &testllm.LLM{Answer: func(n int, msgs []kompact.Message) (kompact.Answer, error) {
		if countHeaders(msgs[1]) > 2 {
			return kompact.Answer{}, kompact.Errorf(kompact.ELLM, "too long: %w", kompact.ErrContextTooLong)
		}
		return testllm.Reply(good)(n, msgs)
	}}
	out = (&service.Compactor{LLM: llm}).Execute(ctx, testllm.Agent(), long, kompact.ActionRequest{Action: kompact.ActionCompactConversation, End: "a2"}, nil)
	if got := warningCodes(out.Warnings()); got != "dropped_messages" || !strings.Contains(out.Warnings()[0].Message, "2 of the 4 compacted messages") {
		t.Fatalf("warnings %+v", out.Warnings())
	}

	// No result, no warnings, no key.
	data, _ = json.Marshal(kompact.Outcome{Status: kompact.OutcomeNoop, Reason: "r"})
	if strings.Contains(string(data), "warnings") {
		t.Errorf("noop JSON %s", data)
	}
}

// TestSummaryOnlyRangeIsNoop: a range that holds only an earlier summary
// (beside the kept system message) is a no-op with that reason, and makes
// no LLM call.
func TestSummaryOnlyRangeIsNoop(t *testing.T) {
	summary := msg(kompact.RoleUser, "sum", kompact.SummaryPrefix+"\n<current_focus>x</current_focus>")
	kimiForm := msg(kompact.RoleUser, "sum", kompact.SummaryPrefix, "<current_focus>x</current_focus>")
	for _, s := range []*kompact.Session{
		sess(msg(kompact.RoleSystem, "sys", "be nice"), summary, msg(kompact.RoleUser, "u", "q"), msg(kompact.RoleAssistant, "a", "a")),
		sess(kimiForm, msg(kompact.RoleUser, "u", "q"), msg(kompact.RoleAssistant, "a", "a")),
	} {
		llm := &testllm.LLM{Answer: testllm.Reply("S")}
		out := (&service.Compactor{LLM: llm}).Execute(context.Background(), testllm.Agent(), s, kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
		if out.Status != kompact.OutcomeNoop || !strings.Contains(out.Reason, `message "sum" is an earlier summary`) || len(llm.Requests) != 0 {
			t.Errorf("outcome %+v after %d requests", out, len(llm.Requests))
		}
	}
	// A summary with a message after it in the range is compacted.
	s := sess(summary, msg(kompact.RoleUser, "u1", "q1"), msg(kompact.RoleUser, "u", "q"), msg(kompact.RoleAssistant, "a", "a"))
	out := (&service.Compactor{LLM: &testllm.LLM{Answer: testllm.Reply("S")}}).Execute(context.Background(), testllm.Agent(), s, kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
	if out.Status != kompact.OutcomeCompacted {
		t.Errorf("outcome %+v", out)
	}
}

// TestDroppedWarningCountsOnce (issue 40 §3): with a kept leading system
// message, which the request shows (compacted_messages counts it) but the
// summary does not replace (replaced_messages does not), the
// dropped_messages warning counts the range as the report does ("compacted
// N messages" is replaced_messages): one count in the text.
func TestDroppedWarningCountsOnce(t *testing.T) {
	good := "<current_focus>a</current_focus>"
	s := sess(
		msg(kompact.RoleSystem, "sys", "You are an agent."),
		msg(kompact.RoleUser, "u1", strings.Repeat("long question ", 40)),
		msg(kompact.RoleAssistant, "a1", strings.Repeat("long answer ", 40)),
		msg(kompact.RoleUser, "u2", "q"), msg(kompact.RoleAssistant, "a2", "a"),
		msg(kompact.RoleUser, "u3", "q"), msg(kompact.RoleAssistant, "a3", "a"),
	)
	llm := &testllm.LLM{Answer: func(n int, msgs []kompact.Message) (kompact.Answer, error) {
		for _, m := range msgs {
			if countHeaders(m) > 2 {
				return kompact.Answer{}, kompact.Errorf(kompact.ELLM, "too long: %w", kompact.ErrContextTooLong)
			}
		}
		return testllm.Reply(good)(n, msgs)
	}}
	out := (&service.Compactor{LLM: llm}).Execute(context.Background(), testllm.Agent(), s, kompact.ActionRequest{Action: kompact.ActionCompactConversation, End: "a2"}, nil)
	if out.Result == nil {
		t.Fatalf("outcome %+v", out)
	}
	r := out.Result
	if r.Compacted != r.Replaced()+1 || r.Dropped() == 0 {
		t.Fatalf("compacted %d, replaced %d, dropped %d: want the system message counted in compacted only, and some dropped", r.Compacted, r.Replaced(), r.Dropped())
	}
	want := fmt.Sprintf("%d of the %d compacted messages were left out", r.Dropped(), r.Replaced())
	if ws := out.Warnings(); warningCodes(ws) != "dropped_messages" || !strings.Contains(ws[0].Message, want) {
		t.Errorf("warnings %+v; want %q", ws, want)
	}
}
