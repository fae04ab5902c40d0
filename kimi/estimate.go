package kimi

import (
	"kompact"
)

// ToolSpec is a tool the agent offers its model, as far as the request
// estimate needs it: its name, description and parameter schema.
type ToolSpec struct {
	Name        string
	Description string
	// Parameters is the JSON schema of the arguments, as compact JSON.
	Parameters []byte
}

// EstimateStringTokens is the text estimate of kimi-cli's request estimate
// (_estimate_text_tokens, src/kimi_cli/llm.py): (ASCII code points + 3) / 4,
// rounded down, plus one per other code point.
func EstimateStringTokens(s string) int {
	ascii, other := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x80:
			ascii++
		case c&0xC0 != 0x80:
			other++
		}
	}
	return (ascii+3)/4 + other
}

// EstimateRequestTokens is kimi-cli's estimate_request_tokens
// (src/kimi_cli/llm.py), used for the completion budget: the text estimate
// of the system prompt, of each tool (name, description, parameters) and of
// each message (see estimateMessageTokens), summed.
//
// Parameters and tool-call extras are estimated on their JSON as kompact
// keeps it (compact, escapes as given), where kimi-cli re-serialises them
// with literal non-ASCII; the two agree unless the JSON escapes non-ASCII.
func EstimateRequestTokens(systemPrompt string, tools []ToolSpec, msgs []kompact.Message) int {
	n := EstimateStringTokens(systemPrompt)
	for _, t := range tools {
		n += EstimateStringTokens(t.Name) + EstimateStringTokens(t.Description) + EstimateStringTokens(string(t.Parameters))
	}
	for i := range msgs {
		n += estimateMessageTokens(&msgs[i])
	}
	return n
}

// estimateMessageTokens is kimi-cli's _estimate_message_tokens: the role,
// the name and tool_call_id when set, each text part's text and think
// part's think, MediaTokenEstimate per media part, any other part's JSON,
// and for each tool call its id, name, arguments ("" when none) and extras
// when set.
func estimateMessageTokens(m *kompact.Message) int {
	n := EstimateStringTokens(string(m.Role))
	if m.Name != "" {
		n += EstimateStringTokens(m.Name)
	}
	if m.ToolCallID != "" {
		n += EstimateStringTokens(m.ToolCallID)
	}
	for i := range m.Content {
		p := &m.Content[i]
		switch {
		case p.Type == kompact.PartText:
			n += EstimateStringTokens(p.Text)
		case p.Type == kompact.PartThink:
			n += EstimateStringTokens(p.Think)
		case p.Type.IsMedia():
			n += MediaTokenEstimate
		default:
			n += EstimateStringTokens(string(p.AppendJSON(nil)))
		}
	}
	for _, c := range m.ToolCalls {
		n += EstimateStringTokens(c.ID) + EstimateStringTokens(c.Name)
		if c.Arguments != nil {
			n += EstimateStringTokens(*c.Arguments)
		}
		if len(c.Extras) > 0 {
			n += EstimateStringTokens(string(c.Extras))
		}
	}
	return n
}

// CompactionInputEstimates returns the two request estimates kimi-cli's
// compact_context weighs for a compaction's completion budget
// (src/kimi_cli/soul/kimisoul.py): the compaction request itself (the
// compactor system prompt, no tools, the synthetic message) and the
// session's next request after compaction (the agent's system prompt and
// tools, the messages kept before the range, a summary placeholder holding
// SummaryPrefix, then the preserved messages). For a no-op plan the first
// is 0.
func CompactionInputEstimates(p *Plan, agentSystemPrompt string, tools []ToolSpec) (request, next int) {
	if p.Noop {
		return 0, EstimateRequestTokens(agentSystemPrompt, tools, p.Session.Messages)
	}
	request = EstimateRequestTokens(CompactorSystemPrompt, nil, []kompact.Message{p.Transcript})
	placeholder := kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(kompact.SummaryPrefix)}}
	next = EstimateRequestTokens(agentSystemPrompt, tools, p.Kept()) +
		estimateMessageTokens(&placeholder) +
		EstimateRequestTokens("", nil, p.Preserved())
	return request, next
}
