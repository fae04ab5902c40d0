package toolprune_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"kompact"
	"kompact/toolprune"
)

// output is a tool output of about n code points that names a path, fails
// a test and ends with an exit status.
func output(n int, path string) string {
	head := "ok   kompact/x 0.1s\n" + path + ":12:3: undefined: Foo\n--- FAIL: TestApply (0.00s)\n"
	var b strings.Builder
	b.WriteString(head)
	for b.Len() < n-20 {
		b.WriteString("log line of the build output\n")
	}
	b.WriteString("exit status 1")
	return b.String()
}

// exchangeSession is a system message, a user message, then one tool
// exchange per entry of sizes: an assistant message calling tool run_N
// and its result of that many code points (path pN.go).
func exchangeSession(sizes ...int) []kompact.Message {
	msgs := []kompact.Message{
		{ID: "s", Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart("system")}},
		{ID: "u", Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("fix the build")}},
	}
	for i, n := range sizes {
		args := fmt.Sprintf(`{"command":"go test ./p%d/..."}`, i)
		id := fmt.Sprintf("call_%d", i)
		msgs = append(msgs,
			kompact.Message{ID: fmt.Sprintf("a%d", i), Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart("running")},
				ToolCalls: []kompact.ToolCall{{ID: id, Name: fmt.Sprintf("run_%d", i), Arguments: &args}}},
			kompact.Message{ID: fmt.Sprintf("t%d", i), Role: kompact.RoleTool, ToolCallID: id, HasToolCallID: true,
				Content: []kompact.Part{kompact.TextPart(output(n, fmt.Sprintf("p%d/apply.go", i)))}},
		)
	}
	return msgs
}

func clone(msgs []kompact.Message) []byte {
	s := kompact.Session{Messages: msgs}
	return s.AppendJSON(nil)
}

// TestPruneClearsOldLongResults: of six exchanges with keep_recent 2 and
// min_chars 2000, the results of the first four that are longer than 2000
// code points are cleared and nothing else changes: not the short one, not
// the last two, not a tool call or its arguments, not the input.
func TestPruneClearsOldLongResults(t *testing.T) {
	msgs := exchangeSession(5000, 1500, 2001, 9000, 8000, 8000)
	in := clone(msgs)
	r := toolprune.Prune(msgs, toolprune.Options{KeepRecent: 2, MinChars: 2000})
	if string(clone(msgs)) != string(in) {
		t.Fatal("Prune modified its input")
	}
	var got []string
	for _, c := range r.Cleared {
		got = append(got, c.Message)
	}
	if want := []string{"t0", "t2", "t3"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("cleared %v, want %v", got, want)
	}
	if r.End != 2+2*3+2 { // one past t3
		t.Errorf("End = %d", r.End)
	}
	cleared := map[string]bool{"t0": true, "t2": true, "t3": true}
	for i := range msgs {
		a, b := msgs[i], r.Messages[i]
		if cleared[a.ID] {
			if len(b.Content) != 1 || !strings.HasPrefix(b.Content[0].Text, toolprune.MarkerPrefix) || b.ToolCallID != a.ToolCallID || b.ID != a.ID {
				t.Errorf("%s: %+v", a.ID, b)
			}
			continue
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("message %s changed", a.ID)
		}
	}
	if r.ClearedChars != msgs[2+1].TextLen()+msgs[2+5].TextLen()+msgs[2+7].TextLen() {
		t.Errorf("cleared chars %d", r.ClearedChars)
	}
	if r.TokensBefore != kompact.EstimateTokens(msgs) || r.TokensAfter != kompact.EstimateTokens(r.Messages) {
		t.Errorf("tokens %d -> %d, want %d -> %d", r.TokensBefore, r.TokensAfter, kompact.EstimateTokens(msgs), kompact.EstimateTokens(r.Messages))
	}
	again := toolprune.Prune(r.Messages, toolprune.Options{KeepRecent: 2, MinChars: 0})
	for _, c := range again.Cleared {
		if cleared[c.Message] {
			t.Errorf("a marker was cleared again: %+v", c)
		}
	}
}

// TestPruneMarker: the marker keeps the tool's name, the size, the exit
// status, the first error and the paths, on one line; the fidelity report
// counts what the cleared text named and the markers keep.
func TestPruneMarker(t *testing.T) {
	msgs := exchangeSession(3000, 10)
	r := toolprune.Prune(msgs, toolprune.Options{KeepRecent: 1, MinChars: 2000})
	if len(r.Cleared) != 1 {
		t.Fatalf("cleared %+v", r.Cleared)
	}
	n := msgs[3].TextLen()
	lines := strings.Count(msgs[3].Content[0].Text, "\n") + 1
	want := fmt.Sprintf("[tool output cleared by kompact: run_0, %d,%03d chars, %d lines; exit status 1; first error: p0/apply.go:12:3: undefined: Foo; paths: p0/apply.go]", n/1000, n%1000, lines)
	if got := r.Messages[3].Content[0].Text; got != want {
		t.Errorf("marker\n%s\nwant\n%s", got, want)
	}
	if c := r.Cleared[0]; c.Tool != "run_0" || c.Chars != n || c.Marker != want {
		t.Errorf("cleared %+v", c)
	}
	f := r.Fidelity
	if f.Artifacts == 0 || f.Classes[kompact.ArtifactPath].Kept != f.Classes[kompact.ArtifactPath].Artifacts {
		t.Errorf("fidelity %+v", f)
	}
	for _, a := range f.Lost {
		if a.Class == kompact.ArtifactPath {
			t.Errorf("lost a path: %+v", a)
		}
	}
}

// TestPruneKeepRecent: keep_recent 0 clears every long result; a session
// with no more exchanges than keep_recent is left alone (a no-op, Messages
// the input itself).
func TestPruneKeepRecent(t *testing.T) {
	msgs := exchangeSession(3000, 3000, 3000)
	if r := toolprune.Prune(msgs, toolprune.Options{KeepRecent: 0, MinChars: 2000}); len(r.Cleared) != 3 {
		t.Errorf("keep_recent 0 cleared %d", len(r.Cleared))
	}
	r := toolprune.Prune(msgs, toolprune.Options{KeepRecent: 3, MinChars: 2000})
	if !r.Noop() || &r.Messages[0] != &msgs[0] || r.TokensAfter != r.TokensBefore {
		t.Errorf("keep_recent 3 of 3: %+v", r.Cleared)
	}
	if r := toolprune.Prune(msgs, toolprune.Options{KeepRecent: 2, MinChars: 3000}); !r.Noop() {
		t.Errorf("min_chars above every result cleared %+v", r.Cleared)
	}
}

// TestPruneKeepsOtherParts: a result's data part stays where it was; its
// text parts become the one marker.
func TestPruneKeepsOtherParts(t *testing.T) {
	msgs := exchangeSession(3000, 10)
	long := msgs[3].Content[0].Text
	msgs[3].Content = []kompact.Part{kompact.TextPart(long[:1500]), {Type: kompact.PartData, Data: []byte(`{"a":1}`)}, kompact.TextPart(long[1500:])}
	r := toolprune.Prune(msgs, toolprune.Options{KeepRecent: 1, MinChars: 2000})
	c := r.Messages[3].Content
	if len(c) != 2 || c[0].Type != kompact.PartText || c[1].Type != kompact.PartData || string(c[1].Data) != `{"a":1}` {
		t.Errorf("content %+v", c)
	}
}

func TestOptionsCheck(t *testing.T) {
	if err := (toolprune.Options{KeepRecent: -1}).Check(); kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Errorf("keep_recent -1: %v", err)
	}
	if err := (toolprune.Options{MinChars: toolprune.MaxSetting + 1}).Check(); kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Errorf("min_chars too large: %v", err)
	}
	five, zero := 5, 0
	if o := toolprune.OptionsOf(kompact.PruneOptions{MinChars: &zero}); o.KeepRecent != five || o.MinChars != 0 || o.Pinned != nil {
		t.Errorf("OptionsOf %+v", o)
	}
}

// TestPruneMarkerKeepsErrorLine: a failing test's line is the marker's
// first error whole, its message too, not only the name the artifact
// scanner takes from it (issue 40 §2: "FAIL pkg0/x_test.go:12: expected 1
// got 2" became "first error: pkg0/x_test.go:12:").
func TestPruneMarkerKeepsErrorLine(t *testing.T) {
	text := "=== RUN TestX\nFAIL pkg0/x_test.go:12: expected 1 got 2\n" + strings.Repeat("log line of the test output\n", 100)
	m := kompact.Message{Role: kompact.RoleTool, Content: []kompact.Part{kompact.TextPart(text)}}
	got := toolprune.Marker("bash", len(text), &m)
	if !strings.Contains(got, "; first error: FAIL pkg0/x_test.go:12: expected 1 got 2;") {
		t.Errorf("marker %s\nwant the whole error line as its first error", got)
	}
}

// TestPruneNoopNamesPinned: a prune that clears nothing because the only
// old, long result is pinned says so in its reason; without pins the
// reason is as before (issue 40 §2).
func TestPruneNoopNamesPinned(t *testing.T) {
	msgs := exchangeSession(5000, 100)
	o := toolprune.Options{KeepRecent: 1, MinChars: 2000, Pinned: map[int]bool{3: true}}
	r := toolprune.Prune(msgs, o)
	if !r.Noop() || r.PinnedKept != 1 {
		t.Fatalf("cleared %+v, pinned kept %d", r.Cleared, r.PinnedKept)
	}
	want := toolprune.NoopReason(o) + " but 1 pinned result, which a prune never clears (unpin it to prune it)"
	if got := r.NoopReason(); got != want {
		t.Errorf("reason %q\nwant %q", got, want)
	}
	o.Pinned = nil
	r = toolprune.Prune(exchangeSession(100, 100), o)
	if got := r.NoopReason(); got != toolprune.NoopReason(o) || strings.Contains(got, "pinned") {
		t.Errorf("reason without pins %q", got)
	}
}
