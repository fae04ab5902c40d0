package kompact

import (
	"context"
	"encoding/json"
	"errors"
)

// LLM sends compaction requests to an OpenAI-compatible chat-completions API.
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
	// Dropped counts the oldest compactable messages left out of the request
	// so that it fits the model's context window.
	Dropped int `json:"dropped"`
	// Waiting, when not empty, says why the client is waiting before it
	// retries (a rate limit, a server error).
	Waiting string `json:"waiting,omitempty"`
}

// ActionRequest is a session action to execute.
type ActionRequest struct {
	// Action is ActionCompactConversation or ActionCompactUpToHere.
	Action string `json:"action"`
	// Start and End (compact_conversation) name the range's first and last
	// messages; both optional.
	Start string `json:"start,omitempty"`
	End   string `json:"end,omitempty"`
	// MessageID (compact_up_to_here) names the anchor message.
	MessageID    string `json:"message_id,omitempty"`
	Instructions string `json:"instructions,omitempty"`
}

// OutcomeStatus says how an action ended.
type OutcomeStatus string

// The outcomes of an action.
const (
	OutcomeCompacted OutcomeStatus = "compacted"
	OutcomeNoop      OutcomeStatus = "noop"
	OutcomeError     OutcomeStatus = "error"
)

// Outcome is the result of executing an action. Exactly one of Result
// (compacted), Reason (noop) and Err (error) is set. The input session is
// never modified, whatever the outcome.
type Outcome struct {
	Status OutcomeStatus
	Result *Result
	Reason string
	Err    *Error
	// Model is the model the request was sent to (when one was sent).
	Model string
	// Dropped counts the oldest compactable messages that were left out of
	// the request to fit the context window; they are compacted away with
	// the rest of the range but the summary does not cover them.
	Dropped int
}

// MaxContextRetries bounds how many times Execute shrinks a request that
// is too long for the model. Each shrink leaves out a quarter of what the
// request still shows, so 48 shrinks take even a 100k-message range down to
// its newest message.
const MaxContextRetries = 48

// Compactor executes the session actions.
type Compactor struct {
	LLM LLM
	// Prompt resolves the prompt for an agent: its inline prompt, its prompt
	// file, kimi-cli's compact.md, or the built-in prompt. Nil means the
	// agent's inline prompt, else the built-in one.
	Prompt func(a *Agent) (Prompt, error)
}

// Prepare checks that the action is available for a, resolves the prompt
// and the request configuration, and selects what to compact. It makes no
// LLM call.
func (c *Compactor) Prepare(a *Agent, s *Session, req ActionRequest) (*Plan, RequestConfig, error) {
	if !a.CompactionEnabled() {
		name := "the agent"
		if a != nil && a.Name != "" {
			name = "agent " + a.Name
		}
		return nil, RequestConfig{}, Errorf(EDisabled, "compaction is not enabled for %s", name).
			WithFixes(`Set compaction: {enabled: true, type: kimi} in the agent's configuration.`)
	}
	opt := Options{MaxPreserved: a.Compaction.MaxPreserved(), Instructions: req.Instructions}
	switch req.Action {
	case ActionCompactConversation:
		opt.Start, opt.End = req.Start, req.End
	case ActionCompactUpToHere:
		if req.MessageID == "" {
			return nil, RequestConfig{}, Errorf(EInvalid, "compact_up_to_here needs message_id, the anchor message").
				WithFixes("Pass the id of the message up to which to compact.")
		}
		if req.Start != "" || req.End != "" {
			return nil, RequestConfig{}, Errorf(EInvalid, "compact_up_to_here takes message_id only, not start or end").
				WithFixes("Use compact_conversation with start and end to compact a range.")
		}
		opt.End = req.MessageID
	default:
		return nil, RequestConfig{}, Errorf(EInvalid, "unknown action %q", req.Action).
			WithFixes("Use " + ActionCompactConversation + " or " + ActionCompactUpToHere + ".")
	}
	var err error
	if c.Prompt != nil {
		opt.Prompt, err = c.Prompt(a)
		if err != nil {
			return nil, RequestConfig{}, err
		}
	} else {
		opt.Prompt = ResolvePrompt(Prompt{Body: a.Compaction.Prompt, Source: PromptInline})
	}
	plan, err := Prepare(s, opt)
	if err != nil {
		return nil, RequestConfig{}, err
	}
	return plan, EffectiveRequest(a, s), nil
}

// Execute runs an action on session s of agent a: it selects what to
// compact, asks the LLM for the summary and builds the compacted session.
// When the provider says the input is too long, it leaves out the oldest
// compactable messages and tries again, up to MaxContextRetries times.
func (c *Compactor) Execute(ctx context.Context, a *Agent, s *Session, req ActionRequest, progress func(Progress)) Outcome {
	plan, cfg, err := c.Prepare(a, s, req)
	if err != nil {
		return errorOutcome(err)
	}
	if plan.Noop {
		return Outcome{Status: OutcomeNoop, Reason: plan.Reason}
	}
	return c.Complete(ctx, plan, cfg, progress)
}

// Complete asks the LLM for the summary of a prepared plan and applies it.
func (c *Compactor) Complete(ctx context.Context, plan *Plan, cfg RequestConfig, progress func(Progress)) Outcome {
	if c.LLM == nil {
		return errorOutcome(Errorf(EInternal, "no LLM client configured"))
	}
	attempt := 0
	cur := plan
	for {
		attempt++
		dropped := cur.Dropped
		report := func(p Progress) {
			if progress != nil {
				p.Attempt = attempt
				p.Dropped = dropped
				progress(p)
			}
		}
		report(Progress{})
		answer, err := c.LLM.Complete(ctx, cfg, cur.RequestMessages(), report)
		if err == nil {
			res, err := cur.Apply(answer)
			if err != nil {
				return Outcome{Status: OutcomeError, Err: asError(err), Model: cfg.Model, Dropped: dropped}
			}
			res.Dropped = dropped
			return Outcome{Status: OutcomeCompacted, Result: res, Model: cfg.Model, Dropped: dropped}
		}
		if !errors.Is(err, ErrContextTooLong) {
			return Outcome{Status: OutcomeError, Err: asError(err), Model: cfg.Model, Dropped: dropped}
		}
		next := cur.DropOldest()
		if next == nil || attempt > MaxContextRetries {
			e := Errorf(ELLM, "the compaction input is too long for %s even with only the newest %d message(s) of the range (%d older ones left out): %w",
				cfg.Model, cur.End-cur.Start-dropped, dropped, err).WithFixes("Compact a shorter range, or use a compaction model with a larger context window (compaction_model).")
			return Outcome{Status: OutcomeError, Err: e, Model: cfg.Model, Dropped: dropped}
		}
		cur = next
	}
}

func errorOutcome(err error) Outcome {
	return Outcome{Status: OutcomeError, Err: asError(err)}
}

// asError returns err as an *Error, wrapping foreign errors as EInternal.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: EInternal, Message: "internal error: " + err.Error(), Err: err}
}

// MarshalJSON writes the outcome as the CLI's --json and the HTTP API show it.
func (o Outcome) MarshalJSON() ([]byte, error) {
	type prompt struct {
		Source  PromptSource `json:"source"`
		Origin  string       `json:"origin,omitempty"`
		Genuine bool         `json:"genuine"`
	}
	type compacted struct {
		Session         *Session `json:"session"`
		Summary         string   `json:"summary"`
		MissingSections []string `json:"missing_sections"`
		Usage           *Usage   `json:"usage"`
		Compacted       int      `json:"compacted_messages"`
		Preserved       int      `json:"preserved_messages"`
		TokensBefore    int      `json:"estimated_tokens_before"`
		TokensAfter     int      `json:"estimated_tokens_after"`
		Dropped         int      `json:"dropped_messages"`
		Prompt          prompt   `json:"prompt"`
	}
	type errBody struct {
		Code    ErrorCode `json:"code"`
		Message string    `json:"message"`
		Fixes   []string  `json:"fixes"`
	}
	out := struct {
		Status    OutcomeStatus `json:"status"`
		Model     string        `json:"model,omitempty"`
		Reason    string        `json:"reason,omitempty"`
		Error     *errBody      `json:"error,omitempty"`
		Compacted *compacted    `json:"result,omitempty"`
	}{Status: o.Status, Model: o.Model, Reason: o.Reason}
	if o.Err != nil {
		fixes := o.Err.Fixes
		if fixes == nil {
			fixes = []string{}
		}
		out.Error = &errBody{Code: o.Err.Code, Message: o.Err.Message, Fixes: fixes}
	}
	if r := o.Result; r != nil {
		missing := r.MissingSections
		if missing == nil {
			missing = []string{}
		}
		out.Compacted = &compacted{
			Session: r.Session, Summary: r.Summary, MissingSections: missing, Usage: r.Usage,
			Compacted: r.Compacted, Preserved: r.Preserved, TokensBefore: r.TokensBefore,
			TokensAfter: r.TokensAfter, Dropped: r.Dropped,
			Prompt: prompt{Source: r.Prompt.Source, Origin: r.Prompt.Origin, Genuine: r.Prompt.Genuine()},
		}
	}
	return json.Marshal(out)
}
