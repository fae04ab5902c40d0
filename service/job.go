package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"kompact"
)

// Job is a prepared compaction of any type: what to compact (Plan,
// possibly a no-op) and the request configuration to send it with. Run
// runs it.
type Job struct {
	Plan   kompact.CompactionPlan
	Config kompact.RequestConfig
	// Timeout bounds all the LLM calls of Run together.
	Timeout time.Duration
	// Type is the name of the compaction type that planned it, recorded on
	// its result (a preview applied under another type is a conflict).
	Type string
	llm  kompact.LLM
}

// NewJob checks that the action is available for a, resolves the prompt
// and the request configuration (with req.Model, when set, as the model),
// and has a's compaction type plan what to compact. It makes no LLM call.
func (c *Compactor) NewJob(a *kompact.Agent, s *kompact.Session, req kompact.ActionRequest) (*Job, error) {
	t, err := typeOf(a)
	if err != nil {
		return nil, err
	}
	prompt, err := c.prompt(a)
	if err != nil {
		return nil, err
	}
	plan, err := t.Plan(a, s, req, prompt)
	if err != nil {
		return nil, err
	}
	if plan, err = pinPlan(t, a, s, req, prompt, plan); err != nil {
		return nil, err
	}
	rc := EffectiveRequest(a, s)
	if req.Model != "" {
		rc.Model = req.Model
	}
	return &Job{Plan: plan, Config: rc, Timeout: a.Compaction.LLMTimeout(), Type: t.Name(), llm: c.LLM}, nil
}

// CheckCompaction is the refusal of any compaction action for agent a
// that NewJob would give, known without a session: its compaction is not
// enabled, or is of a type this binary does not hold (EDisabled). A
// caller checks it before it takes an action slot and reads the session.
func CheckCompaction(a *kompact.Agent) error {
	_, err := typeOf(a)
	return err
}

// typeOf returns a's compaction type, and refuses an agent whose
// compaction is not enabled (or of a type this binary does not hold).
func typeOf(a *kompact.Agent) (kompact.CompactionType, error) {
	if a.CompactionEnabled() {
		return kompact.LookupCompactionType(a.Compaction.Type)
	}
	name, typ := "the agent", kompact.DefaultCompactionType
	if a != nil && a.Name != "" {
		name = "agent " + a.Name
	}
	if a != nil {
		if _, err := kompact.LookupCompactionType(a.Compaction.Type); err == nil {
			typ = a.Compaction.Type // a registered type the agent names stays in the fix
		}
	}
	return nil, kompact.Errorf(kompact.EDisabled, "compaction is not enabled for %s", name).
		WithFixes("Set compaction: {enabled: true, type: " + typ + "} in the agent's configuration.")
}

// prompt resolves a's compaction prompt; the zero Prompt, without a
// resolver, lets the type choose (the agent's inline prompt, else its own).
func (c *Compactor) prompt(a *kompact.Agent) (kompact.Prompt, error) {
	if c.Prompt != nil {
		return c.Prompt(a)
	}
	return kompact.Prompt{}, nil
}

// Run asks the LLM for the summary and applies it. A no-op job is a noop
// outcome without a call. When the provider says the input is too long, it
// leaves out the oldest compactable messages and tries again, up to
// MaxContextRetries times. All its LLM calls together must finish within
// j.Timeout (DefaultLLMTimeout when 0); past it, Run stops them and fails
// with an ELLM error. The job's session is never modified.
func (j *Job) Run(ctx context.Context, progress func(kompact.Progress)) kompact.Outcome {
	if info := j.Plan.About(); info.Noop {
		return kompact.Outcome{Status: kompact.OutcomeNoop, Reason: info.Reason}
	}
	if j.llm == nil {
		return kompact.ErrorOutcome(kompact.Errorf(kompact.EInternal, "no LLM client configured"))
	}
	timeout := j.Timeout
	if timeout <= 0 {
		timeout = kompact.DefaultLLMTimeout
	}
	deadline := &deadlineError{timeout: timeout}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, deadline)
	defer cancel()
	// The session's token estimate, for the result, is made while the LLM
	// works; Run returns only once it is done, so that nothing reads the
	// session after Run.
	go j.Plan.TokensBefore()
	defer j.Plan.TokensBefore()
	out := j.attempts(ctx, progress)
	if out.Status == kompact.OutcomeError && context.Cause(ctx) == deadline {
		deadline.err = out.Err
		return j.failed(deadline.typed(j.Config.Model))
	}
	return out
}

// attempts sends the request, leaving out older messages while the
// provider says it is too long.
func (j *Job) attempts(ctx context.Context, progress func(kompact.Progress)) kompact.Outcome {
	cur := j.Plan
	for attempt := 1; ; attempt++ {
		answer, err := j.send(ctx, cur, attempt, progress)
		if err == nil {
			res, err := cur.Apply(answer)
			if err != nil {
				return j.failed(err)
			}
			res.Type = j.Type
			return kompact.Outcome{Status: kompact.OutcomeCompacted, Result: res, Model: j.Config.Model}
		}
		if !errors.Is(err, kompact.ErrContextTooLong) {
			return j.failed(err)
		}
		next := cur.Shrink()
		if next == nil || attempt > MaxContextRetries {
			return j.failed(tooLong(cur, j.Config.Model, err))
		}
		cur = next
	}
}

// send sends the request of plan p, reporting progress as request number
// attempt.
func (j *Job) send(ctx context.Context, p kompact.CompactionPlan, attempt int, progress func(kompact.Progress)) (kompact.Answer, error) {
	dropped := p.About().Span.Dropped
	report := func(pr kompact.Progress) {
		if progress != nil {
			pr.Round = attempt
			pr.Attempt = max(pr.Attempt, 1)
			pr.Dropped = dropped
			progress(pr)
		}
	}
	report(kompact.Progress{})
	return j.llm.Complete(ctx, j.Config, p.RequestMessages(), report)
}

// failed returns the error outcome of a job whose request was sent.
func (j *Job) failed(err error) kompact.Outcome {
	out := kompact.ErrorOutcome(err)
	out.Model = j.Config.Model
	return out
}

// tooLong is the error of a request that does not fit even when it shows
// the newest message of the range only.
func tooLong(plan kompact.CompactionPlan, model string, err error) error {
	p := plan.About().Span
	return kompact.Errorf(kompact.ELLM, "the compaction input is too long for %s even with only the newest %s of the range (%s left out): %w",
		model, kompact.CountOf(p.End-p.Start-p.Dropped, "message"), kompact.CountOf(p.Dropped, "older one"), err).
		WithFixes("Compact a shorter range, or use a compaction model with a larger context window (compaction_model).")
}

// LimitCompletion sets the completion limit of the job's request for agent
// a and a context of maxContextSize tokens (the plan's LimitCompletion:
// kimi-cli's formula for kimi) and returns it; 0 when none is sent.
func (j *Job) LimitCompletion(a *kompact.Agent, maxContextSize int) int {
	fields, limit := j.Plan.LimitCompletion(a, j.Config.Fields, maxContextSize)
	j.Config.Fields = fields
	return limit
}

// deadlineError is the cause of a job's context when its overall LLM
// deadline passes; err is what the LLM call returned then.
type deadlineError struct {
	timeout time.Duration
	err     error
}

func (d *deadlineError) Error() string {
	return fmt.Sprintf("the compaction's LLM calls did not finish within %s", d.timeout)
}

// typed is the ELLM error of a job whose deadline passed.
func (d *deadlineError) typed(model string) error {
	e := kompact.Errorf(kompact.ELLM, "the LLM calls of this compaction (model %s, all attempts together) did not finish within %s, the overall deadline; nothing was changed",
		model, d.timeout).
		WithFixes("Raise the agent's compaction.timeout (e.g. timeout: 20m) if the model needs longer for a summary, or compact a shorter range; retry when the provider is less busy.")
	e.Err = d.err
	return e
}

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
