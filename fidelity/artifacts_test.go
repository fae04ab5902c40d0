package fidelity_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"kompact"
	"kompact/fidelity"
	"kompact/internal/testing/testllm"
	"kompact/internal/testing/testmsg"
	"kompact/kimi"
	"kompact/service"
)

func describe(arts []kompact.Artifact) []string {
	out := make([]string, len(arts))
	for i, a := range arts {
		out[i] = fmt.Sprintf("%s %s @%s sent=%v", a.Class, a.Text, a.Message, a.Sent)
	}
	return out
}

func TestArtifacts(t *testing.T) {
	got := describe(fidelity.Artifacts(testmsg.ArtifactSession().Messages))
	want := []string{
		// user-stated first, the most recent first
		"path summary.go @u1 sent=true",
		"todo keep the parity @u1 sent=true",
		"url https://go.dev/doc @u1 sent=true",
		"identifier go vet ./... @#5 sent=true",
		"error TestApply @t1 sent=true",
		"path cfg.go @t1 sent=true",
		"path data/only.json @t1 sent=false",
		"command go test ./internal/... @a1 sent=false",
		"identifier Plan.Apply @a1 sent=false",
		"path internal/secret.go @a1 sent=false",
		"path cmd/kompact/main.go @sys sent=true",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Artifacts:\n got %q\nwant %q", got, want)
	}
}

func TestPlanArtifacts(t *testing.T) {
	s := testmsg.ArtifactSession()
	p, err := kimi.Prepare(s, kimi.Options{End: "t1"})
	if err != nil {
		t.Fatal(err)
	}
	// The leading system message stays: its artifacts are not the range's.
	got := describe(p.Artifacts())
	want := []string{"path summary.go @u1 sent=true", "todo keep the parity @u1 sent=true", "url https://go.dev/doc @u1 sent=true",
		"error TestApply @t1 sent=true", "path cfg.go @t1 sent=true", "path data/only.json @t1 sent=false",
		"command go test ./internal/... @a1 sent=false", "identifier Plan.Apply @a1 sent=false", "path internal/secret.go @a1 sent=false"}
	if !slices.Equal(got, want) {
		t.Errorf("Plan.Artifacts:\n got %q\nwant %q", got, want)
	}
	// A message the request leaves out is not sent.
	q := p.DropOldest().DropOldest() // the system message, then u1
	for _, a := range q.Artifacts() {
		if a.Message == "u1" && a.Text != "summary.go" && a.Sent { // summary.go is in a1 too
			t.Errorf("%s of a dropped message counts as sent", a.Text)
		}
	}
}

func TestMeasureFidelity(t *testing.T) {
	arts := fidelity.Artifacts(testmsg.ArtifactSession().Messages)
	f := fidelity.MeasureFidelity(arts, "Edited summary.go\n(see https://go.dev/doc);  TODO:\tKEEP the parity. TestApply failed.")
	if f.Artifacts != 11 || f.Kept != 4 || f.NotSent != 4 || f.Recall != 4.0/11 {
		t.Errorf("fidelity %d kept %d not sent %d recall %v", f.Artifacts, f.Kept, f.NotSent, f.Recall)
	}
	if c := f.Classes[kompact.ArtifactPath]; c != (kompact.ClassFidelity{Artifacts: 5, Kept: 1, NotSent: 2}) {
		t.Errorf("paths %+v", c)
	}
	if len(f.Classes) != 6 || len(f.Lost) != 7 || f.Lost[0].Text != "go vet ./..." {
		t.Errorf("classes %v lost %v", f.Classes, describe(f.Lost))
	}
	if f := fidelity.MeasureFidelity(nil, "x"); f.Recall != 1 || f.Lost == nil {
		t.Errorf("no artifacts: %+v", f)
	}
}

// TestArtifactsOneEach: issue 28 §2. A failing test named in prose is
// one artifact, an error (not also an identifier), counted as the user
// stated it; ./cmd/server/main.go and cmd/server/main.go are one path; a
// path inside a command is part of it.
func TestArtifactsOneEach(t *testing.T) {
	msgs := []kompact.Message{
		{ID: "u1", Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("TestLexNumbers fails; see ./cmd/server/main.go\n$ go test ./internal/parse/lexer_test.go")}},
		{ID: "t1", Role: kompact.RoleTool, Content: []kompact.Part{kompact.TextPart("--- FAIL: TestLexNumbers (0.00s)\nexit status 1")}},
		{ID: "a1", Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart("Fixed cmd/server/main.go.")}},
	}
	got := describe(fidelity.Artifacts(msgs))
	want := []string{"path cmd/server/main.go @u1 sent=true", "error TestLexNumbers @u1 sent=true", "command go test ./internal/parse/lexer_test.go @u1 sent=true"}
	if !slices.Equal(got, want) {
		t.Errorf("Artifacts:\n got %q\nwant %q", got, want)
	}
}

// TestAppendixPicks: with a small budget the appendix holds errors and
// TODO items before paths, and those before identifiers, whatever their
// rank; an artifact found only in think parts is never in it (issue 28
// §2).
func TestAppendixPicks(t *testing.T) {
	s := &kompact.Session{Messages: []kompact.Message{
		{ID: "u1", Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("Fix it.\nTODO: keep the parity")}},
		{ID: "t1", Role: kompact.RoleTool, ToolCallID: "c1", HasToolCallID: true, Content: []kompact.Part{kompact.TextPart("panic: nil map")}},
		{ID: "a1", Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.ThinkPart("internal/think/only.go is to blame, or ThinkOnly"),
			kompact.TextPart("See internal/parse/lexer.go, ParseFloat and ScanDigits.")}},
		{ID: "u2", Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("ok")}},
	}}
	a := testllm.Agent()
	for _, c := range []struct {
		tokens int
		want   string
	}{
		{30, "- todo: keep the parity\n- error: panic: nil map\n"},
		{1000, "- todo: keep the parity\n- error: panic: nil map\n- path: internal/parse/lexer.go\n- identifier: ParseFloat\n- identifier: ScanDigits\n"},
	} {
		llm := &testllm.LLM{Answer: testllm.Reply("<current_focus>x</current_focus>")}
		out := (&service.Compactor{LLM: llm}).Execute(context.Background(), a, s,
			kompact.ActionRequest{Action: kompact.ActionCompactConversation, End: "a1", AppendixTokens: new(c.tokens)}, nil)
		if out.Status != kompact.OutcomeCompacted {
			t.Fatalf("outcome %s: %v", out.Status, out.Err)
		}
		_, section, _ := strings.Cut(out.Result.Summary, "<preserved_artifacts>\n")
		if section != c.want+"</preserved_artifacts>" {
			t.Errorf("%d tokens: the appendix\n%s\nwant\n%s", c.tokens, section, c.want)
		}
	}
}
