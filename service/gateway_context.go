package service

import "kompact"

// A client's injected context (Codex's base instructions, its skills and
// permissions, its <environment_context>: docs/gateway.md, "Codex") is
// stored with the conversation but is not what a summary is for: the
// client sends it again itself after every compaction. The gateway pins
// those messages when it makes the session (docs/compaction.md, "Pinned
// messages"), so that every compaction keeps them verbatim and leaves them
// out of the transcript its LLM summarises and out of what fidelity counts
// as sent. Only a conversation that tells its context (ContextMarker, the
// Responses face's) gets such pins: every other session is stored as
// before, byte for byte.

// ContextMarker is a conversation that tells which of its messages are
// context its client injects rather than the conversation's own words
// (openai.ResponsesRequest.Context).
type ContextMarker interface {
	Context(i int) bool
}

// contextPins returns the ids of msgs (the session's first messages, read
// from conv in order) that conv marks as injected context, at most
// kompact.MaxPinned of them; nil when conv marks none or tells none.
func contextPins(conv kompact.Conversation, msgs []kompact.Message) []string {
	cm, ok := conv.(ContextMarker)
	if !ok {
		return nil
	}
	var pins []string
	for i := range msgs {
		if len(pins) == kompact.MaxPinned {
			break
		}
		if cm.Context(i) {
			pins = append(pins, msgs[i].ID)
		}
	}
	return pins
}
