package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/testllm"
	"kompact/kimi"
	"kompact/service"
)

func TestKCP012UIElements(t *testing.T) {
	both := []string{kompact.ActionCompactConversation, kompact.ActionCompactUpToHere, kompact.ActionPruneToolResults}
	idsOf := func(els []kompact.UIElement) []string {
		var out []string
		for _, e := range els {
			out = append(out, e.ID)
		}
		return out
	}
	disabled := testllm.Agent()
	disabled.Compaction.Enabled = false
	otherType := testllm.Agent()
	otherType.Compaction.Type = "claude"
	noType := testllm.Agent()
	noType.Compaction.Type = ""
	for _, tc := range []struct {
		name  string
		agent *kompact.Agent
		want  []string
	}{
		{"global enumeration (no config) lists all three", nil, both},
		{"enabled kimi agent lists all three", testllm.Agent(), both},
		{"disabled agent lists none", disabled, nil},
		{"type not kimi lists none", otherType, nil},
		{"no type lists none", noType, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			els := kompact.UIElements(tc.agent)
			if els == nil {
				t.Fatal("UIElements returned nil; want an empty list")
			}
			if got := strings.Join(idsOf(els), ","); got != strings.Join(tc.want, ",") {
				t.Fatalf("elements %q, want %q", got, strings.Join(tc.want, ","))
			}
		})
	}
	els := kompact.UIElements(nil)
	if els[0].Label != "Compact conversation" || els[0].Kind != "session_action" ||
		els[1].Label != "Compact up to here" || els[1].Kind != "message_action" {
		t.Errorf("labels/kinds: %+v", els)
	}
	b, _ := json.Marshal(els[1])
	if !strings.Contains(string(b), `"name":"message_id","type":"message_id","required":true`) {
		t.Errorf("compact_up_to_here must take a required message_id: %s", b)
	}
}

func TestKCP013DisabledActionsError(t *testing.T) {
	disabled := testllm.Agent()
	disabled.Compaction.Enabled = false
	otherType := testllm.Agent()
	otherType.Compaction.Type = "gemini"
	llm := &testllm.LLM{Answer: testllm.Reply("S")}
	c := &service.Compactor{LLM: llm}
	for _, a := range []*kompact.Agent{disabled, otherType, nil} {
		for _, req := range []kompact.ActionRequest{
			{Action: kompact.ActionCompactConversation},
			{Action: kompact.ActionCompactUpToHere, MessageID: "u2"},
		} {
			s := conversation()
			before, _ := json.Marshal(s)
			out := c.Execute(context.Background(), a, s, req, nil)
			if out.Status != kompact.OutcomeError || out.Err == nil || out.Err.Code != kompact.EDisabled {
				t.Fatalf("agent %+v, %s: outcome %+v, want a disabled error", a, req.Action, out)
			}
			if after, _ := json.Marshal(s); string(after) != string(before) {
				t.Fatal("the session changed")
			}
			b, _ := json.Marshal(out)
			if !strings.Contains(string(b), `"status":"error","error":{"code":"disabled"`) {
				t.Errorf("outcome JSON %s", b)
			}
		}
	}
	if len(llm.Requests) != 0 {
		t.Fatalf("a disabled agent made %d LLM calls", len(llm.Requests))
	}
}

func TestKCP014ActionUsesMergedConfig(t *testing.T) {
	a := testllm.Agent()
	a.LLM.Settings = map[string]any{"temperature": 0.6, "max_tokens": 1000}
	a.Compaction.SettingsOverrides = map[string]any{"temperature": 0.1, "tools": []any{"x"}, "tool_choice": "auto", "model": "override-model"}
	a.Compaction.CompactionModel = "agent-compaction-model"
	n := 1
	a.Compaction.MaxPreservedMessages = &n
	for _, tc := range []struct {
		sessionModel, want string
	}{{"", "agent-compaction-model"}, {"session-model", "session-model"}} {
		llm := &testllm.LLM{Answer: testllm.Reply("S")}
		s := conversation()
		s.CompactionModel = tc.sessionModel
		out := (&service.Compactor{LLM: llm}).Execute(context.Background(), a, s, kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
		if out.Status != kompact.OutcomeCompacted {
			t.Fatalf("outcome %+v", out)
		}
		cfg := llm.Configs[0]
		if cfg.Model != tc.want || out.Model != tc.want {
			t.Errorf("model %q (outcome %q), want %q", cfg.Model, out.Model, tc.want)
		}
		if cfg.Fields["temperature"] != 0.1 || cfg.Fields["max_tokens"] != 1000 {
			t.Errorf("fields %v", cfg.Fields)
		}
		for _, k := range []string{"tools", "tool_choice", "model"} {
			if _, ok := cfg.Fields[k]; ok {
				t.Errorf("field %q survived the merge", k)
			}
		}
		// max_preserved_messages 1 from the agent: only a3 is preserved.
		if got := ids(out.Result.Session.Messages); got != "sys,<user>,a3" {
			t.Errorf("session %s", got)
		}
	}
}

func TestActionsOutcomes(t *testing.T) {
	llm := &testllm.LLM{Answer: testllm.Reply("<current_focus>x</current_focus>")}
	c := &service.Compactor{LLM: llm}
	ctx := context.Background()

	out := c.Execute(ctx, testllm.Agent(), conversation(), kompact.ActionRequest{Action: kompact.ActionCompactUpToHere, MessageID: "a1"}, nil)
	if out.Status != kompact.OutcomeCompacted || ids(out.Result.Session.Messages) != "sys,<user>,u2,a2,u3,a3" {
		t.Fatalf("compact_up_to_here a1: %+v", out)
	}
	if out.Result.Compacted != 3 || out.Result.Preserved != 4 || len(out.Result.MissingSections) != 5 {
		t.Errorf("counts: compacted %d preserved %d missing %v", out.Result.Compacted, out.Result.Preserved, out.Result.MissingSections)
	}
	b, _ := json.Marshal(out)
	for _, want := range []string{`"status":"compacted"`, `"model":"chat-model"`, `"compacted_messages":3`, `"missing_sections":["environment"`, `"prompt":{"source":"builtin","genuine":false}`, `"usage":{"input_other":100,"output":20`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("outcome JSON lacks %s: %s", want, b)
		}
	}

	out = c.Execute(ctx, testllm.Agent(), sess(msg("user", "u")), kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
	if out.Status != kompact.OutcomeNoop || out.Reason == "" || out.Err != nil || out.Result != nil {
		t.Fatalf("no-op: %+v", out)
	}
	if b, _ := json.Marshal(out); !strings.HasPrefix(string(b), `{"status":"noop","reason":`) {
		t.Errorf("noop JSON %s", b)
	}

	for _, tc := range []struct {
		name string
		req  kompact.ActionRequest
		code kompact.ErrorCode
	}{
		{"unknown action", kompact.ActionRequest{Action: "summarize"}, kompact.EInvalid},
		{"up to here without anchor", kompact.ActionRequest{Action: kompact.ActionCompactUpToHere}, kompact.EInvalid},
		{"up to here with a range", kompact.ActionRequest{Action: kompact.ActionCompactUpToHere, MessageID: "a1", End: "a2"}, kompact.EInvalid},
		{"unknown anchor", kompact.ActionRequest{Action: kompact.ActionCompactUpToHere, MessageID: "zz"}, kompact.ENotFound},
		{"reversed range", kompact.ActionRequest{Action: kompact.ActionCompactConversation, Start: "a2", End: "u1"}, kompact.EInvalid},
	} {
		out := c.Execute(ctx, testllm.Agent(), conversation(), tc.req, nil)
		if out.Status != kompact.OutcomeError || out.Err.Code != tc.code || out.Err.Message == "" {
			t.Errorf("%s: %+v, want %s", tc.name, out, tc.code)
		}
	}

	// LLM failures keep their code; foreign errors become internal.
	for _, tc := range []struct {
		err  error
		code kompact.ErrorCode
	}{
		{kompact.Errorf(kompact.ELLM, "provider said 500"), kompact.ELLM},
		{errors.New("boom"), kompact.EInternal},
	} {
		failing := &testllm.LLM{Answer: func(int, []kompact.Message) (kompact.Answer, error) { return kompact.Answer{}, tc.err }}
		out := (&service.Compactor{LLM: failing}).Execute(ctx, testllm.Agent(), conversation(), kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
		if out.Status != kompact.OutcomeError || out.Err.Code != tc.code {
			t.Errorf("%v: %+v", tc.err, out)
		}
	}
	// An empty answer is empty_response.
	empty := &testllm.LLM{Answer: func(int, []kompact.Message) (kompact.Answer, error) { return kompact.Answer{}, nil }}
	out = (&service.Compactor{LLM: empty}).Execute(ctx, testllm.Agent(), conversation(), kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
	if out.Status != kompact.OutcomeError || out.Err.Code != kompact.EEmptyResponse || out.Err.Message != kimi.EmptyResponseMessage {
		t.Errorf("empty answer: %+v", out)
	}
}

func TestContextTooLongDropsOldest(t *testing.T) {
	// Too long while the request shows more than 2 messages.
	llm := &testllm.LLM{Answer: func(n int, msgs []kompact.Message) (kompact.Answer, error) {
		if countHeaders(msgs[1]) > 2 {
			return kompact.Answer{}, kompact.Errorf(kompact.ELLM, "400: maximum context length exceeded: %w", kompact.ErrContextTooLong)
		}
		return testllm.Reply("S")(n, msgs)
	}}
	var progress []kompact.Progress
	s := conversation() // 5 messages compacted by default
	out := (&service.Compactor{LLM: llm}).Execute(context.Background(), testllm.Agent(), s, kompact.ActionRequest{Action: kompact.ActionCompactConversation},
		func(p kompact.Progress) { progress = append(progress, p) })
	if out.Status != kompact.OutcomeCompacted {
		t.Fatalf("outcome %+v", out)
	}
	first, last := countHeaders(llm.Requests[0][1]), countHeaders(llm.Requests[len(llm.Requests)-1][1])
	if first != 5 || last != 2 || out.Result.Dropped() != first-last {
		t.Fatalf("headers %d -> %d, dropped %d", first, last, out.Result.Dropped())
	}
	// The summary still replaces the whole range.
	if got := ids(out.Result.Session.Messages); got != "sys,<user>,u3,a3" || out.Result.Compacted != 5 {
		t.Fatalf("session %s, compacted %d", got, out.Result.Compacted)
	}
	// The newest messages of the range are the ones kept in the request.
	if !strings.Contains(joinTexts(llm.Requests[len(llm.Requests)-1][1]), "second answer") {
		t.Error("the newest compacted message was dropped")
	}
	attempts := 0
	for _, p := range progress {
		if p.Round < attempts {
			t.Fatalf("requests went backwards: %+v", progress)
		}
		attempts = p.Round
	}
	if attempts != len(llm.Requests) || progress[len(progress)-1].Dropped != out.Result.Dropped() {
		t.Errorf("progress %+v for %d requests", progress, len(llm.Requests))
	}

	// Always too long: an llm_error that says so.
	always := &testllm.LLM{Answer: func(int, []kompact.Message) (kompact.Answer, error) {
		return kompact.Answer{}, kompact.Errorf(kompact.ELLM, "too long: %w", kompact.ErrContextTooLong)
	}}
	out = (&service.Compactor{LLM: always}).Execute(context.Background(), testllm.Agent(), conversation(), kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
	if out.Status != kompact.OutcomeError || out.Err.Code != kompact.ELLM || !strings.Contains(out.Err.Message, "even with only the newest 1 message of the range") {
		t.Fatalf("outcome %+v", out)
	}
	if got := countHeaders(always.Requests[len(always.Requests)-1][1]); got != 1 {
		t.Errorf("last request showed %d messages, want 1", got)
	}
}

func countHeaders(m kompact.Message) int {
	n := 0
	for _, p := range m.Content {
		if strings.HasPrefix(p.Text, "## Message ") {
			n++
		}
	}
	return n
}

func joinTexts(m kompact.Message) string {
	var b strings.Builder
	for _, p := range m.Content {
		b.WriteString(p.Text)
	}
	return b.String()
}

func TestToolPairsAreNotSplit(t *testing.T) {
	args := `{}`
	call := func(id string, callIDs ...string) kompact.Message {
		m := msg(kompact.RoleAssistant, id, "calling")
		for _, c := range callIDs {
			m.ToolCalls = append(m.ToolCalls, kompact.ToolCall{ID: c, Name: "f", Arguments: &args})
		}
		return m
	}
	result := func(id, callID string) kompact.Message {
		m := msg(kompact.RoleTool, id, "result")
		m.ToolCallID, m.HasToolCallID = callID, true
		return m
	}
	s := sess(
		msg(kompact.RoleUser, "u1", "go"),
		call("a1", "c1", "c2"),
		result("t1", "c1"),
		result("t2", "c2"),
		msg(kompact.RoleAssistant, "a2", "done"),
		msg(kompact.RoleUser, "u2", "next"),
		msg(kompact.RoleAssistant, "a3", "ok"),
	)
	for _, tc := range []struct {
		name       string
		start, end string
		want       string // "" = accepted
	}{
		{"end on the call", "", "a1", `End the range at message "t2" instead, or before message "a1"`},
		{"end between results", "", "t1", `End the range at message "t2" instead`},
		{"end after the results", "", "t2", ""},
		{"start on a result", "t1", "a2", `Start the range at message "a1" instead, or after message "t2"`},
		{"start on the call", "a1", "a2", ""},
		{"middle range around the pair", "a1", "t2", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := kimi.Prepare(s, kimi.Options{Start: tc.start, End: tc.end})
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if kompact.ErrorCodeOf(err) != kompact.EInvalid {
				t.Fatalf("error %v, want invalid_request", err)
			}
			if fixes := strings.Join(kompact.ErrorFixes(err), " "); !strings.Contains(fixes, tc.want) {
				t.Fatalf("fixes %q do not say %q (error: %v)", fixes, tc.want, err)
			}
		})
	}
}

// TestContextTooLongLargeRange: a long range shrinks until it fits, far
// beyond a handful of retries.
func TestContextTooLongLargeRange(t *testing.T) {
	var msgs []kompact.Message
	for i := 0; i < 2000; i++ {
		role := kompact.RoleUser
		if i%2 == 1 {
			role = kompact.RoleAssistant
		}
		msgs = append(msgs, msg(role, "", "m"+itoa(i)))
	}
	llm := &testllm.LLM{Answer: func(n int, req []kompact.Message) (kompact.Answer, error) {
		if countHeaders(req[1]) > 3 {
			return kompact.Answer{}, kompact.Errorf(kompact.ELLM, "too long: %w", kompact.ErrContextTooLong)
		}
		return testllm.Reply("S")(n, req)
	}}
	out := (&service.Compactor{LLM: llm}).Execute(context.Background(), testllm.Agent(), sess(msgs...), kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
	if out.Status != kompact.OutcomeCompacted || out.Result.Dropped() < 1995 || out.Result.Compacted != 1998 {
		t.Fatalf("outcome %s err %+v", out.Status, out.Err)
	}
}

// TestDisabledFixKeepsTheType: the fix for an agent whose compaction is off names the
// registered type it has (kimi-code), not kimi's; an unregistered one gets the default.
func TestDisabledFixKeepsTheType(t *testing.T) {
	for typ, want := range map[string]string{"kimi-code": "type: kimi-code}", "gemini": "type: kimi}", "": "type: kimi}"} {
		a := testllm.Agent()
		a.Compaction.Enabled, a.Compaction.Type = false, typ
		out := (&service.Compactor{LLM: &testllm.LLM{}}).Execute(context.Background(), a, conversation(), kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
		if out.Err == nil || len(out.Err.Fixes) != 1 || !strings.Contains(out.Err.Fixes[0], want) {
			t.Errorf("type %q: %+v, want a fix with %q", typ, out.Err, want)
		}
	}
}
