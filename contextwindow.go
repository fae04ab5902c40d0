package kompact

// This file holds the context window's vocabulary: the compaction.auto block, a session's token
// account, its status and its breaker. The facts come from MoonshotAI/kimi-cli at commit 4a550eff
// (docs/compaction.md, "The context window"); its trigger and budget are package kimi's.

// kimi-cli's loop-control defaults and limits (src/kimi_cli/config.py).
const (
	// DefaultTriggerRatio is compaction_trigger_ratio's default.
	DefaultTriggerRatio = 0.85
	// MinTriggerRatio and MaxTriggerRatio bound compaction_trigger_ratio, both inclusive.
	MinTriggerRatio = 0.5
	MaxTriggerRatio = 0.99
	// DefaultReservedContextSize is reserved_context_size's default.
	DefaultReservedContextSize = 50000
	// MinReservedContextSize is reserved_context_size's lower bound, inclusive.
	MinReservedContextSize = 1000
	// MaxTokenFigure is the largest number of tokens kompact takes from a setting or a provider (a
	// context size, reserved_context_size): 2^40, far beyond any model's, so that every figure fits
	// an int.
	MaxTokenFigure = 1 << 40
)

// AutoCompactionFailureLimit is how many automatic compactions of one session may fail in a row
// before automatic compaction pauses for it (see CompactionBreaker). kimi-cli has no such breaker;
// the figure is Claude Code's.
const AutoCompactionFailureLimit = 3

// AutoCompaction is an agent's "compaction.auto" block: whether kompact compacts a session by
// itself, and kimi-cli's two thresholds. The zero value is disabled; zero thresholds mean
// kimi-cli's defaults (see Effective).
type AutoCompaction struct {
	Enabled bool
	// TriggerRatio is kimi-cli's compaction_trigger_ratio.
	TriggerRatio float64
	// ReservedContextSize is kimi-cli's reserved_context_size, in tokens.
	ReservedContextSize int
}

// DefaultAutoCompaction returns the block with kimi-cli's thresholds and the given switch.
func DefaultAutoCompaction(enabled bool) AutoCompaction {
	return AutoCompaction{Enabled: enabled, TriggerRatio: DefaultTriggerRatio, ReservedContextSize: DefaultReservedContextSize}
}

// Effective returns c with kimi-cli's default for each threshold left at zero.
func (c AutoCompaction) Effective() AutoCompaction {
	if c.TriggerRatio == 0 {
		c.TriggerRatio = DefaultTriggerRatio
	}
	if c.ReservedContextSize == 0 {
		c.ReservedContextSize = DefaultReservedContextSize
	}
	return c
}

// TokenAccount is kimi-cli's Context token accounting (src/kimi_cli/soul/context.py): the token
// figure last recorded for a session and an estimate for the messages appended since.
type TokenAccount struct {
	// TokenCount is the last recorded figure: the provider's usage total after a turn, or a
	// compaction's estimated_token_count.
	TokenCount int `json:"token_count"`
	// PendingTokens estimates the messages appended since TokenCount was recorded.
	PendingTokens int `json:"pending_tokens"`
}

// WithPending is kimi-cli's token_count_with_pending: TokenCount plus PendingTokens.
func (a TokenAccount) WithPending() int { return a.TokenCount + a.PendingTokens }

// Append is kimi-cli's append_message: pending grows by EstimateTokens of the appended messages,
// rounded down once per call, so one call with two messages may add more than two calls with one
// each.
func (a TokenAccount) Append(msgs []Message) TokenAccount {
	a.PendingTokens += EstimateTokens(msgs)
	return a
}

// Update is kimi-cli's update_token_count: the figure becomes n and pending becomes 0. kimi-cli
// calls it with a turn's usage total (see AfterTurn) and with a compaction's estimated_token_count.
func (a TokenAccount) Update(n int) TokenAccount { return TokenAccount{TokenCount: n} }

// AfterTurn records the usage of a turn the way kimi-cli's step ends:
// update_token_count(usage.total), input plus output.
func (a TokenAccount) AfterTurn(u Usage) TokenAccount { return a.Update(int(u.Input() + u.Output)) }

// RestoreTokenAccount is kimi-cli's Context.restore: the figure of the last "_usage" record (0
// without one) and, as pending, one estimate over the messages after it.
func RestoreTokenAccount(lastUsage int, after []Message) TokenAccount {
	return TokenAccount{TokenCount: lastUsage, PendingTokens: EstimateTokens(after)}
}

// The reasons a ContextStatus gives for ShouldCompact.
const (
	// ReasonUnknownContextSize: the model's context size is unknown, so compaction is never due.
	ReasonUnknownContextSize = "unknown_context_size"
	// ReasonBelowThreshold: neither condition holds.
	ReasonBelowThreshold = "below_threshold"
	// ReasonTriggerRatio: only the ratio condition holds.
	ReasonTriggerRatio = "trigger_ratio"
	// ReasonReservedContext: only the reserved-room condition holds.
	ReasonReservedContext = "reserved_context_size"
	// ReasonBoth: both conditions hold.
	ReasonBoth = "trigger_ratio_and_reserved_context_size"
)

// ContextStatus is how full a session's context is, as the context route reports it.
type ContextStatus struct {
	TokenCount    int `json:"token_count"`
	PendingTokens int `json:"pending_tokens"`
	// MaxContextSize is the model's context size in tokens; 0 means unknown.
	MaxContextSize int `json:"max_context_size"`
	// UsageRatio is token_count_with_pending / max_context_size, 0 when the size is unknown. It may
	// exceed 1.
	UsageRatio float64 `json:"usage_ratio"`
	// ShouldCompact is ShouldAutoCompact with the agent's thresholds; it is false when the size is
	// unknown. It does not depend on whether automatic compaction is enabled: a client that drives
	// its own loop compacts when it is true.
	ShouldCompact bool `json:"should_compact"`
	// Reason is one of the Reason constants.
	Reason string `json:"reason"`
}

// The reasons AutoCompactionDue gives besides a ContextStatus's.
const (
	// ReasonAutoDisabled: the agent's automatic compaction is off.
	ReasonAutoDisabled = "auto_compaction_disabled"
	// ReasonAutoPaused: the session's circuit breaker is open.
	ReasonAutoPaused = "auto_compaction_paused"
)

// CompactionTrigger says who started a compaction.
type CompactionTrigger string

// The triggers of a compaction.
const (
	TriggerManual CompactionTrigger = "manual"
	TriggerAuto   CompactionTrigger = "auto"
)

// CompactionBreaker is a session's circuit breaker for automatic compaction, after Claude Code's:
// once AutoCompactionFailureLimit automatic compactions have failed in a row, automatic compaction
// pauses until a manual one succeeds. The zero value is closed.
type CompactionBreaker struct {
	// AutoFailures counts the automatic compactions that failed in a row.
	AutoFailures int `json:"auto_failures"`
}

// Paused reports whether automatic compaction is paused.
func (b CompactionBreaker) Paused() bool { return b.AutoFailures >= AutoCompactionFailureLimit }

// Record returns the breaker after a compaction by trigger ended, ok when it was committed. An
// automatic failure (an error, or a result refused by CheckReduction) counts one; any success
// closes the breaker; a manual failure changes nothing.
func (b CompactionBreaker) Record(trigger CompactionTrigger, ok bool) CompactionBreaker {
	switch {
	case ok:
		return CompactionBreaker{}
	case trigger == TriggerAuto:
		b.AutoFailures++
	}
	return b
}
