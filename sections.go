package kompact

// SectionNames are the six XML sections a compaction summary should contain, in order.
var SectionNames = []string{
	"current_focus",
	"environment",
	"completed_tasks",
	"active_issues",
	"code_state",
	"important_context",
}
