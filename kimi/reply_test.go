package kimi_test

import (
	"context"
	"testing"

	"kompact"
	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/testllm"
	"kompact/kimi"
)

// TestReplyRefusesBlankText: a chat reply whose text parts are only white
// space (by Python's rules, as for compaction answers) holds no reply
// text, whatever comes with it: with thinking it is the think-only error,
// with a tool call the tool-call error, alone the empty-reply error. The
// answers come over HTTP from the fake LLM through the real client, so
// the blank text reaches Reply as the provider sent it.
func TestReplyRefusesBlankText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		reply fakellm.Reply
		want  string
	}{
		{"thinking and blank text", fakellm.Answer(fakellm.Think("let me think"), fakellm.Text(" \n\t")), kimi.ThinkOnlyReplyMessage},
		{"blank text and a tool call", fakellm.Answer(fakellm.Text("  "), fakellm.Call(0, "call_1", "search", `{}`)), kimi.ToolCallReplyMessage},
		{"Python-only white space and thinking", fakellm.Answer(fakellm.Text("\x1c\x1f"), fakellm.Think("hmm")), kimi.ThinkOnlyReplyMessage},
		{"blank text alone", fakellm.Answer(fakellm.Text("\u3000 \n")), kimi.EmptyReplyMessage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := fakellm.New(t)
			srv.SetFunc(func(fakellm.Request) fakellm.Reply { return tc.reply })
			history := []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("hi")}}}
			reply, _, err := kimi.ReplyWithUsage(context.Background(), testllm.Client(), testllm.HTTPAgent(srv.URL()), history)
			if kompact.ErrorCodeOf(err) != kompact.EEmptyResponse || err.Error() != tc.want {
				t.Fatalf("reply %+v, error %v; want EEmptyResponse %q", reply, err, tc.want)
			}
		})
	}
}

// TestReplyKeepsTextWithThinking: a reply with text that is not blank is
// appended with its thinking, as before.
func TestReplyKeepsTextWithThinking(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(t)
	srv.SetFunc(func(fakellm.Request) fakellm.Reply {
		return fakellm.Answer(fakellm.Think("hmm"), fakellm.Text(" \u200b "))
	})
	reply, err := kimi.Reply(context.Background(), testllm.Client(), testllm.HTTPAgent(srv.URL()), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(reply.Content) != 2 || reply.Content[0].Type != kompact.PartThink || reply.Content[1].Text != " \u200b " {
		t.Fatalf("reply %+v", reply)
	}
}

// TestAnswerChecksAgree: compaction answers (CheckAnswer) and chat replies
// (Reply) classify an answer alike; they differ only in blank text alone,
// which a compaction accepts as kimi-cli does (parity vector 041) and a
// chat reply refuses, since it would append a blank message.
func TestAnswerChecksAgree(t *testing.T) {
	think, blank, text := kompact.ThinkPart("hmm"), kompact.TextPart(" \n"), kompact.TextPart("ok")
	call := []kompact.ToolCall{{ID: "c", Name: "f"}}
	for _, tc := range []struct {
		name             string
		a                kompact.Answer
		compaction, chat string // "" for accepted
	}{
		{"text", kompact.Answer{Parts: []kompact.Part{text}}, "", ""},
		{"text, thinking and a tool call", kompact.Answer{Parts: []kompact.Part{think, blank, text}, ToolCalls: call}, "", ""},
		{"a tool call", kompact.Answer{ToolCalls: call}, kimi.ToolCallOnlyMessage, kimi.ToolCallReplyMessage},
		{"blank text, thinking and a tool call", kompact.Answer{Parts: []kompact.Part{blank, think}, ToolCalls: call}, kimi.ToolCallOnlyMessage, kimi.ToolCallReplyMessage},
		{"thinking", kompact.Answer{Parts: []kompact.Part{think}}, kimi.ThinkOnlyMessage, kimi.ThinkOnlyReplyMessage},
		{"thinking and blank text", kompact.Answer{Parts: []kompact.Part{think, blank}}, kimi.ThinkOnlyMessage, kimi.ThinkOnlyReplyMessage},
		{"blank text", kompact.Answer{Parts: []kompact.Part{blank, blank}}, "", kimi.EmptyReplyMessage},
		{"nothing", kompact.Answer{}, kimi.EmptyResponseMessage, kimi.EmptyReplyMessage},
	} {
		check := func(surface string, err error, want string) {
			t.Helper()
			switch {
			case want == "" && err != nil:
				t.Errorf("%s, %s: %v, want it accepted", tc.name, surface, err)
			case want != "" && (err == nil || err.Error() != want || kompact.ErrorCodeOf(err) != kompact.EEmptyResponse):
				t.Errorf("%s, %s: %v, want EEmptyResponse %q", tc.name, surface, err, want)
			}
		}
		check("compaction", kimi.CheckAnswer(tc.a), tc.compaction)
		llm := &testllm.LLM{Answer: func(int, []kompact.Message) (kompact.Answer, error) { return tc.a, nil }}
		_, err := kimi.Reply(context.Background(), llm, testllm.Agent(), nil)
		check("chat", err, tc.chat)
	}
}
