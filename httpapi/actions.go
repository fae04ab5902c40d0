package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"kompact"
	"kompact/service"
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

// action is the kompact.ActionRequest of the request r carries.
func (req *actionRequest) action(r *http.Request) kompact.ActionRequest {
	return kompact.ActionRequest{
		Action: r.PathValue("action"), Start: req.Start, End: req.End, MessageID: req.MessageID, Instructions: req.Instructions,
		AppendixTokens: req.AppendixTokens,
	}
}

// runAction runs a compaction action on a stored session and commits it,
// or keeps it as a preview (service.SessionJob.Run); prune_tool_results
// has a route of its own (runPrune). Problems with the
// request itself (its body, an unknown session) answer with the error
// body; the action's own failures answer with their status and the
// outcome JSON. The action runs in one of the server's action slots; a
// dry run, which makes no LLM call, takes none and reads only the
// session's outline (dryRun).
//
// What the session's head decides (checkAction) comes before the slot,
// and the reading of the whole session and the plan (planAction) after
// it: a refusal as busy reads no message, so that retrying clients do
// not each read a large session while the server is busy.
func (s *Server) runAction(w http.ResponseWriter, r *http.Request) error {
	var req actionRequest
	if err := s.decodeBody(w, r, &req, true); err != nil {
		return err
	}
	if req.DryRun {
		return s.dryRun(w, r, req)
	}
	if refusal, err := s.checkAction(r); err != nil || refusal != nil {
		return s.refuseAction(w, r, refusal, err)
	}
	release, err := s.actionSlot(w)
	if err != nil {
		return err
	}
	defer release()
	job, refusal, err := s.planAction(r, req)
	if err != nil || refusal != nil {
		return s.refuseAction(w, r, refusal, err)
	}
	s.runJob(w, r, job, req)
	return nil
}

// checkAction checks an action on the session's head, without reading a
// message: an unknown session or agent is err (the error body), an agent
// whose compaction is disabled the refusal (an error outcome).
func (s *Server) checkAction(r *http.Request) (refusal, err error) {
	_, a, err := s.sessions.OpenHead(r.Context(), r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	return service.CheckCompaction(a), nil
}

// planAction reads the session whole and plans the action (Sessions.NewJob),
// with the preview budget checked before the LLM call (CheckPreview). The
// session's read failing (it was deleted meanwhile) is err; what the plan
// refuses (a bad range, a preview past the budget) the refusal.
func (s *Server) planAction(r *http.Request, req actionRequest) (job *service.SessionJob, refusal, err error) {
	ctx := r.Context()
	stored, a, err := s.sessions.Open(ctx, r.PathValue("id"))
	if err != nil {
		return nil, nil, err
	}
	job, refusal = s.sessions.NewJob(ctx, stored, a, req.action(r))
	if refusal == nil && req.Preview {
		refusal = job.CheckPreview()
	}
	return job, refusal, nil
}

// refuseAction answers an action refused before it ran: err with the
// error body (the handler's error), else refusal as an error outcome.
func (s *Server) refuseAction(w http.ResponseWriter, r *http.Request, refusal, err error) error {
	if err != nil {
		return err
	}
	s.writeOutcome(w, r, kompact.ErrorOutcome(refusal))
	return nil
}

// runJob runs job as req asks and answers its outcome: as one JSON body,
// or streamed as Server-Sent Events when the client asks for them.
func (s *Server) runJob(w http.ResponseWriter, r *http.Request, job *service.SessionJob, req actionRequest) {
	opts := service.ActionOptions{Preview: req.Preview, HoldOnWarnings: req.HoldOnWarnings && !req.AcceptWarnings}
	run := func(ctx context.Context, progress func(kompact.Progress)) kompact.Outcome {
		return job.Run(ctx, opts, progress)
	}
	if !wantsEvents(r) {
		s.writeOutcome(w, r, run(r.Context(), nil))
		return
	}
	s.streamAction(w, r, run)
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
	if out.Err != nil {
		retryLater(w, out.Err.Code)
	}
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
//
// A client that does not read is cut off once the progress text it has
// not received passes s.sseBuffer: its connection is closed, and the
// action runs on and commits (or not) exactly as it would have. A client
// that goes away by itself cancels the action, as one that waits for a
// plain answer does.
func (s *Server) streamAction(w http.ResponseWriter, r *http.Request, run func(context.Context, func(kompact.Progress)) kompact.Outcome) {
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()

	ev := &eventQueue{limit: s.sseBuffer, notify: make(chan struct{}, 1)}
	ev.cut = func() { _ = rc.SetWriteDeadline(time.Now()) }
	ctx, cancel := runContext(r.Context(), &ev.cutOff)
	defer cancel()
	done := make(chan kompact.Outcome, 1)
	go func() { done <- run(ctx, ev.progress) }()

	// A write error means the client is gone (or was cut off); the loop
	// still waits for run to return.
	sendProgress := func() {
		if p, ok := ev.take(); ok {
			data, _ := json.Marshal(p)
			writeEvent(w, "progress", data)
			_ = rc.Flush()
		}
	}
	tick := time.NewTicker(s.heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ev.notify:
			sendProgress()
		case <-tick.C:
			if !ev.cutOff.Load() {
				_, _ = w.Write([]byte(": heartbeat\n\n"))
				_ = rc.Flush()
			}
		case out := <-done:
			s.endStream(w, r, rc, ev, out)
			return
		}
	}
}

// outcomeWriteTimeout bounds the write of a stream's last events: a
// client that reads nothing cannot hold the handler.
const outcomeWriteTimeout = 30 * time.Second

// endStream writes the last progress and the outcome event.
func (s *Server) endStream(w http.ResponseWriter, r *http.Request, rc *http.ResponseController, ev *eventQueue, out kompact.Outcome) {
	_, body := s.outcomeBody(r, out)
	if !ev.cutOff.Load() {
		_ = rc.SetWriteDeadline(time.Now().Add(outcomeWriteTimeout))
		if p, ok := ev.take(); ok {
			data, _ := json.Marshal(p)
			writeEvent(w, "progress", data)
		}
		writeEvent(w, "outcome", body)
		_ = rc.Flush()
	}
	if out.Status == kompact.OutcomeError && out.Err != nil {
		s.log.LogAttrs(r.Context(), slog.LevelInfo, "action failed", slog.String("path", r.URL.Path),
			slog.String("code", string(out.Err.Code)))
	}
}

// runContext is the context of a streamed action: cancelled when the
// client goes away, but not when the server cut it off (cutOff), so that
// the action then runs to its end.
func runContext(req context.Context, cutOff *atomic.Bool) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(req))
	stop := context.AfterFunc(req, func() {
		if !cutOff.Load() {
			cancel()
		}
	})
	return ctx, func() { stop(); cancel() }
}

// DefaultSSEBuffer bounds the progress text kept for a streaming client
// that has not read it yet; past it the client is cut off.
const DefaultSSEBuffer = 1 << 20

// eventQueue holds the progress a stream has not sent yet: the latest
// report, with the text of the ones it replaced.
type eventQueue struct {
	mu      sync.Mutex
	latest  kompact.Progress
	pending bool
	limit   int
	notify  chan struct{}
	// cutOff is set once the client is cut off; cut closes its
	// connection.
	cutOff atomic.Bool
	cut    func()
}

// progress queues p, keeping the text the client has not seen; past the
// limit it cuts the client off and drops what is queued.
func (q *eventQueue) progress(p kompact.Progress) {
	if q.cutOff.Load() {
		return
	}
	q.mu.Lock()
	if q.pending {
		p = p.Merge(q.latest) // keep the text the client has not seen
	}
	q.latest, q.pending = p, true
	over := len(p.Delta) > q.limit
	if over {
		q.latest, q.pending = kompact.Progress{}, false
	}
	q.mu.Unlock()
	if over {
		q.cutOff.Store(true)
		q.cut()
		return
	}
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

// take returns the queued progress, if any, and empties the queue.
func (q *eventQueue) take() (kompact.Progress, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	p, ok := q.latest, q.pending
	q.pending = false
	return p, ok && !q.cutOff.Load()
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
