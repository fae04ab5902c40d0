package service

import (
	"context"
	"fmt"
	"time"

	"kompact"
)

// This file bounds a continue turn's reply: all its LLM attempts together
// finish within the agent's llm.timeout, as a compaction's within
// compaction.timeout.

// replyWithin asks a's LLM for the reply to history (its compaction type's Reply)
// within a.LLM.ReplyTimeout(); past it, the call is stopped and the turn
// fails with an ELLM error naming the deadline.
func replyWithin(ctx context.Context, llm kompact.LLM, a *kompact.Agent, history []kompact.Message) (kompact.Message, *kompact.Usage, error) {
	deadline := &replyDeadline{timeout: a.LLM.ReplyTimeout()}
	ctx, cancel := context.WithTimeoutCause(ctx, deadline.timeout, deadline)
	defer cancel()
	reply, usage, err := TypeFor(a).Reply(ctx, llm, a, history)
	if err != nil && context.Cause(ctx) == deadline {
		return kompact.Message{}, nil, deadline.typed(a.LLM.Model, err)
	}
	return reply, usage, err
}

// replyDeadline is the cause of a reply's context when its deadline
// passes.
type replyDeadline struct{ timeout time.Duration }

func (d *replyDeadline) Error() string {
	return fmt.Sprintf("the reply's LLM call did not finish within %s", d.timeout)
}

// typed is the ELLM error of a reply whose deadline passed; err is what
// the call returned then.
func (d *replyDeadline) typed(model string, err error) error {
	e := kompact.Errorf(kompact.ELLM, "the reply of the agent's LLM (model %s, all attempts together) did not finish within %s, the deadline of a turn (llm.timeout); no reply was appended",
		model, d.timeout).
		WithFixes("Raise the agent's llm.timeout (e.g. timeout: 20m) if the model needs longer, or retry when the provider is less busy.")
	e.Err = err
	return e
}
