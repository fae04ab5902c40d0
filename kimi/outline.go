package kimi

import (
	"strings"

	"kompact"
)

// Outline returns m as far as planning a compaction reads it (Prepare and
// Plan.Counts: the range's ends, the preserved tail, tool-call pairs and a
// lone earlier summary): its id, role, name, tool_call_id and tool calls'
// ids, and, for a summary (IsSummary), a first text part holding
// SummaryPrefix alone; none of its text otherwise. It shares no memory
// with m. A dry run plans on outlines, so that it never holds a session's
// text; its token figure comes from the messages' TextLen, kept apart.
func Outline(m *kompact.Message) kompact.Message {
	o := kompact.Message{ID: strings.Clone(m.ID), Role: outlineRole(m.Role), Name: strings.Clone(m.Name),
		ToolCallID: strings.Clone(m.ToolCallID), HasToolCallID: m.HasToolCallID}
	if kompact.IsSummary(*m) {
		o.Content = []kompact.Part{kompact.TextPart(kompact.SummaryPrefix)}
	}
	if len(m.ToolCalls) > 0 {
		o.ToolCalls = make([]kompact.ToolCall, len(m.ToolCalls))
		for i := range m.ToolCalls {
			o.ToolCalls[i].ID = strings.Clone(m.ToolCalls[i].ID)
		}
	}
	return o
}

// outlineRole returns r as one of the Role constants when it is one, so
// that an outline holds no copy of it.
func outlineRole(r kompact.Role) kompact.Role {
	for _, k := range []kompact.Role{kompact.RoleSystem, kompact.RoleUser, kompact.RoleAssistant, kompact.RoleTool} {
		if r == k {
			return k
		}
	}
	return kompact.Role(strings.Clone(string(r)))
}
