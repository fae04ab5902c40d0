package anthropic

import (
	"bytes"
	"encoding/json"

	"kompact"
)

// This file reads the usage an answer reports: a message's "usage"
// (input, cache read and cache creation tokens, output), in a streamed
// answer message_start's, updated by message_delta's.

// wireUsage is a Messages usage report.
type wireUsage struct {
	InputTokens              *int64 `json:"input_tokens"`
	OutputTokens             *int64 `json:"output_tokens"`
	CacheReadInputTokens     *int64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens *int64 `json:"cache_creation_input_tokens"`
}

// add sets into u the figures w reports.
func (w *wireUsage) add(u *kompact.Usage) {
	for _, f := range []struct {
		v   *int64
		dst *int64
	}{{w.InputTokens, &u.InputOther}, {w.OutputTokens, &u.Output}, {w.CacheReadInputTokens, &u.InputCacheRead}, {w.CacheCreationInputTokens, &u.InputCacheCreation}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
}

// StreamUsage reads the usage of a streamed answer, event by event: Event
// takes each event's data, Usage returns what they reported (nil when
// none did).
type StreamUsage struct {
	u   kompact.Usage
	has bool
}

// Event reads one event's data: message_start's message.usage, then each
// message_delta's usage, whose figures replace the ones before (they are
// cumulative). It never strips an event (the result is for
// openai.RelayEvents).
func (s *StreamUsage) Event(data []byte) bool {
	if len(data) == 0 || data[0] != '{' || !bytes.Contains(data, []byte(`"usage"`)) {
		return false
	}
	var ev struct {
		Type    string     `json:"type"`
		Usage   *wireUsage `json:"usage"`
		Message *struct {
			Usage *wireUsage `json:"usage"`
		} `json:"message"`
	}
	if json.Unmarshal(data, &ev) != nil {
		return false
	}
	w := ev.Usage
	if ev.Type == "message_start" && ev.Message != nil {
		w = ev.Message.Usage
	}
	if w != nil && (ev.Type == "message_start" || ev.Type == "message_delta") {
		w.add(&s.u)
		s.has = true
	}
	return false
}

// Usage is the usage the events reported, nil for none.
func (s *StreamUsage) Usage() *kompact.Usage {
	if !s.has || (s.u.Input() == 0 && s.u.Output == 0) {
		return nil
	}
	u := s.u
	return &u
}

// BodyUsage is the usage of a non-streamed answer (a message object); nil
// when it reports none.
func BodyUsage(body []byte) *kompact.Usage {
	var m struct {
		Usage *wireUsage `json:"usage"`
	}
	if json.Unmarshal(body, &m) != nil || m.Usage == nil {
		return nil
	}
	var s StreamUsage
	m.Usage.add(&s.u)
	s.has = true
	return s.Usage()
}
