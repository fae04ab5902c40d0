package kimicode

import (
	"strings"

	"kompact"
)

// FromKompact is a kompact session's messages as a Kimi Code context. A user message
// that starts with the summary prefix is an earlier summary, one that starts with
// <system-reminder> an injection: Kimi Code keeps neither among the user's messages.
func FromKompact(ms []kompact.Message, texts *Texts) []Message {
	out := make([]Message, 0, len(ms))
	for i := range ms {
		m := &ms[i]
		km := Message{Role: string(m.Role), ToolCallID: m.ToolCallID}
		for _, p := range m.Content {
			switch p.Type {
			case kompact.PartText:
				km.Parts = append(km.Parts, Part{Type: "text", Text: p.Text})
			case kompact.PartThink:
				km.Parts = append(km.Parts, Part{Type: "think", Think: p.Think})
			}
		}
		for _, c := range m.ToolCalls {
			args := "{}"
			if c.Arguments != nil {
				args = *c.Arguments
			}
			km.ToolCalls = append(km.ToolCalls, ToolCall{ID: c.ID, Name: c.Name, Arguments: args})
		}
		if km.Role == "user" {
			km.Origin = originOf(km.Text(), texts)
		}
		out = append(out, km)
	}
	return out
}

func originOf(text string, texts *Texts) Origin {
	switch {
	case texts.Prefix() != "" && strings.HasPrefix(text, texts.Prefix()):
		return Origin{Kind: "compaction_summary"}
	case strings.HasPrefix(text, "<system-reminder>"):
		return Origin{Kind: "injection"}
	}
	return Origin{Kind: "user"}
}

// ToKompact is a Kimi Code context as kompact messages: text (and thinking) parts, tool
// calls and tool-call ids; a tool result as Kimi Code sends it (ToolContent).
func ToKompact(ms []Message) []kompact.Message {
	out := make([]kompact.Message, 0, len(ms))
	for i := range ms {
		m := &ms[i]
		km := kompact.Message{Role: kompact.Role(m.Role), ToolCallID: m.ToolCallID}
		for _, p := range m.Parts {
			switch {
			case m.Role == "tool":
			case p.Type == "text":
				km.Content = append(km.Content, kompact.TextPart(p.Text))
			case p.Type == "think":
				km.Content = append(km.Content, kompact.Part{Type: kompact.PartThink, Think: p.Think})
			}
		}
		if m.Role == "tool" {
			km.Content = []kompact.Part{kompact.TextPart(m.ToolContent())}
		}
		for _, c := range m.ToolCalls {
			args := c.Arguments
			km.ToolCalls = append(km.ToolCalls, kompact.ToolCall{ID: c.ID, Name: c.Name, Arguments: &args})
		}
		out = append(out, km)
	}
	return out
}

// kompactText is the text of m's text parts.
func kompactText(m *kompact.Message) string {
	var b strings.Builder
	m.Texts(func(s string) { b.WriteString(s) })
	return b.String()
}
