package kimicode

import (
	"unicode/utf8"
)

// The kept user messages' budgets, in estimator tokens.
const (
	KeptBudget     = 20000
	KeptHeadBudget = 2000
)

// Handoff is the context a compaction leaves: the kept user messages (head, elision note,
// tail), the summary and the continuation note.
type Handoff struct {
	Messages []Message
	// Kept counts the kept user messages (head and tail), KeptHead those of the head.
	Kept, KeptHead int
	// Elided is true when some user text was left out (then KeptHead is reported).
	Elided bool
}

// Rebuild is the context Kimi Code 2.1.0 makes of history with the summary message text
// contextSummary.
func Rebuild(history []Message, contextSummary string, texts *Texts) Handoff {
	var users []Message
	for _, m := range history {
		if keptUser(&m) {
			users = append(users, m)
		}
	}
	head, tail, omitted, elided := selectUsers(users, EstimateMessages(users))
	h := Handoff{Kept: len(head) + len(tail), KeptHead: len(head), Elided: elided}
	h.Messages = append(h.Messages, head...)
	if elided {
		h.Messages = append(h.Messages, userText(texts.ElisionText(omitted), Origin{Kind: "injection", Variant: "compaction_elision"}))
	}
	h.Messages = append(h.Messages, tail...)
	h.Messages = append(h.Messages, userText(contextSummary, Origin{Kind: "compaction_summary"}),
		userText(texts.ContinuationText(), Origin{Kind: "injection", Variant: "compaction_continuation"}))
	return h
}

// keptUser says whether m is a user's own message, which a compaction keeps.
func keptUser(m *Message) bool {
	if m.Role != "user" {
		return false
	}
	switch m.Origin.Kind {
	case "", "user":
		return true
	case "skill_activation", "plugin_command":
		return m.Origin.Trigger == "user-slash"
	}
	return false
}

// selectUsers keeps all of users (whose estimate is total) within KeptBudget, else a head
// of KeptHeadBudget from the oldest and a tail of the rest from the newest, cutting the
// boundary messages. It walks only the messages it keeps; users is not changed.
func selectUsers(users []Message, total int) (head, tail []Message, omitted int, elided bool) {
	if total <= KeptBudget {
		return nil, users, 0, false
	}
	remaining, headEnd := KeptBudget-KeptHeadBudget, len(users)
	var droppedPrefix *Message
	for i := len(users) - 1; i >= 0 && remaining > 0; i-- {
		m := users[i]
		headEnd = i
		if n := EstimateMessage(&m); n <= remaining {
			tail = append(tail, m)
			remaining -= n
			continue
		}
		full := m.Text()
		suffix := suffixWithin(full, remaining)
		tail = append(tail, withText(m, suffix))
		if prefix := full[:len(full)-len(suffix)]; prefix != "" {
			p := withText(m, prefix)
			droppedPrefix = &p
		}
		break
	}
	for i, j := 0, len(tail)-1; i < j; i, j = i+1, j-1 {
		tail[i], tail[j] = tail[j], tail[i]
	}
	// The head comes from users[:headEnd], then the cut message's dropped prefix.
	remaining = KeptHeadBudget
	for i := 0; remaining > 0; i++ {
		var m Message
		switch {
		case i < headEnd:
			m = users[i]
		case i == headEnd && droppedPrefix != nil:
			m = *droppedPrefix
		}
		if m.Role == "" {
			break
		}
		if n := EstimateMessage(&m); n <= remaining {
			head = append(head, m)
			remaining -= n
			continue
		}
		head = append(head, withText(m, prefixWithin(m.Text(), remaining)))
		break
	}
	kept := EstimateMessages(head) + EstimateMessages(tail)
	return head, tail, max(0, total-kept), true
}

// withText is m with text as its only part and no tool calls.
func withText(m Message, text string) Message {
	m.Parts = []Part{{Type: "text", Text: text}}
	m.ToolCalls = nil
	return m
}

// prefixWithin is the longest prefix of s, in code points, that the estimator counts at
// most max tokens.
func prefixWithin(s string, max int) string {
	if max <= 0 {
		return ""
	}
	ascii, other, end := 0, 0, 0
	for i, r := range s {
		if r <= 127 {
			ascii++
		} else {
			other++
		}
		if (ascii+3)/4+other > max {
			return s[:i]
		}
		end = i + utf8.RuneLen(r)
	}
	return s[:end]
}

// suffixWithin is the longest suffix of s, in code points, that the estimator counts at
// most max tokens.
func suffixWithin(s string, max int) string {
	if max <= 0 {
		return ""
	}
	ascii, other, start := 0, 0, len(s)
	for i := len(s); i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
		if r <= 127 {
			ascii++
		} else {
			other++
		}
		if (ascii+3)/4+other > max {
			break
		}
		start = i
	}
	return s[start:]
}
