package httpapi

import (
	"context"
	"net/http"

	"kompact"
	"kompact/service"
	"kompact/sessionjson"
)

// dryRun answers an action with "dry_run": true: what the action would
// compact, chosen exactly as it would be, without an LLM call: the plan's
// counts (Plan.Counts). First and Last are the 1-based numbers of the
// messages the summary would replace (a leading system message stays, so
// it is not among them).
type dryRun struct {
	Status    string `json:"status"` // always "dry_run"
	Noop      bool   `json:"noop"`
	Reason    string `json:"reason,omitempty"`
	First     int    `json:"first,omitempty"`
	Last      int    `json:"last,omitempty"`
	Messages  int    `json:"messages"`
	Replaced  int    `json:"replaced_messages"`
	Preserved int    `json:"preserved_messages"`
	// Pinned counts the range's pinned messages, kept verbatim after the
	// summary (absent when none); PinnedIDs names them.
	Pinned          int      `json:"pinned_messages,omitempty"`
	PinnedIDs       []string `json:"pinned,omitempty"`
	EstimatedTokens int      `json:"estimated_tokens"`
	Model           string   `json:"model"`
	// Instructions is the custom instruction the request would carry: the
	// agent's, the session's and the run's joined (absent when none).
	Instructions string `json:"instructions,omitempty"`
}

// dryRun plans the action on the session's outline (openOutline) and
// answers its counts. The session's problems (unknown, its agent unknown)
// are the error answer; the action's (a bad range) its error outcome, as
// for the action itself.
func (s *Server) dryRun(w http.ResponseWriter, r *http.Request, req actionRequest) error {
	stored, a, lens, err := s.openOutline(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	job, err := s.sessions.NewJob(r.Context(), stored, a, req.action(r))
	if err != nil {
		s.writeOutcome(w, r, kompact.ErrorOutcome(err))
		return nil
	}
	writeJSON(w, http.StatusOK, dryRunOf(job.Job, lens))
	return nil
}

// openOutline reads session id as a dry run needs it, streamed from the
// store: its description, each message's outline (its compaction type's Outline) and the code
// points of its text (Message.TextLen), never its text. The session's
// agent comes with it, as with Sessions.Open.
func (s *Server) openOutline(ctx context.Context, id string) (*kompact.StoredSession, *kompact.Agent, []int, error) {
	var stored *kompact.StoredSession
	var lens []int
	var t kompact.CompactionType
	err := s.sessions.Stream(ctx, id, func(h *kompact.StoredSession) error {
		stored, t = h, s.sessions.CompactionTypeOf(h.Agent)
		return nil
	}, func(b []byte) error {
		m, err := sessionjson.DecodeStoredMessage(b, len(lens))
		if err != nil {
			return err
		}
		stored.Messages = append(stored.Messages, t.Outline(&m))
		lens = append(lens, m.TextLen())
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	a, err := s.agent(stored.Agent)
	return stored, a, lens, err
}

// dryRunOf describes job's plan, made on outlines; lens are the text
// lengths of the session's messages, for the estimate of those the summary
// would replace (kompact.EstimateTokens).
func dryRunOf(job *service.Job, lens []int) dryRun {
	p := job.Plan.About()
	d := dryRun{Status: "dry_run", Noop: p.Noop, Reason: p.Reason, Messages: len(p.Span.Session.Messages), Model: job.Config.Model, Instructions: p.Instructions}
	if p.Noop {
		return d
	}
	c := job.Plan.Counts()
	d.First, d.Last = c.First(), c.Last()
	d.Replaced, d.Preserved, d.Pinned = c.Replaced, c.After, c.Pinned
	chars, pinned := 0, p.Span.Pinned
	for i := c.Before; i < c.Last(); i++ {
		if len(pinned) > 0 && pinned[0] == i {
			d.PinnedIDs, pinned = append(d.PinnedIDs, p.Span.Session.Messages[i].ID), pinned[1:]
			continue
		}
		chars += lens[i]
	}
	d.EstimatedTokens = kompact.CharsToTokens(chars)
	return d
}
