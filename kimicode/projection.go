package kimicode

import "encoding/json"

// toolInterruptedText is the result Kimi Code sends for a tool call whose result is not
// in the context.
const toolInterruptedText = "Tool result is not available in the current context. Do not assume the tool completed successfully."

// block is one step of the projection: a message, or an assistant message with tool
// calls and the result of each (nil: none came).
type block struct {
	m       Message
	results []*Message
}

// project is the context ms as Kimi Code 2.1.0 projects it for a request (its
// contextProjector's default projection): blank text parts dropped, a message left
// with nothing (or only blank thinking) and no tool calls dropped, each tool result put
// after the call it answers (a result that answers no call dropped, a call without a
// result answered with toolInterruptedText), the user's consecutive messages merged
// into one, their texts joined by a blank line.
func project(ms []Message) []Message {
	return flatten(pair(ms))
}

// pair makes the blocks of ms. A context without an assistant message passes its tool
// results through as they are (Kimi Code's sizing layout).
func pair(ms []Message) []*block {
	sizing := true
	for i := range ms {
		if ms[i].Role == "assistant" {
			sizing = false
		}
	}
	type call struct {
		b *block
		i int
	}
	open := map[string]call{}
	var blocks []*block
	for i := range ms {
		m := ms[i]
		if m.Role == "tool" && !sizing {
			c, ok := open[m.ToolCallID]
			if m.ToolCallID == "" || !ok {
				continue
			}
			delete(open, m.ToolCallID)
			c.b.results[c.i] = &m
			continue
		}
		if m.Role != "tool" {
			m.Parts = withoutBlankText(m.Parts)
			if len(m.ToolCalls) == 0 && vacuous(m.Parts) {
				continue
			}
		}
		b := &block{m: m}
		if len(m.ToolCalls) > 0 {
			b.results = make([]*Message, len(m.ToolCalls))
			for j, c := range m.ToolCalls {
				// A call id seen before: the earlier call stays without a result.
				open[c.ID] = call{b, j}
			}
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// flatten writes the blocks as messages: the user's consecutive messages merged, each
// assistant message followed by its calls' results.
func flatten(blocks []*block) []Message {
	var out, group []Message
	end := func() {
		if len(group) > 0 {
			out = append(out, merged(group))
		}
		group = nil
	}
	for _, b := range blocks {
		if b.m.Role == "user" && b.m.Origin.Kind == "user" && len(b.m.ToolCalls) == 0 {
			group = append(group, b.m)
			continue
		}
		end()
		out = append(out, b.m)
		for i, r := range b.results {
			if r == nil {
				r = &Message{Role: "tool", ToolCallID: b.m.ToolCalls[i].ID, Parts: []Part{textPart(toolInterruptedText)}}
			}
			out = append(out, *r)
		}
	}
	end()
	return out
}

// merged is the user's consecutive messages as one: a single one as it is, else one text
// part of each message's texts joined by a blank line, then their other parts.
func merged(group []Message) Message {
	if len(group) == 1 {
		return group[0]
	}
	var texts []string
	var others []Part
	for _, m := range group {
		text := ""
		for _, p := range m.Parts {
			if p.Type == "text" {
				text += p.Text
			} else {
				others = append(others, p)
			}
		}
		if text != "" {
			texts = append(texts, text)
		}
	}
	m := group[0]
	m.Parts = nil
	if joined := joinBlankLine(texts); joined != "" {
		m.Parts = []Part{textPart(joined)}
	}
	m.Parts = append(m.Parts, others...)
	return m
}

func joinBlankLine(texts []string) string {
	s := ""
	for i, t := range texts {
		if i > 0 {
			s += "\n\n"
		}
		s += t
	}
	return s
}

// withoutBlankText is ps without its blank text parts.
func withoutBlankText(ps []Part) []Part {
	out := ps[:0:0]
	for _, p := range ps {
		if p.Type != "text" || jsTrim(p.Text) != "" {
			out = append(out, p)
		}
	}
	return out
}

// vacuous: ps holds nothing to send (no part, or only blank text and blank thinking
// that is not encrypted).
func vacuous(ps []Part) bool {
	for _, p := range ps {
		switch p.Type {
		case "text":
			if jsTrim(p.Text) != "" {
				return false
			}
		case "think":
			var enc struct {
				Encrypted *string `json:"encrypted"`
			}
			_ = json.Unmarshal(p.Raw, &enc)
			if enc.Encrypted != nil || jsTrim(p.Think) != "" {
				return false
			}
		default:
			return false
		}
	}
	return true
}
