package kimi

import (
	"strings"

	"kompact"
)

// MissingSections returns the names from SectionNames whose opening or
// closing tag does not appear in summary.
func MissingSections(summary string) []string {
	var missing []string
	for _, name := range kompact.SectionNames {
		if !strings.Contains(summary, "<"+name+">") || !strings.Contains(summary, "</"+name+">") {
			missing = append(missing, name)
		}
	}
	return missing
}
