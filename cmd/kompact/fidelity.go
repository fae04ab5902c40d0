package main

import (
	"fmt"
	"strings"

	"kompact"
)

// classPlurals name the artifact classes in the report line.
var classPlurals = map[kompact.ArtifactClass]string{
	kompact.ArtifactPath: "paths", kompact.ArtifactCommand: "commands", kompact.ArtifactError: "errors",
	kompact.ArtifactURL: "urls", kompact.ArtifactIdentifier: "identifiers", kompact.ArtifactTodo: "todos",
}

// fidelityLine is the report's line on what the summary kept, e.g.
// "artifacts kept: 31 of 57 (paths 10/20, commands 2/9, errors 5/5); 12
// appeared only in parts the request does not send". Classes without
// artifacts are left out.
func fidelityLine(f *kompact.Fidelity) string {
	if f.Artifacts == 0 {
		return "artifacts kept: none to keep (no paths, commands, errors, urls, identifiers or todos in the compacted messages)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "artifacts kept: %d of %d", f.Kept, f.Artifacts)
	var parts []string
	for _, c := range kompact.ArtifactClasses() {
		if cf := f.Classes[c]; cf.Artifacts > 0 {
			parts = append(parts, fmt.Sprintf("%s %d/%d", classPlurals[c], cf.Kept, cf.Artifacts))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(parts, ", "))
	}
	if a := f.Appendix; a != nil {
		fmt.Fprintf(&b, "; the model's summary kept %d, the preserved_artifacts appendix added %d", a.ModelKept, a.Lines)
	}
	if f.NotSent > 0 {
		fmt.Fprintf(&b, "; %d appeared only in tool calls, reasoning or other parts the request does not send", f.NotSent)
	}
	return b.String()
}
