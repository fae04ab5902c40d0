package kompact

// MaxLost bounds the lost artifacts a fidelity report lists.
const MaxLost = 200

// Fidelity says what a summary kept of the artifacts of the range it replaces
// (docs/fidelity.md).
type Fidelity struct {
	// Artifacts counts the distinct artifacts of the range, Kept those the summary holds,
	// NotSent those the request never showed the model.
	Artifacts int `json:"artifacts"`
	Kept      int `json:"kept"`
	NotSent   int `json:"not_sent"`
	// Recall is Kept / Artifacts; 1 when there are none.
	Recall float64 `json:"recall"`
	// SentKept counts the kept artifacts the request sent; SentRecall is SentKept / (Artifacts
	// - NotSent), 1 when none was sent: the figure on what the model could keep, which
	// compaction.fidelity.min_recall judges.
	SentKept   int     `json:"sent_kept"`
	SentRecall float64 `json:"sent_recall"`
	// Classes has the same counts per class, for every class.
	Classes map[ArtifactClass]ClassFidelity `json:"classes"`
	// Lost lists the artifacts not kept, the best-ranked first, at most MaxLost.
	Lost []Artifact `json:"lost"`
	// Appendix, when kompact appended the preserved_artifacts section to the model's summary,
	// says how many lines it added and what the model's own summary kept; the figures above
	// count the final summary.
	Appendix *AppendixFidelity `json:"appendix,omitempty"`
	// Pinned counts the distinct artifacts of the range's pinned messages, kept verbatim: one
	// the summarised messages share with them counts as kept.
	Pinned int `json:"pinned,omitempty"`
}

// ClassFidelity is a fidelity report's counts for one class.
type ClassFidelity struct {
	Artifacts int `json:"artifacts"`
	Kept      int `json:"kept"`
	NotSent   int `json:"not_sent"`
}

// AppendixFidelity describes the preserved_artifacts section: the lines it holds, and the
// model's own summary's figures before it.
type AppendixFidelity struct {
	Lines       int     `json:"lines"`
	ModelKept   int     `json:"model_kept"`
	ModelRecall float64 `json:"model_recall"`
	// ModelSentKept and ModelSentRecall are the model's own summary's SentKept and SentRecall.
	ModelSentKept   int     `json:"model_sent_kept"`
	ModelSentRecall float64 `json:"model_sent_recall"`
}

func Recall(kept, n int) float64 {
	if n == 0 {
		return 1
	}
	return float64(kept) / float64(n)
}

// FidelityOptions are the agent's compaction.fidelity settings.
type FidelityOptions struct {
	// MinRecall (0 to 1; 0 is off): a result whose SentRecall is below it carries the
	// low_fidelity warning.
	MinRecall float64
	// AppendixTokens (0 is off): when above 0, the lost artifacts that fit in that many
	// estimated tokens are appended to the model's summary as a preserved_artifacts section.
	AppendixTokens int
	// NoGate (compaction.fidelity.gate: false) turns the quality gate off: the paths no
	// person reviews (automatic compaction, the gateway's) commit what the model wrote, as
	// kimi-cli's auto-compaction does, for a model that writes no usable summary by the gate's
	// measure (a small local one) but that the user chose.
	NoGate bool
}

// AppendixSection names the section the appendix adds after the summary's six
// (docs/fidelity.md, "The appendix").
const AppendixSection = "preserved_artifacts"
