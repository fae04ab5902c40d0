package service

import (
	"context"
	"errors"
	"sync"
	"time"

	"kompact"
)

// Sessions holds the workflows of stored sessions, over a Store, a
// Compactor and Agents, so that every surface runs them one way (the HTTP
// API decodes a request, calls Sessions and encodes the answer):
//
//   - an action, committed at the version of the session it read, or kept
//     as a preview that is applied or discarded later (sessions_action.go,
//     sessions_preview.go);
//   - automatic compaction: the trigger, the breaker, the no-reduction
//     guard and the auto_compaction revision (sessions_auto.go);
//   - an append and a continue turn, with their token accounting
//     (sessions_turn.go);
//   - restore and undo (sessions_revise.go).
//
// Create one with NewSessions. Its methods may be called concurrently.
type Sessions struct {
	store       kompact.Store
	comp        *Compactor
	agents      kompact.Agents
	contextSize func(context.Context, *kompact.Agent) (int, error)
	previews    kompact.PreviewLimits
	now         func() time.Time
	newID       func() string
	warn        func(ctx context.Context, msg string, args ...any)
	info        func(ctx context.Context, msg string, args ...any)
	slots       ActionSlots
	// auto holds the ids of the sessions compacting automatically now;
	// actions counts the actions running on each session (SessionJob.Run);
	// gateway counts the gateway's compactions (before a turn, precompute).
	auto    runningSet
	actions runCount
	gateway runCount
}

// SessionsConfig configures NewSessions.
type SessionsConfig struct {
	// Store keeps the sessions.
	Store kompact.Store
	// Compactor runs the actions; its LLM answers continue turns too.
	Compactor *Compactor
	// Agents are the agents sessions may use.
	Agents kompact.Agents
	// ContextSize returns the context size of an agent's model in tokens
	// (0: unknown), e.g. from the provider's model list; nil means the
	// agent's llm.max_context_size. A failed lookup goes to Warn and means
	// unknown.
	ContextSize func(ctx context.Context, a *kompact.Agent) (int, error)
	// Previews bound the previews the store keeps (all sessions
	// together); a zero field takes DefaultPreviewLimits' value.
	Previews kompact.PreviewLimits
	// Slots are the action slots that the compactions Sessions starts by
	// itself take while they run (the gateway's before a turn and its
	// precompute, a background compaction after an append), shared with
	// the surface's actions; when none is free such a compaction waits
	// for a later turn or append. Nil bounds nothing.
	Slots ActionSlots
	// Now is the clock of preview expiry; nil means time.Now.
	Now func() time.Time
	// NewID returns a new random id, for previews ("pv_" and it); without
	// it no preview can be kept (an EInternal error outcome).
	NewID func() string
	// Warn receives what went wrong beside a workflow's answer (a context
	// size lookup, a breaker or token count not recorded, a preview not
	// kept back), e.g. (*slog.Logger).WarnContext; nil discards it.
	Warn func(ctx context.Context, msg string, args ...any)
	// Info receives the log of compactions (compactlog.go), e.g.
	// (*slog.Logger).InfoContext; nil discards it.
	Info func(ctx context.Context, msg string, args ...any)
}

// NewSessions returns the workflows over cfg's store, compactor and agents.
func NewSessions(cfg SessionsConfig) *Sessions {
	s := &Sessions{
		store: cfg.Store, comp: cfg.Compactor, agents: cfg.Agents, contextSize: cfg.ContextSize,
		previews: cfg.Previews, slots: cfg.Slots, now: cfg.Now, newID: cfg.NewID, warn: cfg.Warn, info: cfg.Info,
	}
	if s.comp == nil {
		s.comp = &Compactor{}
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.warn == nil {
		s.warn = func(context.Context, string, ...any) {}
	}
	if s.info == nil {
		s.info = func(context.Context, string, ...any) {}
	}
	if s.previews.MaxCount <= 0 {
		s.previews.MaxCount = kompact.DefaultPreviewLimits.MaxCount
	}
	if s.previews.MaxBytes <= 0 {
		s.previews.MaxBytes = kompact.DefaultPreviewLimits.MaxBytes
	}
	return s
}

// Agent returns the agent called name (the default agent for ""). An
// unknown agent is EInvalid: the session or the request names an agent
// that Agents lacks.
func (s *Sessions) Agent(name string) (*kompact.Agent, error) {
	a, err := AgentOf(s.agents, name)
	if err != nil {
		var e *kompact.Error
		if errors.As(err, &e) && e.Code == kompact.ENotFound {
			return nil, &kompact.Error{Code: kompact.EInvalid, Message: e.Message, Fixes: e.Fixes, Err: e.Err}
		}
		return nil, err
	}
	return a, nil
}

// Open reads session id and its agent.
func (s *Sessions) Open(ctx context.Context, id string) (*kompact.StoredSession, *kompact.Agent, error) {
	return s.withAgent(s.store.GetSession(ctx, id))
}

// OpenHead is Open without the messages (Store.GetSessionHead): for what
// needs only the session's description, token account and agent.
func (s *Sessions) OpenHead(ctx context.Context, id string) (*kompact.StoredSession, *kompact.Agent, error) {
	return s.withAgent(s.store.GetSessionHead(ctx, id))
}

// withAgent adds the agent of a session just read (or passes on the
// read's error).
func (s *Sessions) withAgent(stored *kompact.StoredSession, err error) (*kompact.StoredSession, *kompact.Agent, error) {
	if err != nil {
		return nil, nil, err
	}
	a, err := s.Agent(stored.Agent)
	return stored, a, err
}

// contextSizeOf returns the context size of a's model in tokens, 0 when it
// is unknown: SessionsConfig.ContextSize's answer when it is set, else
// llm.max_context_size.
func (s *Sessions) contextSizeOf(ctx context.Context, a *kompact.Agent) int {
	if s.contextSize == nil {
		return max(a.LLM.MaxContextSize, 0)
	}
	n, err := s.contextSize(ctx, a)
	if err != nil {
		s.warn(ctx, "context size unknown", "agent", a.Name, "error", err.Error())
		return 0
	}
	return max(n, 0)
}

// runningSet is a set of session ids that concurrent callers change.
type runningSet struct {
	mu  sync.Mutex
	ids map[string]bool
}

// start adds id, and reports whether it was not in the set yet.
func (r *runningSet) start(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ids[id] {
		return false
	}
	if r.ids == nil {
		r.ids = map[string]bool{}
	}
	r.ids[id] = true
	return true
}

// done removes id.
func (r *runningSet) done(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.ids, id)
}

// has reports whether id is in the set.
func (r *runningSet) has(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ids[id]
}

// size is how many ids the set holds.
func (r *runningSet) size() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.ids)
}
