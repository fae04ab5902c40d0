package kimi

import (
	"kompact"
)

// The request fields that carry a completion limit.
const (
	FieldMaxCompletionTokens = "max_completion_tokens"
	FieldMaxTokens           = "max_tokens"
)

// CompletionLimit returns the completion limit a compaction request of plan
// p carries for agent a when its model's context size is maxContextSize
// (≤ 0: unknown): kimi-cli's _compute_completion_overrides
// (CompactionCompletionTokens over CompactionInputEstimates, with the
// agent's system prompt and no tools). It names the field: for a Kimi agent
// max_completion_tokens, with a configured max_completion_tokens, else
// max_tokens, as the budget; for another agent max_tokens, only when one is
// configured (it then caps the limit). ok is false when nothing is sent: an
// unknown size, a no-op plan, a Kimi agent whose max_completion_tokens is
// set to null, or another agent without max_tokens.
func CompletionLimit(a *kompact.Agent, p *Plan, fields map[string]any, maxContextSize int) (field string, limit int, ok bool) {
	if maxContextSize <= 0 || p.Noop {
		return "", 0, false
	}
	var budget *int
	if a.LLM.IsKimi() {
		field = FieldMaxCompletionTokens
		if v, set := fields[FieldMaxCompletionTokens]; set && v == nil {
			return "", 0, false
		}
		budget = intField(fields, FieldMaxCompletionTokens)
		if budget == nil {
			budget = intField(fields, FieldMaxTokens)
		}
	} else {
		field = FieldMaxTokens
		if budget = intField(fields, FieldMaxTokens); budget == nil {
			return "", 0, false
		}
	}
	request, next := CompactionInputEstimates(p, a.SystemPrompt, nil)
	auto := a.Compaction.Auto.Effective()
	return field, CompactionCompletionTokens(maxContextSize, request, next, budget, auto.ReservedContextSize), true
}

// intField returns fields[name] when it is an integer.
func intField(fields map[string]any, name string) *int {
	var n int
	switch v := fields[name].(type) {
	case int:
		n = v
	case int64:
		n = int(v)
	case float64:
		if v != float64(int(v)) {
			return nil
		}
		n = int(v)
	default:
		return nil
	}
	return &n
}

// optionsOf returns the Options that select what req compacts for agent
// a, with its max_preserved_messages and its instructions (JoinInstructions).
func optionsOf(a *kompact.Agent, req kompact.ActionRequest) (Options, error) {
	opt := Options{MaxPreserved: a.Compaction.MaxPreserved(), Instructions: JoinInstructions(a.Compaction.Instructions, req.SessionInstructions, req.Instructions)}
	if n := req.AppendixTokens; n != nil {
		if *n < 0 || *n > kompact.MaxTokenFigure {
			return opt, kompact.Errorf(kompact.EInvalid, "appendix_tokens must be a number of tokens from 0 to %d, got %d", int64(kompact.MaxTokenFigure), *n).
				WithFixes("Use 0 for no appendix, or the tokens the preserved_artifacts section may take, e.g. 500.")
		}
		opt.Fidelity.AppendixTokens = *n
	}
	switch req.Action {
	case kompact.ActionCompactConversation:
		if req.MessageID != "" {
			return opt, kompact.Errorf(kompact.EInvalid, "compact_conversation takes start and end, not message_id").
				WithFixes("Use compact_up_to_here with message_id to compact up to a message, or start and end for a range.")
		}
		opt.Start, opt.End = req.Start, req.End
	case kompact.ActionCompactUpToHere:
		if req.MessageID == "" {
			return opt, kompact.Errorf(kompact.EInvalid, "compact_up_to_here needs message_id, the anchor message").
				WithFixes("Pass the id of the message up to which to compact.")
		}
		if req.Start != "" || req.End != "" {
			return opt, kompact.Errorf(kompact.EInvalid, "compact_up_to_here takes message_id only, not start or end").
				WithFixes("Use compact_conversation with start and end to compact a range.")
		}
		opt.End = req.MessageID
	default:
		return opt, kompact.Errorf(kompact.EInvalid, "unknown action %q", req.Action).
			WithFixes("Use " + kompact.ActionCompactConversation + " or " + kompact.ActionCompactUpToHere + ".")
	}
	return opt, nil
}
