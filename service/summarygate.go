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
// (the gateway forwards the client's own compaction request). A person's
// preview shows such a summary with its warnings instead, as before.

// maxAckWords and maxAckRunes bound what the gate takes for an
// acknowledgement rather than a summary ("ACK_21", "OK.", "Understood"):
// no more words and code points than these.
const (
	maxAckWords = 2
	maxAckRunes = 32
)

// summaryGate says why result res must not replace a history by itself
// (nil when it may): its summary is empty, only an acknowledgement, has
// none of the compaction type's required sections, or keeps fewer of the
// artifacts it was sent than the agent's fidelity.min_recall. An agent with
// compaction.fidelity.gate: false has no gate.
func summaryGate(a *kompact.Agent, res *kompact.Result) *kompact.Error {
	if a.Compaction.Fidelity.NoGate {
		return nil
	}
	body := strings.TrimSpace(res.Summary)
	why := ""
	switch {
	case body == "":
		why = "the summary is empty"
	case len(strings.Fields(body)) <= maxAckWords && utf8.RuneCountInString(body) <= maxAckRunes:
		why = "the summary is only an acknowledgement (" + strconv.Quote(body) + ")"
	case len(res.MissingSections) > 0 && len(res.MissingSections) == len(kompact.SectionNames):
		why = "the summary has none of the " + strconv.Itoa(len(kompact.SectionNames)) + " required sections"
	case res.Fidelity != nil && res.MinRecall > 0 && res.Fidelity.SentRecall < res.MinRecall:
		why = "the summary kept too little of what it was sent (sent_recall " + strconv.FormatFloat(res.Fidelity.SentRecall, 'f', 2, 64) +
			", below compaction.fidelity.min_recall " + strconv.FormatFloat(res.MinRecall, 'g', -1, 64) + ")"
	default:
		return nil
	}
	return kompact.Errorf(kompact.ELLM, "%s, so it was not committed: the session is unchanged", why).
		WithFixes("Compact the session by hand with a preview to read the summary and its warnings before applying it.",
			"Check the agent's compaction model and prompt: the model did not write a usable summary.")
}
