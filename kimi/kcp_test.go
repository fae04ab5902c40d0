package kimi_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/testkimi"
	"kompact/internal/testing/testmsg"
	"kompact/kimi"
)

// The messages and sessions the tests build (internal/testing/testmsg).
var (
	msg          = testmsg.Msg
	sess         = testmsg.Session
	conversation = testmsg.Conversation
	ids          = testmsg.IDs
)

// headers returns the roles named by the request's "## Message N" headers.
func headers(t *testing.T, req kompact.Message) []string {
	t.Helper()
	var roles []string
	for _, p := range req.Content[:len(req.Content)-1] {
		if strings.HasPrefix(p.Text, "## Message ") {
			n := len(roles) + 1
			prefix := "## Message " + itoa(n) + "\nRole: "
			if !strings.HasPrefix(p.Text, prefix) || !strings.HasSuffix(p.Text, "\nContent:\n") {
				t.Fatalf("header %q is not ## Message %d", p.Text, n)
			}
			roles = append(roles, strings.TrimSuffix(strings.TrimPrefix(p.Text, prefix), "\nContent:\n"))
		}
	}
	return roles
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestKCP001RequestHasTwoMessages(t *testing.T) {
	p := testkimi.Prepare(t, conversation(), kimi.Options{MaxPreserved: 2})
	rm := p.RequestMessages()
	if len(rm) != 2 {
		t.Fatalf("%d request messages, want 2", len(rm))
	}
	if rm[0].Role != kompact.RoleSystem || len(rm[0].Content) != 1 ||
		rm[0].Content[0].Text != "You are a helpful assistant that compacts conversation context." {
		t.Errorf("system message %+v", rm[0])
	}
	if rm[1].Role != kompact.RoleUser || len(rm[1].ToolCalls) != 0 {
		t.Errorf("second message is not the synthetic user message: %+v", rm[1])
	}
	if noop := testkimi.Prepare(t, sess(), kimi.Options{MaxPreserved: 2}); noop.RequestMessages() != nil {
		t.Error("a no-op has request messages")
	}
}

func TestKCP002TranscriptBlocks(t *testing.T) {
	s := conversation()
	p := testkimi.Prepare(t, s, kimi.Options{MaxPreserved: 2, Prompt: kompact.Prompt{Body: "PROMPT", Source: kompact.PromptInline}})
	req := p.Transcript
	want := []string{
		"## Message 1\nRole: system\nContent:\n", "You are an agent.",
		"## Message 2\nRole: user\nContent:\n", "first question",
		"## Message 3\nRole: assistant\nContent:\n", "first answer",
		"## Message 4\nRole: user\nContent:\n", "second question",
		"## Message 5\nRole: assistant\nContent:\n", "second answer",
		"\nPROMPT",
	}
	if len(req.Content) != len(want) {
		t.Fatalf("%d parts, want %d", len(req.Content), len(want))
	}
	for i, w := range want {
		if req.Content[i].Type != kompact.PartText || req.Content[i].Text != w {
			t.Errorf("part %d = %q, want %q", i, req.Content[i].Text, w)
		}
	}
	// The leading system message is in the transcript and stays first.
	res, err := p.Apply(testkimi.Answer("S"))
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(res.Session.Messages); got != "sys,<user>,u3,a3" {
		t.Errorf("compacted session %s, want sys,<user>,u3,a3", got)
	}
	if got := ids(res.KimiMessages); got != "<user>,u3,a3" {
		t.Errorf("kimi-cli form %s, want <user>,u3,a3 (kimi-cli compacts the system message away)", got)
	}
}

func TestKCP003TextOnly(t *testing.T) {
	enc := "sig"
	id := "img"
	s := sess(
		kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{
			kompact.TextPart("look"),
			{Type: kompact.PartImage, URL: "https://x/cat.png", MediaID: &id},
			{Type: kompact.PartAudio, URL: "https://x/a.mp3"},
			{Type: kompact.PartVideo, URL: "ms://v"},
			{Type: kompact.PartThink, Think: "secret reasoning", Encrypted: &enc},
		}},
		kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart("calling")},
			ToolCalls: []kompact.ToolCall{{ID: "c1", Name: "read_asset", Arguments: strPtr(`{"asset":"A-42"}`)}}},
		kompact.Message{Role: kompact.RoleTool, ToolCallID: "c1", HasToolCallID: true, Content: []kompact.Part{
			kompact.TextPart("tool says hi"),
			{Type: kompact.PartData, Data: []byte(`{"asset_ref":"A-42"}`)},
		}},
		msg(kompact.RoleUser, "", "q"),
		msg(kompact.RoleAssistant, "", "a"),
	)
	p := testkimi.Prepare(t, s, kimi.Options{MaxPreserved: 2})
	var texts []string
	for _, part := range p.Transcript.Content[:len(p.Transcript.Content)-1] {
		if part.Type != kompact.PartText {
			t.Fatalf("non-text part %s in the request", part.Type)
		}
		if !strings.HasPrefix(part.Text, "## Message ") {
			texts = append(texts, part.Text)
		}
	}
	if got := strings.Join(texts, "|"); got != "look|calling|tool says hi" {
		t.Errorf("request texts %q, want look|calling|tool says hi", got)
	}
	b, _ := json.Marshal(p.Transcript)
	for _, leaked := range []string{"cat.png", "a.mp3", "ms://v", "secret reasoning", "A-42", "read_asset"} {
		if strings.Contains(string(b), leaked) {
			t.Errorf("request leaks %q: %s", leaked, b)
		}
	}
	if got := headers(t, p.Transcript); strings.Join(got, ",") != "user,assistant,tool" {
		t.Errorf("headers %v", got)
	}
}

func TestKCP005PreservedTail(t *testing.T) {
	tool := kompact.Message{Role: kompact.RoleTool, ID: "t", ToolCallID: "x", HasToolCallID: true, Content: []kompact.Part{kompact.TextPart("r")}}
	for _, tc := range []struct {
		name      string
		s         *kompact.Session
		n         int
		compacted string
		preserved string
	}{
		{"default keeps the last two", conversation(), kompact.DefaultMaxPreserved, "sys,u1,a1,u2,a2", "u3,a3"},
		{"one", conversation(), 1, "sys,u1,a1,u2,a2,u3", "a3"},
		{"four", conversation(), 4, "sys,u1,a1", "u2,a2,u3,a3"},
		{"tool messages are not counted", sess(msg("user", "u1"), msg("assistant", "a1"), msg("user", "u2"), msg("assistant", "a2"), tool), 2, "u1,a1", "u2,a2,t"},
		{"system messages are not counted", sess(msg("user", "u1"), msg("assistant", "a1"), msg("system", "s2"), msg("user", "u2")), 2, "u1", "a1,s2,u2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := testkimi.Prepare(t, tc.s, kimi.Options{MaxPreserved: tc.n})
			if p.Noop {
				t.Fatalf("no-op: %s", p.Reason)
			}
			if got := ids(p.Compacted()); got != tc.compacted {
				t.Errorf("compacted %s, want %s", got, tc.compacted)
			}
			if got := ids(p.Preserved()); got != tc.preserved {
				t.Errorf("preserved %s, want %s", got, tc.preserved)
			}
		})
	}
	for _, n := range []int{0, -1, -100} {
		p := testkimi.Prepare(t, conversation(), kimi.Options{MaxPreserved: n})
		if !p.Noop || !strings.Contains(p.Reason, "max_preserved_messages") {
			t.Errorf("max_preserved_messages=%d: noop=%v reason=%q", n, p.Noop, p.Reason)
		}
	}
}

func TestKCP006NoopWhenTooFew(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    *kompact.Session
		n    int
	}{
		{"empty", sess(), 2},
		{"one message", sess(msg("user", "u")), 2},
		{"exactly n", sess(msg("user", "u"), msg("assistant", "a")), 2},
		{"no user or assistant message", sess(msg("system", "s"), msg("tool", "t")), 1},
		{"n larger than history", conversation(), 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := testkimi.Prepare(t, tc.s, kimi.Options{MaxPreserved: tc.n, Instructions: "ignored"})
			if !p.Noop || p.Reason == "" {
				t.Fatalf("want a no-op with a reason, got range %d..%d", p.Start, p.End)
			}
			if ids(p.Preserved()) != ids(tc.s.Messages) {
				t.Errorf("a no-op must preserve everything")
			}
			if _, err := p.Apply(testkimi.Answer("x")); kompact.ErrorCodeOf(err) != kompact.EInvalid {
				t.Errorf("Apply on a no-op: %v", err)
			}
		})
	}
	// With the last user message preserved, the system and tool messages
	// before it are compacted, as in kimi-cli.
	p := testkimi.Prepare(t, sess(msg("system", "s"), msg("tool", "t"), msg("user", "u")), kimi.Options{MaxPreserved: 1})
	if p.Noop || ids(p.Compacted()) != "s,t" {
		t.Errorf("[system, tool, user] with N=1: noop=%v compacted=%s", p.Noop, ids(p.Compacted()))
	}
}

func TestKCP007ExplicitRange(t *testing.T) {
	for _, tc := range []struct {
		name              string
		start, end        string
		kept, result, req string
	}{
		{"prefix up to here", "", "a2", "", "sys,<user>,u3,a3", "system,user,assistant,user,assistant"},
		{"prefix ending on the last message", "", "a3", "", "sys,<user>", "system,user,assistant,user,assistant,user,assistant"},
		{"middle range keeps both sides", "u2", "a2", "sys,u1,a1", "sys,u1,a1,<user>,u3,a3", "user,assistant"},
		{"single message", "u1", "u1", "sys", "sys,<user>,a1,u2,a2,u3,a3", "user"},
		{"by position", "#2", "#3", "sys", "sys,<user>,u2,a2,u3,a3", "user,assistant"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := testkimi.Prepare(t, conversation(), kimi.Options{MaxPreserved: 2, Start: tc.start, End: tc.end})
			if p.Noop {
				t.Fatalf("no-op: %s", p.Reason)
			}
			if got := strings.Join(headers(t, p.Transcript), ","); got != tc.req {
				t.Errorf("transcript roles %s, want %s", got, tc.req)
			}
			res, err := p.Apply(testkimi.Answer("S"))
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(res.Session.Messages); got != tc.result {
				t.Errorf("result %s, want %s", got, tc.result)
			}
		})
	}
	// An explicit end ignores max_preserved_messages, even <= 0.
	p := testkimi.Prepare(t, conversation(), kimi.Options{MaxPreserved: 0, End: "u1"})
	if p.Noop {
		t.Fatalf("explicit end with max_preserved 0 is a no-op: %s", p.Reason)
	}
	// Only the leading system message: nothing to do.
	p = testkimi.Prepare(t, conversation(), kimi.Options{End: "sys"})
	if !p.Noop {
		t.Error("compacting only the leading system message should be a no-op")
	}
	// Bad ranges are errors, not no-ops.
	if _, err := kimi.Prepare(conversation(), kimi.Options{Start: "a2", End: "u1"}); kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Errorf("reversed range: %v", err)
	}
	if _, err := kimi.Prepare(conversation(), kimi.Options{End: "zz"}); kompact.ErrorCodeOf(err) != kompact.ENotFound {
		t.Errorf("unknown end: %v", err)
	}
}

func TestKCP008SummaryPrefix(t *testing.T) {
	p := testkimi.Prepare(t, conversation(), kimi.Options{MaxPreserved: 2})
	res, err := p.Apply(kompact.Answer{Parts: []kompact.Part{
		kompact.TextPart("<current_focus>\nA\n</current_focus>"), kompact.ThinkPart("hidden"), kompact.TextPart("\ntail"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := "<system>Previous context has been compacted. Here is the compaction output:</system>\n<current_focus>\nA\n</current_focus>\ntail"
	if got := res.SummaryMessage.Content[0].Text; got != want {
		t.Errorf("summary message %q, want %q", got, want)
	}
	if res.Session.Messages[1].Content[0].Text != want {
		t.Error("the session's summary message differs from SummaryMessage")
	}
	// kimi-cli's own form: the prefix part, then the answer's text parts.
	k := res.KimiMessages[0].Content
	if len(k) != 3 || k[0].Text != kompact.SummaryPrefix || k[1].Text != "<current_focus>\nA\n</current_focus>" || k[2].Text != "\ntail" {
		t.Errorf("kimi form %+v", k)
	}
}

func TestKCP009NoAcknowledgment(t *testing.T) {
	for _, opt := range []kimi.Options{{MaxPreserved: 2}, {End: "a3"}, {Start: "u2", End: "a2"}} {
		p := testkimi.Prepare(t, conversation(), opt)
		res, err := p.Apply(testkimi.Answer("S"))
		if err != nil {
			t.Fatal(err)
		}
		summaries := 0
		for _, m := range res.Session.Messages {
			for _, part := range m.Content {
				if strings.Contains(part.Text, "local-command-caveat") || strings.Contains(part.Text, "Compacted.") {
					t.Errorf("artifact in %+v", m)
				}
				if strings.HasPrefix(part.Text, kompact.SummaryPrefix) {
					summaries++
				}
			}
		}
		want := len(p.Kept()) + 1 + len(p.Session.Messages[p.End:])
		if summaries != 1 || len(res.Session.Messages) != want {
			t.Errorf("%+v: %d summary messages, %d messages (want 1 and %d)", opt, summaries, len(res.Session.Messages), want)
		}
	}
}

func TestKCP010PromptResolution(t *testing.T) {
	inline := kompact.Prompt{Body: "inline", Source: kompact.PromptInline}
	file := kompact.Prompt{Body: "file", Source: kompact.PromptFile, Origin: "/p"}
	kimiFile := kompact.Prompt{Body: "kimi", Source: kompact.PromptKimiCLI, Origin: "/k"}
	for _, tc := range []struct {
		name string
		in   []kompact.Prompt
		want kompact.PromptSource
	}{
		{"inline first", []kompact.Prompt{inline, file, kimiFile}, kompact.PromptInline},
		{"then the prompt file", []kompact.Prompt{{}, file, kimiFile}, kompact.PromptFile},
		{"then kimi-cli's file", []kompact.Prompt{{}, {}, kimiFile}, kompact.PromptKimiCLI},
		{"then the built-in prompt", []kompact.Prompt{{}, {}, {}}, kompact.PromptBuiltin},
	} {
		if got := kimi.ResolvePrompt(tc.in...); got.Source != tc.want {
			t.Errorf("%s: source %s, want %s", tc.name, got.Source, tc.want)
		}
	}
	b := kimi.BuiltinPrompt()
	for _, name := range kompact.SectionNames {
		if !strings.Contains(b.Body, "<"+name+">") || !strings.Contains(b.Body, "</"+name+">") {
			t.Errorf("built-in prompt does not ask for <%s>", name)
		}
	}
	if d := kimi.DescribePrompt(b); !strings.Contains(d, "built-in") || !strings.Contains(d, "not kimi-cli's own text") {
		t.Errorf("Describe() = %q", d)
	}
	if d := kimi.DescribePrompt(file); !strings.Contains(d, "/p") || !strings.Contains(d, "not the genuine") {
		t.Errorf("Describe() = %q", d)
	}
	// The zero prompt in Options means the built-in one.
	p := testkimi.Prepare(t, conversation(), kimi.Options{MaxPreserved: 2})
	last := p.Transcript.Content[len(p.Transcript.Content)-1].Text
	if last != "\n"+b.Body || p.Prompt.Source != kompact.PromptBuiltin {
		t.Errorf("default prompt part %q", last[:20])
	}
	// Files are read as kimi-cli reads its own: universal newlines.
	np, err := kimi.NewPrompt([]byte("a\r\nb\rc\n"), kompact.PromptFile, "x")
	if err != nil || np.Body != "a\nb\nc\n" {
		t.Errorf("NewPrompt = %q, %v", np.Body, err)
	}
	if _, err := kimi.NewPrompt([]byte(" \n"), kompact.PromptFile, "x"); err == nil {
		t.Error("an empty prompt file is accepted")
	}
}

func TestKCP011CustomInstructions(t *testing.T) {
	const intro = "\n\n**User's Custom Compaction Instruction:**\nThe user has specifically requested the following focus during compaction. You MUST prioritize this instruction above the default compression priorities:\n"
	body := kompact.Prompt{Body: "P\n", Source: kompact.PromptInline}
	for _, tc := range []struct{ name, instr, want string }{
		{"none", "", "\nP\n"},
		{"single line", "Keep the DB talk", "\nP\n" + intro + "Keep the DB talk"},
		{"multi line", "a\n- b\n", "\nP\n" + intro + "a\n- b\n"},
		{"white space only is still appended", "   ", "\nP\n" + intro + "   "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := testkimi.Prepare(t, conversation(), kimi.Options{MaxPreserved: 2, Instructions: tc.instr, Prompt: body})
			parts := p.Transcript.Content
			if got := parts[len(parts)-1].Text; got != tc.want {
				t.Errorf("prompt part %q, want %q", got, tc.want)
			}
			if strings.Contains(parts[len(parts)-2].Text, "Custom") {
				t.Error("instructions leaked into another part")
			}
		})
	}
}

// TestKCP011StandingInstructions: the agent's compaction.instructions, the
// session's standing instructions (ActionRequest.SessionInstructions, which
// the service fills) and the run's instructions become the one custom
// instruction of kimi-cli's format, in that order, one paragraph each
// (issue 33 §2). With none, the request is the one Prepare makes without
// instructions, byte for byte; with only the run's, the one kimi-cli makes.
func TestKCP011StandingInstructions(t *testing.T) {
	const intro = "\n\n**User's Custom Compaction Instruction:**\nThe user has specifically requested the following focus during compaction. You MUST prioritize this instruction above the default compression priorities:\n"
	body := kompact.Prompt{Body: "P\n", Source: kompact.PromptInline}
	plain := testkimi.Prepare(t, conversation(), kimi.Options{MaxPreserved: 2, Prompt: body}).Transcript
	for _, tc := range []struct{ name, agent, session, run, want string }{
		{"none", "", "", "", ""},
		{"agent only", "Keep the schema.", "", "", "Keep the schema."},
		{"session only", "", "Keep the API paths.", "", "Keep the API paths."},
		{"run only, as kimi-cli sends it", "", "", "  the bug\n", "  the bug\n"},
		{"all three", "Keep the schema.", "Keep the API paths.\nAnd the flags.", "The login bug.", "Keep the schema.\n\nKeep the API paths.\nAnd the flags.\n\nThe login bug."},
		{"agent and run", "Keep the schema.", "", "The login bug.", "Keep the schema.\n\nThe login bug."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &kompact.Agent{Compaction: kompact.CompactionConfig{Enabled: true, Type: kimi.Name, MaxPreservedMessages: new(2), Instructions: tc.agent}}
			req := kompact.ActionRequest{Action: kompact.ActionCompactConversation, SessionInstructions: tc.session, Instructions: tc.run}
			cp, err := kimi.Type{}.Plan(a, conversation(), req, body)
			if err != nil {
				t.Fatal(err)
			}
			p := cp.(*kimi.Plan)
			parts := p.Transcript.Content
			want := "\nP\n"
			if tc.want != "" {
				want += intro + tc.want
			}
			if got := parts[len(parts)-1].Text; got != want {
				t.Errorf("prompt part %q, want %q", got, want)
			}
			if got := p.About().Instructions; got != tc.want {
				t.Errorf("About().Instructions %q, want %q", got, tc.want)
			}
			if q := p.DropOldest(); q != nil {
				if got := q.Transcript.Content[len(q.Transcript.Content)-1].Text; got != want {
					t.Errorf("after DropOldest: prompt part %q, want %q", got, want)
				}
			}
			if tc.want == "" && !bytes.Equal(p.Transcript.AppendJSON(nil), plain.AppendJSON(nil)) {
				t.Errorf("with no instructions the request changed:\n%s\n%s", p.Transcript.AppendJSON(nil), plain.AppendJSON(nil))
			}
		})
	}
}

func TestApplyLeavesSessionUntouched(t *testing.T) {
	s := conversation()
	before, _ := json.Marshal(s)
	p := testkimi.Prepare(t, s, kimi.Options{MaxPreserved: 2})
	if _, err := p.Apply(kompact.Answer{}); kompact.ErrorCodeOf(err) != kompact.EEmptyResponse {
		t.Fatalf("empty answer: %v", err)
	}
	res, err := p.Apply(testkimi.Answer("S"))
	if err != nil {
		t.Fatal(err)
	}
	// Appending to the result must not write into the original's array.
	res.Session.Messages = append(res.Session.Messages[:1], msg(kompact.RoleUser, "new", "x"))
	after, _ := json.Marshal(s)
	if string(before) != string(after) {
		t.Fatalf("the original session changed:\n%s\n%s", before, after)
	}
}

func TestAnswerChecks(t *testing.T) {
	call := []kompact.ToolCall{{ID: "c", Name: "f"}}
	for _, tc := range []struct {
		name string
		a    kompact.Answer
		msg  string
	}{
		{"nothing", kompact.Answer{}, kimi.EmptyResponseMessage},
		{"think only", kompact.Answer{Parts: []kompact.Part{kompact.ThinkPart("t")}}, kimi.ThinkOnlyMessage},
		{"tool call only", kompact.Answer{ToolCalls: call}, kimi.ToolCallOnlyMessage},
		{"think and tool call", kompact.Answer{Parts: []kompact.Part{kompact.ThinkPart("t")}, ToolCalls: call}, kimi.ToolCallOnlyMessage},
		{"white space text is a summary", kompact.Answer{Parts: []kompact.Part{kompact.TextPart("  \n ")}}, ""},
	} {
		err := kimi.CheckAnswer(tc.a)
		if tc.msg == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || err.Error() != tc.msg || kompact.ErrorCodeOf(err) != kompact.EEmptyResponse || len(kompact.ErrorFixes(err)) == 0 {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

func TestMissingSections(t *testing.T) {
	all := ""
	for _, n := range kompact.SectionNames {
		all += "<" + n + ">x</" + n + ">\n"
	}
	if m := kimi.MissingSections(all); len(m) != 0 {
		t.Errorf("all present, reported %v", m)
	}
	if m := kimi.MissingSections("<current_focus>x</current_focus><code_state>"); strings.Join(m, ",") != "environment,completed_tasks,active_issues,code_state,important_context" {
		t.Errorf("missing = %v", m)
	}
	p := testkimi.Prepare(t, conversation(), kimi.Options{MaxPreserved: 2})
	res, err := p.Apply(testkimi.Answer("plain text, no sections"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.MissingSections) != 6 || res.Summary != "plain text, no sections" {
		t.Errorf("a summary without sections must be kept and all six reported: %v %q", res.MissingSections, res.Summary)
	}
	if res.Compacted != 5 || res.Preserved != 2 || res.TokensBefore <= res.TokensAfter-100 {
		t.Errorf("counts: %+v", res)
	}
}

func strPtr(s string) *string { return &s }
