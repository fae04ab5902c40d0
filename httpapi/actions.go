package httpapi

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"kompact"
)

type actionRequest struct {
	Start        string `json:"start"`
	End          string `json:"end"`
	MessageID    string `json:"message_id"`
	Instructions string `json:"instructions"`
	Preview      bool   `json:"preview"`
	// HoldOnWarnings keeps a result with warnings as a preview for the
	// client to confirm; without it such a result is committed, with its
	// warnings in the outcome (kimi-cli's contract).
	HoldOnWarnings bool `json:"hold_on_warnings"`
	// AcceptWarnings commits a result with warnings: the default again,
	// still taken so that older clients keep working; it wins over
	// HoldOnWarnings.
	AcceptWarnings bool `json:"accept_warnings"`
	DryRun         bool `json:"dry_run"`
	// AppendixTokens overrides the agent's
	// compaction.fidelity.appendix_tokens for this run.
	AppendixTokens *int `json:"appendix_tokens"`
}

// runAction runs a compaction action on a stored session and commits it,
// or keeps it as a preview (kompact.SessionJob.Run). Problems with the
// request itself (its body, an unknown session) answer with the error
// body; the action's own failures answer with their status and the
// outcome JSON.
func (s *Server) runAction(w http.ResponseWriter, r *http.Request) error {
	var req actionRequest
	if err := s.decodeBody(w, r, &req, true); err != nil {
		return err
	}
	ctx := r.Context()
	stored, a, err := s.sessions.Open(ctx, r.PathValue("id"))
	if err != nil {
		return err
	}
	job, err := s.sessions.NewJob(stored, a, kompact.ActionRequest{
		Action: r.PathValue("action"), Start: req.Start, End: req.End, MessageID: req.MessageID, Instructions: req.Instructions,
		AppendixTokens: req.AppendixTokens,
	})
	if err != nil {
		s.writeOutcome(w, r, kompact.ErrorOutcome(err))
		return nil
	}
	if req.DryRun {
		writeJSON(w, http.StatusOK, dryRunOf(job.Job))
		return nil
	}
	opts := kompact.ActionOptions{Preview: req.Preview, HoldOnWarnings: req.HoldOnWarnings && !req.AcceptWarnings}
	run := func(progress func(kompact.Progress)) kompact.Outcome { return job.Run(ctx, opts, progress) }
	if !wantsEvents(r) {
		s.writeOutcome(w, r, run(nil))
		return nil
	}
	s.streamAction(w, r, run)
	return nil
}

// dryRun answers an action with "dry_run": true: what the action would
// compact, chosen exactly as it would be, without an LLM call: the plan's
// counts (Plan.Counts). First and Last are the 1-based numbers of the
// messages the summary would replace (a leading system message stays, so
// it is not among them).
type dryRun struct {
	Status          string `json:"status"` // always "dry_run"
	Noop            bool   `json:"noop"`
	Reason          string `json:"reason,omitempty"`
	First           int    `json:"first,omitempty"`
	Last            int    `json:"last,omitempty"`
	Messages        int    `json:"messages"`
	Replaced        int    `json:"replaced_messages"`
	Preserved       int    `json:"preserved_messages"`
	EstimatedTokens int    `json:"estimated_tokens"`
	Model           string `json:"model"`
}

func dryRunOf(job *kompact.Job) dryRun {
	p := job.Plan
	d := dryRun{Status: "dry_run", Noop: p.Noop, Reason: p.Reason, Messages: len(p.Session.Messages), Model: job.Config.Model}
	if p.Noop {
		return d
	}
	c := p.Counts()
	d.First, d.Last = c.Before+1, c.Before+c.Replaced
	d.Replaced, d.Preserved = c.Replaced, c.After
	d.EstimatedTokens = kompact.EstimateTokens(p.Session.Messages[c.Before : c.Before+c.Replaced])
	return d
}

// outcomeBody returns the status and the JSON body of an outcome. An
// internal error is logged and shown only as "internal error".
func (s *Server) outcomeBody(r *http.Request, out kompact.Outcome) (int, []byte) {
	s.metrics.outcome(out)
	status := http.StatusOK
	if out.Status == kompact.OutcomeError {
		if out.Err == nil {
			out.Err = &kompact.Error{Code: kompact.EInternal, Message: "an error outcome without an error"}
		}
		out.Err = s.publicError(r, out.Err)
		status = StatusOf(out.Err.Code)
	}
	body, err := json.Marshal(out)
	if err != nil {
		s.log.ErrorContext(r.Context(), "encode outcome", "error", err.Error())
		return http.StatusInternalServerError, []byte(`{"status":"error","error":{"code":"internal","message":"internal error","fixes":[]}}`)
	}
	return status, body
}

func (s *Server) writeOutcome(w http.ResponseWriter, r *http.Request, out kompact.Outcome) {
	status, body := s.outcomeBody(r, out)
	writeRaw(w, status, body)
}

// wantsEvents reports whether the client asked for Server-Sent Events.
func wantsEvents(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		for _, part := range strings.Split(v, ",") {
			mt, _, _ := strings.Cut(part, ";")
			if strings.EqualFold(strings.TrimSpace(mt), "text/event-stream") {
				return true
			}
		}
	}
	return false
}

// streamAction runs the action while streaming its progress as
// Server-Sent Events, then its outcome. Progress reports are coalesced: a
// slow client sees the latest one, and never slows the LLM stream down. A
// comment line goes out every heartbeat interval to keep proxies from
// closing an idle stream.
func (s *Server) streamAction(w http.ResponseWriter, r *http.Request, run func(func(kompact.Progress)) kompact.Outcome) {
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()

	var (
		mu      sync.Mutex
		latest  kompact.Progress
		pending bool
	)
	notify := make(chan struct{}, 1)
	progress := func(p kompact.Progress) {
		mu.Lock()
		if pending {
			p = p.Merge(latest) // keep the text the client has not seen
		}
		latest, pending = p, true
		mu.Unlock()
		select {
		case notify <- struct{}{}:
		default:
		}
	}
	done := make(chan kompact.Outcome, 1)
	go func() { done <- run(progress) }()

	// A write error means the client is gone; the request context then
	// cancels the LLM call, and the loop still waits for run to return.
	sendProgress := func() {
		mu.Lock()
		p, ok := latest, pending
		pending = false
		mu.Unlock()
		if ok {
			data, _ := json.Marshal(p)
			writeEvent(w, "progress", data)
			_ = rc.Flush()
		}
	}
	tick := time.NewTicker(s.heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-notify:
			sendProgress()
		case <-tick.C:
			_, _ = w.Write([]byte(": heartbeat\n\n"))
			_ = rc.Flush()
		case out := <-done:
			sendProgress()
			_, body := s.outcomeBody(r, out)
			writeEvent(w, "outcome", body)
			_ = rc.Flush()
			if out.Status == kompact.OutcomeError && out.Err != nil {
				s.log.LogAttrs(r.Context(), slog.LevelInfo, "action failed", slog.String("path", r.URL.Path),
					slog.String("code", string(out.Err.Code)))
			}
			return
		}
	}
}

// writeEvent writes one Server-Sent Event; data may span lines.
func writeEvent(w http.ResponseWriter, event string, data []byte) {
	var b bytes.Buffer
	b.Grow(len(data) + len(event) + 16)
	b.WriteString("event: ")
	b.WriteString(event)
	b.WriteByte('\n')
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		b.WriteString("data: ")
		b.Write(bytes.TrimSuffix(line, []byte("\r")))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	_, _ = w.Write(b.Bytes())
}

type applyRequest struct {
	Summary *string `json:"summary"`
}

// applyPreview commits a preview, with its summary replaced when the body
// holds an edited one.
func (s *Server) applyPreview(w http.ResponseWriter, r *http.Request) error {
	var req applyRequest
	if err := s.decodeBody(w, r, &req, true); err != nil {
		return err
	}
	out, err := s.sessions.ApplyPreview(r.Context(), r.PathValue("id"), r.PathValue("preview"), req.Summary)
	if err != nil {
		return err
	}
	s.writeOutcome(w, r, out)
	return nil
}

// discardPreview forgets a preview without applying it.
func (s *Server) discardPreview(w http.ResponseWriter, r *http.Request) error {
	if err := s.sessions.DiscardPreview(r.Context(), r.PathValue("id"), r.PathValue("preview")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
