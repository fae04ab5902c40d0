package service

import (
	"context"
	"sync"

	"kompact"
)

// ListedSession is a stored session as Sessions.List describes it: its
// SessionInfo, its open previews, and whether this Sessions runs a
// compaction on it now.
type ListedSession struct {
	kompact.SessionInfo
	// OpenPreviews counts the session's previews that have not expired
	// (Sessions.Previews lists them).
	OpenPreviews int `json:"open_previews"`
	// GatewayPreviews counts those of them that are the gateway's
	// precomputed summary (0 or 1), which no person needs to review.
	GatewayPreviews int `json:"gateway_previews,omitempty"`
	// GatewayFace names the gateway face a gateway session's conversation
	// comes through (the one its agent's gateway serves, or the one kept
	// with the session, GatewayState.Face); "" for another session.
	GatewayFace string `json:"gateway_face,omitempty"`
	// ContinuedFrom names, on a gateway session, the session it continues
	// after its client compacted on its own side (GatewayState.ContinuedFrom);
	// "" for none.
	ContinuedFrom string `json:"continued_from,omitempty"`
	// Running says this Sessions (this process: other instances over the
	// same store keep their own) runs an action or an automatic compaction
	// on the session now.
	Running bool `json:"running"`
}

// List describes every stored session but the gateway's side calls
// (ListWith with no filter).
func (s *Sessions) List(ctx context.Context) ([]ListedSession, error) {
	return s.ListWith(ctx, kompact.SessionFilter{})
}

// ListWith describes the stored sessions f lets through (the store
// filters them), in the store's order, with their open previews counted
// (no preview body is read) and whether a compaction runs on them here.
func (s *Sessions) ListWith(ctx context.Context, f kompact.SessionFilter) ([]ListedSession, error) {
	infos, err := s.store.ListSessions(ctx, f)
	if err != nil {
		return nil, err
	}
	open, err := s.store.CountPreviews(ctx, s.now())
	if err != nil {
		return nil, err
	}
	out := make([]ListedSession, len(infos))
	for i, info := range infos {
		out[i] = ListedSession{SessionInfo: info, OpenPreviews: open[info.ID], Running: s.Running(info.ID)}
		if info.Gateway && open[info.ID] > 0 {
			out[i].GatewayPreviews = s.openPrecomputed(ctx, info.ID)
		}
		if info.Gateway {
			out[i].GatewayFace = s.gatewayFaceOf(info.Agent)
			if st := s.gatewayStateOf(ctx, info.ID); st != nil {
				out[i].ContinuedFrom = st.ContinuedFrom
				if st.Face != "" && out[i].GatewayFace != "" {
					out[i].GatewayFace = st.Face
				}
			}
		}
	}
	return out, nil
}

// The gateway's faces (ListedSession.GatewayFace): an agent's gateway
// serves one by its llm.api, and an OpenAI-compatible one's the Responses
// face too.
const (
	// GatewayFaceMessages is Anthropic's Messages API,
	// /gateway/AGENT/v1/messages (llm.api: anthropic; Claude Code).
	GatewayFaceMessages = "messages"
	// GatewayFaceChat is chat completions, /gateway/AGENT/v1/chat/completions
	// (every other agent; OpenAI-compatible clients).
	GatewayFaceChat = "chat_completions"
	// GatewayFaceResponses is the Responses API,
	// /gateway/AGENT/v1/responses (Codex CLI): kept with the session
	// (GatewayState.Face), since an OpenAI-compatible agent's gateway
	// serves chat completions too.
	GatewayFaceResponses = "responses"
)

// gatewayFaceOf is the face agent's gateway serves; "" when the agent is
// no longer configured.
func (s *Sessions) gatewayFaceOf(agent string) string {
	a, err := AgentOf(s.agents, agent)
	if err != nil {
		return ""
	}
	if a.LLM.API == "anthropic" { // anthropic.API; service does not import anthropic
		return GatewayFaceMessages
	}
	return GatewayFaceChat
}

// openPrecomputed is 1 when gateway session id's precomputed summary is
// among its open previews, else 0.
func (s *Sessions) openPrecomputed(ctx context.Context, id string) int {
	pid := s.precomputedPreview(ctx, id)
	if pid == "" {
		return 0
	}
	list, err := s.store.ListPreviews(ctx, id, s.now())
	if err != nil {
		return 0
	}
	for _, p := range list {
		if p.ID == pid {
			return 1
		}
	}
	return 0
}

// Running reports whether this Sessions runs an action (SessionJob.Run),
// an automatic compaction or a gateway compaction (before a turn, or a
// precompute) on session id now.
func (s *Sessions) Running(id string) bool {
	return s.auto.has(id) || s.actions.has(id) || s.gateway.has(id)
}

// Busy refuses the job when a compaction that no person started runs on
// its session already: an automatic or gateway compaction here, or the
// gateway's on any instance over the store (its lease). Its result would
// conflict with that one's, so it is EConflict before any LLM call.
func (j *SessionJob) Busy(ctx context.Context) error {
	s := j.s
	runs := s.auto.has(j.id) || s.gateway.has(j.id)
	if !runs && j.gateway {
		runs = s.gatewayLeased(ctx, j.id)
	}
	if !runs {
		return nil
	}
	return kompact.Errorf(kompact.EConflict, "an automatic compaction of session %q runs already; this one would conflict with it", j.id).
		WithFixes("Wait until it ends (the session list marks the session as running), then reload the session and compact again if you still want to.")
}

// precomputedPreview returns the id of the gateway's precomputed summary
// of session id, "" when it has none (or is not a gateway session).
func (s *Sessions) precomputedPreview(ctx context.Context, id string) string {
	st := s.gatewayStateOf(ctx, id)
	if st == nil {
		return ""
	}
	return st.PreviewID
}

// gatewayStateOf returns the gateway state of session id; nil when it is
// not a gateway session or its state cannot be read.
func (s *Sessions) gatewayStateOf(ctx context.Context, id string) *GatewayState {
	gs, ok := s.store.(kompact.GatewayStore)
	if !ok {
		return nil
	}
	rec, err := gs.GetGatewayRecord(ctx, id)
	if err != nil {
		return nil
	}
	st, err := decodeGatewayState(rec.State)
	if err != nil {
		return nil
	}
	return st
}

// gatewayLeased reports whether a gateway compaction of session id holds
// its lease now, on any instance; a state it cannot read counts as none.
func (s *Sessions) gatewayLeased(ctx context.Context, id string) bool {
	st := s.gatewayStateOf(ctx, id)
	return st != nil && st.leased("", s.now())
}

// runCount counts the runs of each session id that concurrent callers
// start and end.
type runCount struct {
	mu   sync.Mutex
	runs map[string]int
}

// start counts one more run of id; done ends one.
func (r *runCount) start(id string) { r.add(id, 1) }
func (r *runCount) done(id string)  { r.add(id, -1) }

func (r *runCount) add(id string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.runs == nil {
		r.runs = map[string]int{}
	}
	if r.runs[id] += n; r.runs[id] <= 0 {
		delete(r.runs, id)
	}
}

// has reports whether a run of id is counted.
func (r *runCount) has(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.runs[id] > 0
}

// total is the number of runs counted, of every id.
func (r *runCount) total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.runs {
		n += c
	}
	return n
}

// RunningCompactions counts the actions and automatic compactions this
// Sessions runs now, on every session.
func (s *Sessions) RunningCompactions() int {
	return s.actions.total() + s.auto.size()
}
