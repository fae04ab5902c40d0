package kimi

import (
	"context"
	"errors"
	"fmt"
	"kompact"
	"time"
)

// Job is a prepared compaction: what to compact (Plan, possibly a no-op)
// and the request configuration to send it with. Run runs it.
type Job struct {
	Plan   *Plan
	Config kompact.RequestConfig
	// Timeout bounds all the LLM calls of Run together.
	Timeout time.Duration
	llm     kompact.LLM
}

// NewJob checks that the action is available for a, resolves the prompt
// and the request configuration (with req.Model, when set, as the model),
// and selects what to compact. It makes no LLM call.
func (c *Compactor) NewJob(a *kompact.Agent, s *kompact.Session, req kompact.ActionRequest) (*Job, error) {
	if err := checkEnabled(a); err != nil {
		return nil, err
	}
	opt, err := optionsOf(req, a.Compaction.MaxPreserved())
	if err != nil {
		return nil, err
	}
	opt.Fidelity.MinRecall = a.Compaction.Fidelity.MinRecall
	if req.AppendixTokens == nil {
		opt.Fidelity.AppendixTokens = a.Compaction.Fidelity.AppendixTokens
	}
	if opt.Prompt, err = c.prompt(a); err != nil {
		return nil, err
	}
	plan, err := Prepare(s, opt)
	if err != nil {
		return nil, err
	}
	rc := kompact.EffectiveRequest(a, s)
	if req.Model != "" {
		rc.Model = req.Model
	}
	return &Job{Plan: plan, Config: rc, Timeout: a.Compaction.LLMTimeout(), llm: c.LLM}, nil
}

// checkEnabled refuses an agent whose compaction is not enabled.
func checkEnabled(a *kompact.Agent) error {
	if a.CompactionEnabled() {
		return nil
	}
	name := "the agent"
	if a != nil && a.Name != "" {
		name = "agent " + a.Name
	}
	return kompact.Errorf(kompact.EDisabled, "compaction is not enabled for %s", name).
		WithFixes(`Set compaction: {enabled: true, type: kimi} in the agent's configuration.`)
}

// prompt resolves a's compaction prompt.
func (c *Compactor) prompt(a *kompact.Agent) (kompact.Prompt, error) {
	if c.Prompt != nil {
		return c.Prompt(a)
	}
	return ResolvePrompt(kompact.Prompt{Body: a.Compaction.Prompt, Source: kompact.PromptInline}), nil
}

// Run asks the LLM for the summary and applies it. A no-op job is a noop
// outcome without a call. When the provider says the input is too long, it
// leaves out the oldest compactable messages and tries again, up to
// MaxContextRetries times. All its LLM calls together must finish within
// j.Timeout (DefaultLLMTimeout when 0); past it, Run stops them and fails
// with an ELLM error. The job's session is never modified.
func (j *Job) Run(ctx context.Context, progress func(kompact.Progress)) kompact.Outcome {
	if j.Plan.Noop {
		return kompact.Outcome{Status: kompact.OutcomeNoop, Reason: j.Plan.Reason}
	}
	if j.llm == nil {
		return kompact.ErrorOutcome(kompact.Errorf(kompact.EInternal, "no kompact.LLM client configured"))
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
			return kompact.Outcome{Status: kompact.OutcomeCompacted, Result: res, Model: j.Config.Model}
		}
		if !errors.Is(err, kompact.ErrContextTooLong) {
			return j.failed(err)
		}
		next := cur.DropOldest()
		if next == nil || attempt > MaxContextRetries {
			return j.failed(tooLong(cur, j.Config.Model, err))
		}
		cur = next
	}
}

// send sends the request of plan p, reporting progress as request number
// attempt.
func (j *Job) send(ctx context.Context, p *Plan, attempt int, progress func(kompact.Progress)) (kompact.Answer, error) {
	report := func(pr kompact.Progress) {
		if progress != nil {
			pr.Round = attempt
			pr.Attempt = max(pr.Attempt, 1)
			pr.Dropped = p.Dropped
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
func tooLong(p *Plan, model string, err error) error {
	return kompact.Errorf(kompact.ELLM, "the compaction input is too long for %s even with only the newest %s of the range (%s left out): %w",
		model, kompact.CountOf(p.End-p.Start-p.Dropped, "message"), kompact.CountOf(p.Dropped, "older one"), err).
		WithFixes("Compact a shorter range, or use a compaction model with a larger context window (compaction_model).")
}

// The request fields that carry a completion limit.
const (
	FieldMaxCompletionTokens = "max_completion_tokens"
	FieldMaxTokens           = "max_tokens"
)

// CompletionLimit returns the completion limit a compaction request of plan
// p carries for agent a when its model's context size is maxContextSize
// (≤ 0: unknown): kimi-cli's _compute_completion_overrides
// (CompactionCompletionTokens over CompactionInputEstimates, with the
// agent's system prompt and no tools). It names the field: for a Kimi agent
// max_completion_tokens, with a configured max_completion_tokens, else
// max_tokens, as the budget; for another agent max_tokens, only when one is
// configured (it then caps the limit). ok is false when nothing is sent: an
// unknown size, a no-op plan, a Kimi agent whose max_completion_tokens is
// set to null, or another agent without max_tokens.
func CompletionLimit(a *kompact.Agent, p *Plan, fields map[string]any, maxContextSize int) (field string, limit int, ok bool) {
	if maxContextSize <= 0 || p.Noop {
		return "", 0, false
	}
	var budget *int
	if a.LLM.IsKimi() {
		field = FieldMaxCompletionTokens
		if v, set := fields[FieldMaxCompletionTokens]; set && v == nil {
			return "", 0, false
		}
		budget = intField(fields, FieldMaxCompletionTokens)
		if budget == nil {
			budget = intField(fields, FieldMaxTokens)
		}
	} else {
		field = FieldMaxTokens
		if budget = intField(fields, FieldMaxTokens); budget == nil {
			return "", 0, false
		}
	}
	request, next := CompactionInputEstimates(p, a.SystemPrompt, nil)
	auto := a.Compaction.Auto.Effective()
	return field, CompactionCompletionTokens(maxContextSize, request, next, budget, auto.ReservedContextSize), true
}

// intField returns fields[name] when it is an integer.
func intField(fields map[string]any, name string) *int {
	var n int
	switch v := fields[name].(type) {
	case int:
		n = v
	case int64:
		n = int(v)
	case float64:
		if v != float64(int(v)) {
			return nil
		}
		n = int(v)
	default:
		return nil
	}
	return &n
}

// LimitCompletion sets the completion limit of the job's request for agent
// a and a context of maxContextSize tokens (see CompletionLimit) and
// returns it; 0 when none is sent.
func (j *Job) LimitCompletion(a *kompact.Agent, maxContextSize int) int {
	field, limit, ok := CompletionLimit(a, j.Plan, j.Config.Fields, maxContextSize)
	if !ok {
		return 0
	}
	fields := make(map[string]any, len(j.Config.Fields)+1)
	for k, v := range j.Config.Fields {
		fields[k] = v
	}
	fields[field] = limit
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
	return fmt.Sprintf("the compaction's kompact.LLM calls did not finish within %s", d.timeout)
}

// typed is the ELLM error of a job whose deadline passed.
func (d *deadlineError) typed(model string) error {
	e := kompact.Errorf(kompact.ELLM, "the kompact.LLM calls of this compaction (model %s, all attempts together) did not finish within %s, the overall deadline; nothing was changed",
		model, d.timeout).
		WithFixes("Raise the agent's compaction.timeout (e.g. timeout: 20m) if the model needs longer for a summary, or compact a shorter range; retry when the provider is less busy.")
	e.Err = d.err
	return e
}

// optionsOf returns the Options that select what req compacts, with
// maxPreserved trailing messages kept when the range has no end.
func optionsOf(req kompact.ActionRequest, maxPreserved int) (Options, error) {
	opt := Options{MaxPreserved: maxPreserved, Instructions: req.Instructions}
	if n := req.AppendixTokens; n != nil {
		if *n < 0 || *n > kompact.MaxTokenFigure {
			return opt, kompact.Errorf(kompact.EInvalid, "appendix_tokens must be a number of tokens from 0 to %d, got %d", int64(kompact.MaxTokenFigure), *n).
				WithFixes("Use 0 for no appendix, or the tokens the preserved_artifacts section may take, e.g. 500.")
		}
		opt.Fidelity.AppendixTokens = *n
	}
	switch req.Action {
	case kompact.ActionCompactConversation:
		if req.MessageID != "" {
			return opt, kompact.Errorf(kompact.EInvalid, "compact_conversation takes start and end, not message_id").
				WithFixes("Use compact_up_to_here with message_id to compact up to a message, or start and end for a range.")
		}
		opt.Start, opt.End = req.Start, req.End
	case kompact.ActionCompactUpToHere:
		if req.MessageID == "" {
			return opt, kompact.Errorf(kompact.EInvalid, "compact_up_to_here needs message_id, the anchor message").
				WithFixes("Pass the id of the message up to which to compact.")
		}
		if req.Start != "" || req.End != "" {
			return opt, kompact.Errorf(kompact.EInvalid, "compact_up_to_here takes message_id only, not start or end").
				WithFixes("Use compact_conversation with start and end to compact a range.")
		}
		opt.End = req.MessageID
	default:
		return opt, kompact.Errorf(kompact.EInvalid, "unknown action %q", req.Action).
			WithFixes("Use " + kompact.ActionCompactConversation + " or " + kompact.ActionCompactUpToHere + ".")
	}
	return opt, nil
}
