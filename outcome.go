package kompact

import (
	"encoding/json"
	"errors"
)

// OutcomeStatus says how an action ended.
type OutcomeStatus string

// The outcomes of an action.
const (
	OutcomeCompacted OutcomeStatus = "compacted"
	OutcomeNoop      OutcomeStatus = "noop"
	OutcomeError     OutcomeStatus = "error"
	// OutcomePreview is a compaction that ran but was not committed: a
	// surface keeps its Result under PreviewID until it is applied.
	OutcomePreview OutcomeStatus = "preview"
)

// Outcome is the result of executing an action. Exactly one of Result
// (compacted, preview), Reason (noop) and Err (error) is set. The input
// session is never modified, whatever the outcome.
type Outcome struct {
	Status OutcomeStatus
	Result *Result
	Reason string
	Err    *Error
	// Model is the model the request was sent to (when one was sent).
	Model string
	// PreviewID names a preview (status preview) for applying it later.
	PreviewID string
	// Context, when set, is the session's context figures the outcome
	// shows first in its JSON form: the CLI's compact --auto and --json
	// set it.
	Context *ContextStatus
}

// ErrorOutcome returns the error outcome for err (see AsError).
func ErrorOutcome(err error) Outcome {
	return Outcome{Status: OutcomeError, Err: AsError(err)}
}

// AsError returns the first *Error in err's chain, or err wrapped as an
// EInternal error with err's text as its message.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: EInternal, Message: err.Error(), Err: err}
}

// outcomeJSON is the JSON form of an Outcome.
type outcomeJSON struct {
	Context   *ContextStatus `json:"context,omitempty"`
	PreviewID string         `json:"preview_id,omitempty"`
	Status    OutcomeStatus  `json:"status"`
	Model     string         `json:"model,omitempty"`
	Reason    string         `json:"reason,omitempty"`
	Error     *Error         `json:"error,omitempty"`
	Result    *resultJSON    `json:"result,omitempty"`
	// Warnings is present, possibly empty, whenever Result is.
	Warnings []Warning `json:"warnings,omitzero"`
}

type promptJSON struct {
	Source  PromptSource `json:"source"`
	Origin  string       `json:"origin,omitempty"`
	Genuine bool         `json:"genuine"`
}

type resultJSON struct {
	Session         *Session   `json:"session"`
	Summary         string     `json:"summary"`
	MissingSections []string   `json:"missing_sections"`
	Usage           *Usage     `json:"usage"`
	Compacted       int        `json:"compacted_messages"`
	Replaced        int        `json:"replaced_messages"`
	Preserved       int        `json:"preserved_messages"`
	TokensBefore    int        `json:"estimated_tokens_before"`
	TokensAfter     int        `json:"estimated_tokens_after"`
	Dropped         int        `json:"dropped_messages"`
	Pinned          int        `json:"pinned_messages,omitempty"` // Span.Pinned, kept after the summary
	Prompt          promptJSON `json:"prompt"`
	Fidelity        *Fidelity  `json:"fidelity"`
}

// MarshalJSON writes the outcome as the CLI's --json and the HTTP API show
// it (docs/http-api.md, "Outcomes").
func (o Outcome) MarshalJSON() ([]byte, error) {
	out := outcomeJSON{Context: o.Context, PreviewID: o.PreviewID, Status: o.Status, Model: o.Model, Reason: o.Reason, Error: o.Err}
	if r := o.Result; r != nil {
		out.Result = &resultJSON{
			Session: r.Session, Summary: r.Summary, MissingSections: nonNil(r.MissingSections), Usage: r.Usage,
			Compacted: r.Compacted, Replaced: r.Replaced(), Preserved: r.Preserved, TokensBefore: r.TokensBefore,
			TokensAfter: r.TokensAfter, Dropped: r.Dropped(),
			Prompt:   promptJSON{Source: r.Prompt.Source, Origin: r.Prompt.Origin, Genuine: r.Prompt.Genuine()},
			Fidelity: r.Fidelity,
		}
		if out.Warnings = r.Warnings(); r.Span != nil {
			out.Result.Pinned = len(r.Span.Pinned)
		}
		if out.Warnings == nil {
			out.Warnings = []Warning{}
		}
	}
	return json.Marshal(out)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
