package anthropic

import "testing"

// TestCompactionInstructions (issue 39 §1): the user's /compact TEXT is
// read from Claude Code's compaction prompt by the place of the line
// that labels it (known by its SHA-256): the lines after it, up to the
// prompt's closing paragraph; none without the label.
func TestCompactionInstructions(t *testing.T) {
	const label = "Additional Instructions:" // the line Claude Code 2.1.332 opens them with
	for _, c := range []struct{ prompt, want string }{
		{"CRITICAL: opening\n\nbody\n\n" + label + "\nkeep the fruit names\n\nREMINDER: closing", "keep the fruit names"},
		{"CRITICAL: opening\n\n" + label + "\nline one\n\nline two\n\nREMINDER: closing", "line one\n\nline two"},
		{"CRITICAL: opening\n\nbody\n\nREMINDER: closing", ""},
		{"CRITICAL: opening\n\nbody mentions " + label + " inline\n\nREMINDER: closing", ""},
		{"no paragraphs " + label, ""},
	} {
		if got := instructionsIn(c.prompt); got != c.want {
			t.Errorf("instructionsIn(%q) = %q, want %q", c.prompt, got, c.want)
		}
	}
	req, err := ParseRequest([]byte(`{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x"},{"type":"text","text":"CRITICAL: a\n\n`+label+`\nfruit\n\nREMINDER: b"}]}]}`), 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := req.CompactionInstructions(); got != "fruit" {
		t.Errorf("CompactionInstructions of a prompt block after a tool result = %q, want fruit", got)
	}
}

// TestClaudeCodeCompactsAt (issue 39 §1): Claude Code compacts by itself
// from 23,000 tokens below its window (four fifths of a small window);
// below that a compaction request is a person's.
func TestClaudeCodeCompactsAt(t *testing.T) {
	for _, c := range []struct {
		tokens, window int
		want           bool
	}{
		{976020, 1000000, false}, {977020, 1000000, true},
		{3000, 10000, false}, {8000, 10000, true},
		{5, 0, true},
	} {
		if got := ClaudeCodeCompactsAt(c.tokens, c.window); got != c.want {
			t.Errorf("ClaudeCodeCompactsAt(%d, %d) = %v, want %v", c.tokens, c.window, got, c.want)
		}
	}
}

// TestRestatedResults: a user message that holds only results of Read
// calls is one Claude Code re-attaches by itself; a result of another
// tool, or one beside text, is not.
func TestRestatedResults(t *testing.T) {
	req, err := ParseRequest([]byte(`{"model":"m","messages":[
		{"role":"assistant","content":[{"type":"tool_use","id":"r","name":"Read","input":{}},{"type":"tool_use","id":"b","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"r","content":"x"}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"b","content":"x"}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"r","content":"x"},{"type":"text","text":"and"}]},
		{"role":"user","content":"plain"}]}`), 10)
	if err != nil {
		t.Fatal(err)
	}
	got := req.RestatedResults()
	if len(got) != 1 || !got[1] {
		t.Errorf("RestatedResults = %v, want only message 1", got)
	}
}
