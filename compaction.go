package kompact

import (
	"context"
	"slices"
	"strings"
)

// CompactionType is one way of compacting a session, named by an agent's
// compaction.type: what it replaces, how it asks for the summary and reads the answer,
// and when it compacts by itself. A type is a package that registers itself
// (RegisterCompactionType); kimi-cli's is package kimi. The service runs every type one
// way (plan, send, shrink while too long, apply, commit).
type CompactionType interface {
	// Name is the compaction.type value that selects the type.
	Name() string
	// Plan selects what action req compacts in session s of agent a and builds the
	// request that asks for it, with prompt (the zero Prompt means the agent's inline
	// prompt, else the type's own). It makes no LLM call. Nothing to compact is a no-op
	// plan; a range that does not fit the session is an error.
	Plan(a *Agent, s *Session, req ActionRequest, prompt Prompt) (CompactionPlan, error)
	// Outline returns what of m Plan reads, so that a dry run can plan a
	// long session without holding its texts.
	Outline(m *Message) Message
	// ContextStatus is the type's trigger: how full account is in a context of window
	// tokens (≤ 0: unknown) with the thresholds of auto, and whether it is due.
	ContextStatus(account TokenAccount, window int, auto AutoCompaction) ContextStatus
	// WithSummary returns r, a result of this type, with a person's summary
	// in place of the model's; r is not modified.
	WithSummary(r *Result, summary string) *Result
	// Reply asks llm for agent a's reply to history: a conversation turn.
	Reply(ctx context.Context, llm LLM, a *Agent, history []Message) (Message, *Usage, error)
	// Offers says which actions the type's compactions take beyond the
	// whole session: what clients offer for its agents (UIElements).
	Offers() Offers
	// SummaryForm is how the type's summary message looks (GET
	// /v1/compaction?agent=NAME).
	SummaryForm() SummaryForm
	// IsSummary is the type's recogniser: whether m is a summary message
	// of the type's form.
	IsSummary(m Message) bool
}

// Offers says what a type's compactions take beyond the whole session
// (CompactionType.Offers).
type Offers struct {
	// Range: compact_conversation takes start and end.
	Range bool
	// UpToHere: the type does compact_up_to_here.
	UpToHere bool
}

// SummaryForm is how a type's summary message looks: a user message whose
// first text part starts with Prefix (then a newline), holding Sections
// (XML sections, in order; none for a free-form summary) and, when kompact
// appended it, the Appendix section.
type SummaryForm struct {
	Type     string
	Prefix   string
	Sections []string
	Appendix string
}

// KimiSummaryForm is kimi-cli's summary form, the kimi type's.
var KimiSummaryForm = SummaryForm{Type: DefaultCompactionType, Prefix: SummaryPrefix, Sections: SectionNames, Appendix: AppendixSection}

// typeOf is agent a's registered compaction type, or nil for no agent or
// a type that is not registered.
func typeOf(a *Agent) CompactionType {
	if a == nil {
		return nil
	}
	return compactionTypes[a.Compaction.Type]
}

// OffersOf is what agent a's type offers: everything for no agent or a
// type that is not registered (a lookup error says so where it runs).
func OffersOf(a *Agent) Offers {
	if t := typeOf(a); t != nil {
		return t.Offers()
	}
	return Offers{Range: true, UpToHere: true}
}

// SummaryFormOf is the summary form of agent a's type: kimi's for no agent
// or a type that is not registered.
func SummaryFormOf(a *Agent) SummaryForm {
	if t := typeOf(a); t != nil {
		return t.SummaryForm()
	}
	return KimiSummaryForm
}

// CompactionPlan is one prepared compaction of a type (CompactionType.Plan).
// A plan is not modified once made: Shrink makes another.
type CompactionPlan interface {
	// About says what the plan compacts, or why it compacts nothing.
	About() PlanInfo
	// Counts divides the session as the compaction would (a no-op: none).
	Counts() PlanCounts
	// RequestMessages are the plan's request's messages; nil for a no-op.
	RequestMessages() []Message
	// LimitCompletion returns a copy of fields with the completion limit
	// the type sends for agent a and a context of window tokens (≤ 0:
	// unknown), and the limit; fields itself and 0 when none is sent.
	LimitCompletion(a *Agent, fields map[string]any, window int) (map[string]any, int)
	// Shrink returns the plan with the oldest messages it still shows left
	// out of its request, for a provider that says it is too long; the
	// range it replaces stays. Nil when it cannot shrink further.
	Shrink() CompactionPlan
	// Apply reads the model's answer into the compacted session (never
	// modifying the session); no summary in it is EEmptyResponse.
	Apply(answer Answer) (*Result, error)
	// TokensBefore estimates the session's tokens before the compaction,
	// once for the plan and those Shrink makes; safe for concurrent use.
	TokensBefore() int
}

// PlanInfo says what a plan compacts (CompactionPlan.About).
type PlanInfo struct {
	// Noop is true when there is nothing to compact; Reason says why.
	Noop   bool
	Reason string
	// Span is what the plan replaces; of a no-op, only its Session is set.
	Span Span
	// Prompt is the prompt its request asks with (a no-op's too).
	Prompt Prompt
	// Instructions is the custom instruction it asks with, joined.
	Instructions string
}

// compactionTypes are the registered types by name, set by the init
// functions of their packages.
var compactionTypes = map[string]CompactionType{}

// RegisterCompactionType makes t available under t.Name() to agents whose
// compaction.type names it. It is meant to be called from the init
// function of t's package; a second type of one name panics.
func RegisterCompactionType(t CompactionType) {
	name := t.Name()
	if _, dup := compactionTypes[name]; dup || name == "" {
		panic("kompact: compaction type " + name + " registered twice or without a name")
	}
	compactionTypes[name] = t
}

// CompactionTypeNames returns the registered types' names, sorted.
func CompactionTypeNames() []string {
	names := make([]string, 0, len(compactionTypes))
	for n := range compactionTypes {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// LookupCompactionType returns the registered type called name. An unknown
// name is an EDisabled error that lists the registered types.
func LookupCompactionType(name string) (CompactionType, error) {
	if t, ok := compactionTypes[name]; ok {
		return t, nil
	}
	names := CompactionTypeNames()
	return nil, Errorf(EDisabled, "there is no compaction type %q; the registered types are %s", name, strings.Join(names, ", ")).
		WithFixes("Set the agent's compaction.type to one of: " + strings.Join(names, ", ") + ".")
}
