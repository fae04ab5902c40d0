package kompact

// The session actions.
const (
	ActionCompactConversation = "compact_conversation"
	ActionCompactUpToHere     = "compact_up_to_here"
	// ActionPruneToolResults clears old, long tool outputs (docs/compaction.md).
	ActionPruneToolResults = "prune_tool_results"
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
	// SessionInstructions: the service puts StoredSession.Instructions here.
	SessionInstructions string `json:"-"`
	// Model, when set, is the compaction model for this run only: it
	// overrides the session's and the agent's (see EffectiveRequest).
	Model string `json:"model,omitempty"`
	// AppendixTokens, when set, is the preserved_artifacts appendix's
	// budget for this run only (0 is off): it overrides the agent's
	// compaction.fidelity.appendix_tokens.
	AppendixTokens *int `json:"appendix_tokens,omitempty"`
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

// UIElements returns the actions a client should offer for agent a: the
// compaction actions its type does (OffersOf: compact_conversation, with
// start and end when the type takes a range, and compact_up_to_here when it
// does it) and the prune when compaction is enabled, none when it is not.
// With no agent (a == nil, the global enumeration) all are returned.
func UIElements(a *Agent) []UIElement {
	if a != nil && !a.CompactionEnabled() {
		return []UIElement{}
	}
	offers := OffersOf(a)
	all := uiElements()
	out := make([]UIElement, 0, len(all))
	for _, el := range all {
		switch {
		case el.ID == ActionCompactUpToHere && !offers.UpToHere:
			continue
		case el.ID == ActionCompactConversation && !offers.Range:
			var params []UIParam
			for _, p := range el.Params {
				if p.Name != "start" && p.Name != "end" {
					params = append(params, p)
				}
			}
			el.Params = params
		}
		out = append(out, el)
	}
	return out
}

// uiElements are every action with all its parameters.
func uiElements() []UIElement {
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
		{ID: ActionPruneToolResults, Label: "Prune old tool output", Kind: "session_action", Params: []UIParam{
			{Name: "keep_recent", Type: "integer", Description: "the latest tool exchanges kept whole; default 5"},
			{Name: "min_chars", Type: "integer", Description: "only outputs longer than this are cleared; default 2000"},
		}},
	}
}
