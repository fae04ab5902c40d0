package kompact

// The session actions.
const (
	ActionCompactConversation = "compact_conversation"
	ActionCompactUpToHere     = "compact_up_to_here"
)

// ActionRequest is a session action to execute.
type ActionRequest struct {
	// Action is ActionCompactConversation or ActionCompactUpToHere.
	Action string `json:"action"`
	// Start and End (compact_conversation) name the range's first and last
	// messages; both optional.
	Start string `json:"start,omitempty"`
	End   string `json:"end,omitempty"`
	// MessageID (compact_up_to_here) names the anchor message.
	MessageID    string `json:"message_id,omitempty"`
	Instructions string `json:"instructions,omitempty"`
	// Model, when set, is the compaction model for this run only: it
	// overrides the session's and the agent's (see EffectiveRequest).
	Model string `json:"model,omitempty"`
	// AppendixTokens, when set, is the preserved_artifacts appendix's
	// budget for this run only (0 is off): it overrides the agent's
	// compaction.fidelity.appendix_tokens.
	AppendixTokens *int `json:"appendix_tokens,omitempty"`
}

// options returns the Options that select what req compacts, with
// maxPreserved trailing messages kept when the range has no end.
func (req ActionRequest) options(maxPreserved int) (Options, error) {
	opt := Options{MaxPreserved: maxPreserved, Instructions: req.Instructions}
	if n := req.AppendixTokens; n != nil {
		if *n < 0 || *n > MaxTokenFigure {
			return opt, Errorf(EInvalid, "appendix_tokens must be a number of tokens from 0 to %d, got %d", int64(MaxTokenFigure), *n).
				WithFixes("Use 0 for no appendix, or the tokens the preserved_artifacts section may take, e.g. 500.")
		}
		opt.Fidelity.AppendixTokens = *n
	}
	switch req.Action {
	case ActionCompactConversation:
		if req.MessageID != "" {
			return opt, Errorf(EInvalid, "compact_conversation takes start and end, not message_id").
				WithFixes("Use compact_up_to_here with message_id to compact up to a message, or start and end for a range.")
		}
		opt.Start, opt.End = req.Start, req.End
	case ActionCompactUpToHere:
		if req.MessageID == "" {
			return opt, Errorf(EInvalid, "compact_up_to_here needs message_id, the anchor message").
				WithFixes("Pass the id of the message up to which to compact.")
		}
		if req.Start != "" || req.End != "" {
			return opt, Errorf(EInvalid, "compact_up_to_here takes message_id only, not start or end").
				WithFixes("Use compact_conversation with start and end to compact a range.")
		}
		opt.End = req.MessageID
	default:
		return opt, Errorf(EInvalid, "unknown action %q", req.Action).
			WithFixes("Use " + ActionCompactConversation + " or " + ActionCompactUpToHere + ".")
	}
	return opt, nil
}

// UIElement describes an action a client can offer.
type UIElement struct {
	ID     string    `json:"id"`
	Label  string    `json:"label"`
	Kind   string    `json:"kind"` // "session_action" or "message_action"
	Params []UIParam `json:"params"`
}

// UIParam is one parameter an action takes.
type UIParam struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Required    bool   `json:"required"`
	Description string `json:"description"`
}

// UIElements returns the actions a client should offer for agent a: both
// compaction actions when compaction is enabled, none when it is not. With
// no agent (a == nil, the global enumeration) both are returned, so the
// actions stay discoverable.
func UIElements(a *Agent) []UIElement {
	if a != nil && !a.CompactionEnabled() {
		return []UIElement{}
	}
	return []UIElement{
		{
			ID: ActionCompactConversation, Label: "Compact conversation", Kind: "session_action",
			Params: []UIParam{
				{Name: "start", Type: "message_id", Description: "first message to compact; default: the first message"},
				{Name: "end", Type: "message_id", Description: "last message to compact, inclusive; when set, the range is compacted exactly and no tail is preserved"},
				{Name: "instructions", Type: "string", Description: "what the summary should focus on"},
			},
		},
		{
			ID: ActionCompactUpToHere, Label: "Compact up to here", Kind: "message_action",
			Params: []UIParam{
				{Name: "message_id", Type: "message_id", Required: true, Description: "the anchor: this message and everything before it are compacted"},
				{Name: "instructions", Type: "string", Description: "what the summary should focus on"},
			},
		},
	}
}
