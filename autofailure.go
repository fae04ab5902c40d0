package kompact

// The reasons the quality gate of automatic compaction refuses a summary
// (docs/compaction.md, "The quality gate"), as a session's failure log
// names them.
const (
	RefusedEmpty           = "empty"            // the summary is empty
	RefusedAcknowledgement = "acknowledgement"  // only an acknowledgement ("ACK_21")
	RefusedMissingSections = "missing_sections" // it lacks sections its type's form requires
	RefusedLowRecall       = "low_recall"       // sent_recall below compaction.fidelity.min_recall
)
