package kompact

import "strings"

// SectionNames are the six XML sections a compaction summary should contain, in order.
var SectionNames = []string{
	"current_focus",
	"environment",
	"completed_tasks",
	"active_issues",
	"code_state",
	"important_context",
}

// RequiredSections are the sections of form f that a summary asked for with
// prompt p must hold: those of f.Sections whose opening tag p names (a
// prompt of the user's own that asks for none requires none). The type's
// own prompt (the zero Prompt, kimi-cli's compact.md, kompact's built-in
// one) asks for all of them. A free-form type (no Sections) requires none.
func (f SummaryForm) RequiredSections(p Prompt) []string {
	if p.Body == "" {
		return f.Sections
	}
	var out []string
	for _, name := range f.Sections {
		if strings.Contains(p.Body, "<"+name+">") {
			out = append(out, name)
		}
	}
	return out
}

// MissingRequired returns the required sections (RequiredSections) of
// summary, asked for with prompt p, whose opening or closing tag summary
// does not hold, in the form's order.
func (f SummaryForm) MissingRequired(summary string, p Prompt) []string {
	var out []string
	for _, name := range f.RequiredSections(p) {
		if !strings.Contains(summary, "<"+name+">") || !strings.Contains(summary, "</"+name+">") {
			out = append(out, name)
		}
	}
	return out
}
