package service

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"kompact"
)

// This file is the quality gate of the compactions no person reviews
// (docs/compaction.md, "The quality gate"): automatic compaction, the
// gateway's precompute and the summaries the gateway answers a client's
// compaction request with. A result the gate refuses is never committed:
// the compaction is tried once more, and then the session stays as it is
// (the gateway forwards the client's own compaction request) and the
// refusal is kept in the session's failure log. A person's preview shows
// such a summary with its warnings instead, as before.

// maxAckWords and maxAckRunes bound what the gate takes for an
// acknowledgement rather than a summary ("ACK_21", "OK.", "Understood"):
// no more words and code points than these.
const (
	maxAckWords = 2
	maxAckRunes = 32
)

// refusal is why the gate refused a summary: the failure log's reason
// (kompact.RefusedEmpty and its kin), the required sections it lacks, and
// the error.
type refusal struct {
	reason  string
	missing []string
	err     *kompact.Error
}

// summaryGate says why result res must not replace a history by itself
// (nil when it may): its summary is empty, only an acknowledgement, lacks
// any of the sections its compaction type's form requires for the prompt
// it was asked with (kompact.SummaryForm.RequiredSections: kimi's six for
// kimi-cli's and kompact's own prompt, none for kimi-code's free-form
// summary), or keeps fewer of the artifacts it was sent than the agent's
// fidelity.min_recall. An agent with compaction.fidelity.gate: false has
// no gate.
func summaryGate(a *kompact.Agent, res *kompact.Result) *refusal {
	if a.Compaction.Fidelity.NoGate {
		return nil
	}
	body := strings.TrimSpace(res.Summary)
	form := formOf(a, res)
	r := &refusal{}
	why := ""
	switch {
	case body == "":
		r.reason, why = kompact.RefusedEmpty, "the summary is empty"
	case len(strings.Fields(body)) <= maxAckWords && utf8.RuneCountInString(body) <= maxAckRunes:
		r.reason, why = kompact.RefusedAcknowledgement, "the summary is only an acknowledgement ("+strconv.Quote(body)+")"
	case len(form.MissingRequired(res.Summary, res.Prompt)) > 0:
		r.missing = form.MissingRequired(res.Summary, res.Prompt)
		r.reason, why = kompact.RefusedMissingSections, missingWhy(r.missing, len(form.RequiredSections(res.Prompt)))
	case res.Fidelity != nil && res.MinRecall > 0 && res.Fidelity.SentRecall < res.MinRecall:
		r.reason = kompact.RefusedLowRecall
		why = "the summary kept too little of what it was sent (sent_recall " + strconv.FormatFloat(res.Fidelity.SentRecall, 'f', 2, 64) +
			", below compaction.fidelity.min_recall " + strconv.FormatFloat(res.MinRecall, 'g', -1, 64) + ")"
	default:
		return nil
	}
	r.err = kompact.Errorf(kompact.ELLM, "%s, so it was not committed: the session is unchanged", why).
		WithFixes("Compact the session by hand with a preview to read the summary and its warnings before applying it.",
			"Check the agent's compaction model and prompt: the model did not write a usable summary.")
	return r
}

// formOf is the summary form of the type that made res (agent a's when
// the result does not name one).
func formOf(a *kompact.Agent, res *kompact.Result) kompact.SummaryForm {
	if res.Type != "" {
		if t, err := kompact.LookupCompactionType(res.Type); err == nil {
			return t.SummaryForm()
		}
	}
	return kompact.SummaryFormOf(a)
}

// missingWhy says which of the required sections a summary lacks.
func missingWhy(missing []string, required int) string {
	if len(missing) == required {
		return "the summary has none of the " + strconv.Itoa(required) + " required sections (" + strings.Join(missing, ", ") + ")"
	}
	return "the summary lacks " + strconv.Itoa(len(missing)) + " of the " + strconv.Itoa(required) + " required sections (" + strings.Join(missing, ", ") + ")"
}
