package kimi

import "strings"

// JoinInstructions joins the standing instructions of the agent
// (compaction.instructions) and of the session (its settings'
// "instructions") and the run's (the action's "instructions",
// --instructions), in that order, one paragraph each ("\n\n" between
// them), into the one custom instruction kimi-cli's prompt takes
// (instructionIntro, KCP-011). Empty ones are left out, so a run's
// instructions alone are sent as they are, as kimi-cli sends them (white
// space only too), and with none there is no custom instruction.
func JoinInstructions(agent, session, run string) string {
	var parts []string
	for _, s := range []string{agent, session, run} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}
