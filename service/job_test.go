package service_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/testllm"
	"kompact/kimi"
	"kompact/service"
)

// TestJobModelOverrideAndCommit: NewJob carries ActionRequest.Model into the
// request; the result derives its commit and its edited form from its plan.
func TestJobModelOverrideAndCommit(t *testing.T) {
	llm := &testllm.LLM{Answer: testllm.Reply("S")}
	c := &service.Compactor{LLM: llm}
	s := conversation()
	job, err := c.NewJob(testllm.Agent(), s, kompact.ActionRequest{Action: kompact.ActionCompactConversation, Start: "u2", End: "a2", Model: "one-run-model"})
	if err != nil {
		t.Fatal(err)
	}
	if job.Config.Model != "one-run-model" || job.Plan.About().Noop {
		t.Fatalf("job %+v", job)
	}
	out := job.Run(context.Background(), nil)
	if out.Status != kompact.OutcomeCompacted || out.Model != "one-run-model" || llm.Configs[0].Model != "one-run-model" {
		t.Fatalf("outcome %+v, sent to %s", out, llm.Configs[0].Model)
	}
	res := out.Result
	cm := res.Commit()
	if cm.End != 5 || ids(cm.Replacement) != "sys,u1,a1,<user>" || len(cm.Base) != len(s.Messages) || cm.Kind != kompact.RevisionCompaction || cm.Note != "compacted 2 messages" {
		t.Fatalf("commit end %d replacement %s note %q", cm.End, ids(cm.Replacement), cm.Note)
	}

	edited := kimi.WithSummary(res, "<current_focus>\nedited\n</current_focus>")
	if got := edited.Session.Messages[3].Content[0].Text; got != kompact.SummaryPrefix+"\n<current_focus>\nedited\n</current_focus>" {
		t.Errorf("edited summary message %q", got)
	}
	if edited.Summary == res.Summary || len(edited.MissingSections) != 5 || res.Session.Messages[3].Content[0].Text != kompact.SummaryPrefix+"\nS" {
		t.Errorf("edit: %q, missing %v; the original changed: %q", edited.Summary, edited.MissingSections, res.Session.Messages[3].Content[0].Text)
	}
	if k := edited.KimiMessages[3]; len(k.Content) != 2 || k.Content[1].Text != edited.Summary {
		t.Errorf("kimi summary %+v", k)
	}
	if ids(edited.Commit().Replacement) != "sys,u1,a1,<user>" || edited.Commit().Replacement[3].Content[0].Text != edited.Session.Messages[3].Content[0].Text {
		t.Error("the edited result commits the original summary")
	}

	// A no-op job makes no call.
	job, err = c.NewJob(testllm.Agent(), sess(msg("user", "u", "hi")), kompact.ActionRequest{Action: kompact.ActionCompactConversation})
	if err != nil {
		t.Fatal(err)
	}
	if out := job.Run(context.Background(), nil); out.Status != kompact.OutcomeNoop || len(llm.Requests) != 1 {
		t.Errorf("no-op outcome %+v after %d requests", out, len(llm.Requests))
	}
}

func TestRequestFieldTable(t *testing.T) {
	for name, want := range map[string]kompact.FieldKind{
		"frequency_penalty": kompact.FieldSetting, "temperature": kompact.FieldOwn, "model": kompact.FieldModel,
		"tools": kompact.FieldTool, "tool_choice": kompact.FieldTool, "parallel_tool_calls": kompact.FieldTool,
		"n": kompact.FieldReserved, "stream": kompact.FieldReserved, "messages": kompact.FieldReserved,
	} {
		if got := kompact.RequestField(name); got != want {
			t.Errorf("RequestField(%q) = %d, want %d", name, got, want)
		}
	}
	a := testllm.Agent()
	a.LLM.Settings = map[string]any{"temperature": 0.5, "n": 3, "tool_choice": "auto", "thinking": true}
	a.Compaction.SettingsOverrides = map[string]any{"parallel_tool_calls": true, "stream_options": 1}
	for name, rc := range map[string]kompact.RequestConfig{"compaction": service.EffectiveRequest(a, nil), "chat": kompact.ChatRequest(a)} {
		if len(rc.Fields) != 2 || rc.Fields["temperature"] != 0.5 || rc.Fields["thinking"] != true {
			t.Errorf("%s request fields %v", name, rc.Fields)
		}
	}
}

// TestReply: a chat reply sends the agent's system prompt and the history,
// keeps text and think parts, and refuses an answer without text with its
// own error, not the compaction answer's.
func TestReply(t *testing.T) {
	a := testllm.Agent()
	a.SystemPrompt = "You are kimi."
	llm := &testllm.LLM{Answer: func(int, []kompact.Message) (kompact.Answer, error) {
		return kompact.Answer{Parts: []kompact.Part{kompact.ThinkPart("hmm"), kompact.TextPart("hello")}}, nil
	}}
	reply, err := kimi.Reply(context.Background(), llm, a, []kompact.Message{msg("user", "u1", "hi")})
	if err != nil {
		t.Fatal(err)
	}
	if reply.Role != kompact.RoleAssistant || len(reply.Content) != 2 || reply.Content[1].Text != "hello" {
		t.Errorf("reply %+v", reply)
	}
	if sent := llm.Requests[0]; len(sent) != 2 || sent[0].Role != kompact.RoleSystem || sent[0].Content[0].Text != "You are kimi." || llm.Configs[0].Model != "chat-model" {
		t.Errorf("sent %+v to %s", sent, llm.Configs[0].Model)
	}
	for want, answer := range map[string]kompact.Answer{
		kimi.EmptyReplyMessage:     {},
		kimi.ThinkOnlyReplyMessage: {Parts: []kompact.Part{kompact.ThinkPart("hmm")}},
		kimi.ToolCallReplyMessage:  {ToolCalls: []kompact.ToolCall{{ID: "c", Name: "f"}}},
	} {
		llm.Answer = func(int, []kompact.Message) (kompact.Answer, error) { return answer, nil }
		_, err := kimi.Reply(context.Background(), llm, a, nil)
		if kompact.ErrorCodeOf(err) != kompact.EEmptyResponse || err.Error() != want {
			t.Errorf("%v, want %q", err, want)
		}
		if fixes := strings.Join(kompact.ErrorFixes(err), " "); strings.Contains(fixes, "compaction") {
			t.Errorf("the fix of a chat reply talks about compaction: %s", fixes)
		}
	}
	if _, err := kimi.Reply(context.Background(), nil, a, nil); kompact.ErrorCodeOf(err) != kompact.EInternal {
		t.Errorf("no LLM: %v", err)
	}
}

// TestJobEstimatesTokensWhileTheLLMWorks: the session's token estimate,
// made on another goroutine while the request is out, is EstimateTokens'
// figure, and Run leaves nothing reading the session once it returns: the
// caller may change it at once (the race detector checks), on success and
// on failure.
func TestJobEstimatesTokensWhileTheLLMWorks(t *testing.T) {
	long := func() *kompact.Session {
		s := conversation()
		for i := range 2000 {
			s.Messages = append(s.Messages, msg("user", "x"+strconv.Itoa(i), strings.Repeat("words to count ", 20)))
		}
		return s
	}
	for _, fail := range []bool{false, true} {
		s := long()
		want := kompact.EstimateTokens(s.Messages)
		llm := &testllm.LLM{Answer: testllm.Reply("S")}
		if fail {
			llm.Answer = func(int, []kompact.Message) (kompact.Answer, error) {
				return kompact.Answer{}, kompact.Errorf(kompact.ELLM, "down")
			}
		}
		job, err := (&service.Compactor{LLM: llm}).NewJob(testllm.Agent(), s, kompact.ActionRequest{Action: kompact.ActionCompactConversation})
		if err != nil {
			t.Fatal(err)
		}
		out := job.Run(context.Background(), nil)
		for i := range s.Messages {
			s.Messages[i].Content = nil
		}
		if fail != (out.Status == kompact.OutcomeError) {
			t.Fatalf("outcome %+v", out)
		}
		if !fail && out.Result.TokensBefore != want {
			t.Errorf("tokens before %d, want %d", out.Result.TokensBefore, want)
		}
	}
}
