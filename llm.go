package kompact

import (
	"context"
	"errors"
)

// LLM sends requests to an OpenAI-compatible chat-completions API.
type LLM interface {
	// Complete sends msgs with the request configuration cfg and returns the model's answer.
	// progress, when not nil, is called as the answer streams in. Failures are *Error values
	// with code ELLM (or EEmptyResponse); a provider's "input too long" answer wraps
	// ErrContextTooLong.
	Complete(ctx context.Context, cfg RequestConfig, msgs []Message, progress func(Progress)) (Answer, error)
}

// ErrContextTooLong is wrapped by LLM errors when the provider says the compaction input
// exceeds the model's context window.
var ErrContextTooLong = errors.New("the compaction input exceeds the model's context window")

// Progress reports a compaction in flight. A report whose Round or Attempt differs from the
// previous one's starts a new answer: Chars and the text made of the Deltas start again from
// nothing.
type Progress struct {
	// Round counts the requests sent for this compaction, from 1 (its JSON name is "request"):
	// a request too long for the model is sent again with fewer messages.
	Round int `json:"request"`
	// Attempt is the LLM client's attempt at sending the current request, from 1 (while
	// Waiting, the attempt it waits to make), of MaxAttempts.
	Attempt     int `json:"attempt"`
	MaxAttempts int `json:"max_attempts,omitempty"`
	// Chars counts the code points of answer text and reasoning received.
	Chars int `json:"chars"`
	// Delta is the answer text received since the previous report, so that a client can show
	// the summary as it streams.
	Delta string `json:"delta,omitempty"`
	// Dropped is the Plan.Dropped of the request in flight: the oldest compactable messages
	// left out so that it fits the context window.
	Dropped int `json:"dropped"`
	// Waiting, when not empty, says why the client is waiting before it retries (a rate limit,
	// a server error) and for how long; RetryIn is that wait in seconds.
	Waiting string  `json:"waiting,omitempty"`
	RetryIn float64 `json:"retry_in,omitempty"`
}

// Merge returns p, the newer report, with the Delta of the older report q in front when both
// belong to the same answer: what a client that missed q must see. A surface that coalesces
// reports uses it.
func (p Progress) Merge(q Progress) Progress {
	if q.Round == p.Round && q.Attempt == p.Attempt {
		p.Delta = q.Delta + p.Delta
	}
	return p
}

// Answer is the LLM's reply to a request (a compaction's, or a chat turn's): its content parts
// (text and think) in order, any tool calls, and the usage when reported.
type Answer struct {
	Parts     []Part
	ToolCalls []ToolCall
	Usage     *Usage
}
