package kompact

import (
	"strconv"
)

// WarningCode names something a compaction result loses or fails to gain.
type WarningCode string

// The warnings of a compaction result.
const (
	// WarnDroppedMessages: the oldest messages of the range were left out of
	// the request to fit the model's context window; the summary replaces
	// them but does not cover them.
	WarnDroppedMessages WarningCode = "dropped_messages"
	// WarnAllSectionsMissing: the summary has none of the required sections.
	WarnAllSectionsMissing WarningCode = "all_sections_missing"
	// WarnTokensNotReduced: the compacted session is estimated to be no
	// smaller than the session before.
	WarnTokensNotReduced WarningCode = "tokens_not_reduced"
	// WarnLowFidelity: the summary kept fewer of the range's artifacts than
	// the agent's compaction.fidelity.min_recall asks.
	WarnLowFidelity WarningCode = "low_fidelity"
)

// Warning is one warning about a compaction result, with a sentence for
// people.
type Warning struct {
	Code    WarningCode `json:"code"`
	Message string      `json:"message"`
}

// Warnings returns what the result loses or fails to gain, in a fixed
// order; none for a result that is safe to apply without asking. This is the
// one place that decides what deserves a warning.
func (r *Result) Warnings() []Warning {
	var out []Warning
	if d := r.Dropped(); d > 0 {
		verb := " were"
		if d == 1 {
			verb = " was"
		}
		// The range counted as the report counts it (replaced_messages):
		// a kept leading system message is not among the dropped ones.
		out = append(out, Warning{Code: WarnDroppedMessages, Message: strconv.Itoa(d) + " of the " + CountOf(r.Replaced(), "compacted message") +
			verb + " left out of the summary to fit the model's context window; the summary does not cover them"})
	}
	if len(r.MissingSections) > 0 && len(r.MissingSections) == len(SectionNames) {
		out = append(out, Warning{Code: WarnAllSectionsMissing, Message: "the summary has none of the " +
			strconv.Itoa(len(SectionNames)) + " required sections; the model may not have followed the compaction prompt"})
	}
	if r.TokensAfter >= r.TokensBefore {
		out = append(out, Warning{Code: WarnTokensNotReduced, Message: "the compacted session is not smaller: about " +
			strconv.Itoa(r.TokensBefore) + " tokens before, " + strconv.Itoa(r.TokensAfter) + " after"})
	}
	if f, min := r.Fidelity, r.MinRecall; f != nil && min > 0 && f.SentRecall < min {
		out = append(out, Warning{Code: WarnLowFidelity, Message: lowFidelity(f, min)})
	}
	return out
}

// lowFidelity is the low_fidelity warning's message: what the summary
// kept of the artifacts the model was sent (SentRecall, which min judges),
// then those it was not sent.
func lowFidelity(f *Fidelity, min float64) string {
	msg := "the summary kept " + strconv.Itoa(f.SentKept) + " of the " + strconv.Itoa(f.Artifacts-f.NotSent) +
		" artifacts the model was sent (sent_recall " + strconv.FormatFloat(f.SentRecall, 'f', 2, 64) +
		", below compaction.fidelity.min_recall " + strconv.FormatFloat(min, 'g', -1, 64) + ")"
	if f.NotSent > 0 {
		msg += "; " + strconv.Itoa(f.NotSent) + " more appeared only in parts the request does not send"
	}
	return msg
}

// Warnings returns the warnings of the outcome's result (see
// Result.Warnings); none when it has no result.
func (o Outcome) Warnings() []Warning {
	if o.Result == nil {
		return nil
	}
	return o.Result.Warnings()
}
