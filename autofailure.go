package kompact

import "time"

// The reasons the quality gate of automatic compaction refuses a summary
// (docs/compaction.md, "The quality gate"), as a session's failure log
// names them.
const (
	RefusedEmpty           = "empty"            // the summary is empty
	RefusedAcknowledgement = "acknowledgement"  // only an acknowledgement ("ACK_21")
	RefusedMissingSections = "missing_sections" // it lacks sections its type's form requires
	RefusedLowRecall       = "low_recall"       // sent_recall below compaction.fidelity.min_recall
)

// MaxAutoFailureLog is how many failures a session's failure log keeps:
// the newest; an older one is dropped when a new one is recorded.
const MaxAutoFailureLog = 20

// AutoFailure is one automatic compaction of a session (by kompact itself
// or the gateway) that failed or whose summary the quality gate refused,
// as the session's failure log keeps it (GET /v1/sessions/{id}/revisions,
// "failures"). The session was left as it was.
type AutoFailure struct {
	// At is when it ended.
	At time.Time `json:"at"`
	// Trigger is what ran it: auto (after an append, before a turn),
	// gateway (the gateway's compaction before a turn or with a client's
	// instructions) or precompute (the gateway's, ahead of the trigger).
	Trigger string `json:"trigger"`
	// Status is the automatic compaction's status: error, not_reduced or
	// rejected (the gate refused the summary twice).
	Status string `json:"status"`
	// Reason is why the gate refused it (a Refused* value), for rejected.
	Reason string `json:"reason,omitempty"`
	// MissingSections are the required sections the summary lacked, for
	// reason missing_sections.
	MissingSections []string `json:"missing_sections,omitempty"`
	// Code and Message are the error's.
	Code    ErrorCode `json:"code"`
	Message string    `json:"message"`
}
