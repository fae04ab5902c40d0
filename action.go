package kompact

import (
	"context"
	"errors"
)

// LLM sends requests to an OpenAI-compatible chat-completions API.
type LLM interface {
	// Complete sends msgs with the request configuration cfg and returns the
	// model's answer. progress, when not nil, is called as the answer
	// streams in. Failures are *Error values with code ELLM (or
	// EEmptyResponse); a provider's "input too long" answer wraps
	// ErrContextTooLong.
	Complete(ctx context.Context, cfg RequestConfig, msgs []Message, progress func(Progress)) (Answer, error)
}

// ErrContextTooLong is wrapped by LLM errors when the provider says the
// compaction input exceeds the model's context window.
var ErrContextTooLong = errors.New("the compaction input exceeds the model's context window")

// Progress reports a compaction in flight.
type Progress struct {
	// Attempt counts requests sent for this compaction, from 1.
	Attempt int `json:"attempt"`
	// Chars counts the code points of answer text and reasoning received.
	Chars int `json:"chars"`
	// Dropped is the Plan.Dropped of the request in flight: the oldest
	// compactable messages left out so that it fits the context window.
	Dropped int `json:"dropped"`
	// Waiting, when not empty, says why the client is waiting before it
	// retries (a rate limit, a server error).
	Waiting string `json:"waiting,omitempty"`
}

// MaxContextRetries bounds how many times a Job shrinks a request that is
// too long for the model. Each shrink leaves out a quarter of what the
// request still shows, so 48 shrinks take even a 100k-message range down to
// its newest message.
const MaxContextRetries = 48

// Compactor executes the session actions: NewJob prepares one, Job.Run
// runs it. Every surface (the CLI, the HTTP API) goes this one way.
type Compactor struct {
	LLM LLM
	// Prompt resolves the prompt for an agent: its inline prompt, its prompt
	// file, kimi-cli's compact.md, or the built-in prompt. Nil means the
	// agent's inline prompt, else the built-in one.
	Prompt func(a *Agent) (Prompt, error)
}

// Execute runs an action on session s of agent a: NewJob, then Job.Run.
// An action that cannot be prepared is an error outcome.
func (c *Compactor) Execute(ctx context.Context, a *Agent, s *Session, req ActionRequest, progress func(Progress)) Outcome {
	job, err := c.NewJob(a, s, req)
	if err != nil {
		return ErrorOutcome(err)
	}
	return job.Run(ctx, progress)
}
