package service

import "kompact"

// A client's injected context (Codex's base instructions, its skills and
// permissions, its <environment_context>: docs/gateway.md, "Codex") is
// stored with the conversation but is not what a summary is for: the
// client sends it again itself after every compaction. The gateway pins
// those messages when it stores them (docs/compaction.md, "Pinned
// messages"): the ones the session is made with, and the ones a later
// request appends (an <environment_context> of a new working directory,
// the context after a summary in the turn that continues a compaction),
// in the same write as the append (kompact.GatewayUpdate.Pin). Every
// compaction keeps them verbatim and leaves them out of the transcript
// its LLM summarises and out of what fidelity counts as sent. Only a
// conversation that tells its context (ContextMarker, the Responses
// face's) gets such pins: every other session is stored as before, byte
// for byte.
//
// A context message equal to one the session pins already is pinned
// too: Codex sends its environment again when it changes, and going back
// to an earlier working directory sends an earlier message again word for
// word; only the latest one, kept in its place after the summary, says
// where the client is now.

// ContextMarker is a conversation that tells which of its messages are
// context its client injects rather than the conversation's own words
// (openai.ResponsesRequest.Context).
type ContextMarker interface {
	Context(i int) bool
}

// contextPins returns the ids of msgs (conv's messages from from on, read
// in order) that conv marks as injected context, at most
// kompact.MaxPinned of them; nil when conv marks none or tells none.
func contextPins(conv kompact.Conversation, from int, msgs []kompact.Message) []string {
	cm, ok := conv.(ContextMarker)
	if !ok {
		return nil
	}
	var pins []string
	for i := range msgs {
		if len(pins) == kompact.MaxPinned {
			break
		}
		if cm.Context(from + i) {
			pins = append(pins, msgs[i].ID)
		}
	}
	return pins
}
