package kimi

import (
	"kompact"
	"kompact/internal/pystr"
)

// answerKind is what an answer holds, as both of its checks see it: the
// compaction answer's (CheckAnswer) and the chat reply's (checkReply).
// Each kind is checked before the next: an answer with text that is not
// blank is answerText whatever else it holds.
type answerKind int

const (
	// answerText: a part other than thinking that is not blank (kimi-cli
	// counts a text part only when text.strip() is not empty; see
	// pystr.IsBlank).
	answerText answerKind = iota
	// answerToolCall: no such part, and tool calls.
	answerToolCall
	// answerThinkOnly: neither, and thinking (blank text parts may come
	// with it).
	answerThinkOnly
	// answerBlank: only text parts that are blank.
	answerBlank
	// answerEmpty: nothing at all.
	answerEmpty
)

// kind classifies a.
func kindOf(a kompact.Answer) answerKind {
	blank, think := false, false
	for i := range a.Parts {
		switch {
		case a.Parts[i].Type == kompact.PartThink:
			think = true
		case a.Parts[i].Type == kompact.PartText && pystr.IsBlank(a.Parts[i].Text):
			blank = true
		default:
			return answerText
		}
	}
	switch {
	case len(a.ToolCalls) > 0:
		return answerToolCall
	case think:
		return answerThinkOnly
	case blank:
		return answerBlank
	}
	return answerEmpty
}

// CheckAnswer returns the error kimi-cli raises for an answer that carries no
// summary: nothing at all, or thinking and no text that is not blank (text
// parts that are only white space count as none when there is thinking, as
// in kimi-cli; see pystr.IsBlank). kompact also refuses an answer that has
// tool calls and no such text. An answer of blank text alone is accepted,
// as kimi-cli does. The error's code is EEmptyResponse.
func CheckAnswer(a kompact.Answer) error {
	return refuse(a, compactionRefusals)
}

// compactionRefusals are the compaction answers CheckAnswer refuses;
// answerText, and answerBlank as in kimi-cli, are accepted.
var compactionRefusals = map[answerKind]refusal{
	answerToolCall:  {ToolCallOnlyMessage, "Retry; the compaction request carries no tools, so this model ignored that. Try another compaction model."},
	answerThinkOnly: {ThinkOnlyMessage, "Retry, or raise the compaction request's max_tokens so the model has room to answer after reasoning."},
	answerEmpty:     {EmptyResponseMessage, "Retry; if it persists, check the model name and the provider's status."},
}

// refusal is what an answer of a kind that is refused is told: the
// EEmptyResponse error's message and its fix.
type refusal struct{ message, fix string }

// refuse returns the EEmptyResponse error that refusals holds for a's
// kind, or nil when it holds none: a is accepted.
func refuse(a kompact.Answer, refusals map[answerKind]refusal) error {
	r, ok := refusals[kindOf(a)]
	if !ok {
		return nil
	}
	return (&kompact.Error{Code: kompact.EEmptyResponse, Message: r.message}).WithFixes(r.fix)
}
