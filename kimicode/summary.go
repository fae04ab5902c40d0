package kimicode

import (
	"fmt"
	"strings"
)

// RecordsBeforeApply is how many records a compaction writes before its
// context.apply_compaction (full_compaction.begin, llm.request, usage.record).
const RecordsBeforeApply = 3

// jsTrim is JavaScript's String.prototype.trim.
func jsTrim(s string) string {
	return strings.TrimLeft(trimEnd(s), " \t\n\r\v\f\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")
}

// Summary is what a compaction's summary message says.
type Summary struct {
	// Model is the model's answer.
	Model string
	// Todos is the agent's TODO list.
	Todos []Todo
	// WirePath is the absolute path of the agent's wire.jsonl.
	WirePath string
	// Applied are the lines of earlier context.apply_compaction records; ApplyLine is the
	// line this compaction's will have.
	Applied   []int
	ApplyLine int
}

// Text is the summary message's text (contextSummary): the prefix, the model's summary
// (or "(no summary available)"), the TODO list, and the Context Recovery footer.
func (s *Summary) Text(texts *Texts) string {
	body := jsTrim(s.WithTodos())
	if body == "" {
		body = "(no summary available)"
	}
	return texts.Prefix() + "\n" + body + "\n\n" + trimEnd(texts.FooterText(s.WirePath, s.windowLines()))
}

// WithTodos is the model's summary with the TODO list after it (the apply record's
// summary): the model's text as it is when there are no todos.
func (s *Summary) WithTodos() string {
	if len(s.Todos) == 0 {
		return s.Model
	}
	lines := []string{"## TODO List"}
	for _, t := range s.Todos {
		lines = append(lines, "  ["+t.Status+"] "+t.Title)
	}
	return jsTrim(s.Model) + "\n\n" + strings.Join(lines, "\n")
}

// windowLines lists the earlier windows of the wire, the last marked as the one the note
// summarizes, and the window the note starts.
func (s *Summary) windowLines() string {
	starts := append([]int{1}, s.Applied...)
	var lines []string
	for k, start := range starts {
		line := fmt.Sprintf("  window %d: lines %d–%d", k+1, start, s.endOf(starts, k))
		if k == len(starts)-1 {
			line += "   ← the conversation this note summarizes"
		}
		lines = append(lines, line)
	}
	lines = append(lines, fmt.Sprintf("  window %d (the one you are in now) starts at line %d with the `context.apply_compaction` record that carries this note — it is already in your context; no need to read it.", len(starts)+1, s.ApplyLine))
	return strings.Join(lines, "\n")
}

func (s *Summary) endOf(starts []int, k int) int {
	if k+1 < len(starts) {
		return starts[k+1] - 1
	}
	return s.ApplyLine - 1
}
