package kompact

import "strings"

// MissingSections returns the names from SectionNames whose opening or
// closing tag does not appear in summary.
func MissingSections(summary string) []string {
	var missing []string
	for _, name := range SectionNames {
		if !strings.Contains(summary, "<"+name+">") || !strings.Contains(summary, "</"+name+">") {
			missing = append(missing, name)
		}
	}
	return missing
}

// SectionNames are the six XML sections a compaction summary should contain,
// in order.
var SectionNames = []string{
	"current_focus",
	"environment",
	"completed_tasks",
	"active_issues",
	"code_state",
	"important_context",
}
