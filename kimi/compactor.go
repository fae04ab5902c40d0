package kimi

import (
	"context"
	"kompact"
)

// MaxContextRetries bounds how many times a Job shrinks a request that is
// too long for the model. Each shrink leaves out a quarter of what the
// request still shows, so 48 shrinks take even a 100k-message range down to
// its newest message.
const MaxContextRetries = 48

// Compactor executes the session actions: NewJob prepares one, Job.Run
// runs it. Every surface (the CLI, the HTTP API) goes this one way.
type Compactor struct {
	LLM kompact.LLM
	// Prompt resolves the prompt for an agent: its inline prompt, its prompt
	// file, kimi-cli's compact.md, or the built-in prompt. Nil means the
	// agent's inline prompt, else the built-in one.
	Prompt func(a *kompact.Agent) (kompact.Prompt, error)
}

// Execute runs an action on session s of agent a: NewJob, then Job.Run.
// An action that cannot be prepared is an error outcome.
func (c *Compactor) Execute(ctx context.Context, a *kompact.Agent, s *kompact.Session, req kompact.ActionRequest, progress func(kompact.Progress)) kompact.Outcome {
	job, err := c.NewJob(a, s, req)
	if err != nil {
		return kompact.ErrorOutcome(err)
	}
	return job.Run(ctx, progress)
}
