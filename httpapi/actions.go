package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"kompact"
)

// OutcomePreview is the status of a preview: a compaction that ran but was
// not committed.
const OutcomePreview kompact.OutcomeStatus = "preview"

type actionRequest struct {
	Start        string `json:"start"`
	End          string `json:"end"`
	MessageID    string `json:"message_id"`
	Instructions string `json:"instructions"`
	Preview      bool   `json:"preview"`
}

// runAction runs a compaction action on a stored session and commits it
// (or keeps it as a preview). Problems with the request itself (its body,
// an unknown session) answer with the error body; the action's own
// failures answer with their status and the outcome JSON.
func (s *Server) runAction(w http.ResponseWriter, r *http.Request) {
	var req actionRequest
	if err := s.decodeBody(w, r, &req, true); err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx := r.Context()
	id := r.PathValue("id")
	stored, err := s.cfg.Store.GetSession(ctx, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.agent(stored.Agent)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	plan, rc, err := s.comp.Prepare(a, &stored.Session, kompact.ActionRequest{
		Action: r.PathValue("action"), Start: req.Start, End: req.End, MessageID: req.MessageID, Instructions: req.Instructions,
	})
	if err != nil {
		s.writeOutcome(w, r, errorOutcome(err), "")
		return
	}
	run := func(progress func(kompact.Progress)) (kompact.Outcome, string) {
		if plan.Noop {
			return kompact.Outcome{Status: kompact.OutcomeNoop, Reason: plan.Reason}, ""
		}
		out := s.comp.Complete(ctx, plan, rc, progress)
		if out.Status != kompact.OutcomeCompacted {
			return out, ""
		}
		if req.Preview {
			pid := s.previews.put(&preview{sessionID: id, plan: plan, result: out.Result, model: out.Model, dropped: out.Dropped,
				size: previewSize(plan, out.Result)})
			out.Status = OutcomePreview
			return out, pid
		}
		return s.commit(ctx, id, plan, stored.Version, out), ""
	}
	if !wantsEvents(r) {
		out, pid := run(nil)
		s.writeOutcome(w, r, out, pid)
		return
	}
	s.streamAction(w, r, run)
}

// commit stores a compacted outcome and returns it holding the committed
// session; a commit that fails turns it into an error outcome. The commit
// runs even when the client has gone away meanwhile: the summary is paid
// for, and the result is visible in the session and its revisions.
func (s *Server) commit(ctx context.Context, id string, plan *kompact.Plan, version int64, out kompact.Outcome) kompact.Outcome {
	c := kompact.CommitFor(plan, out.Result)
	c.Version = version // the version the plan's session was read at
	stored, _, err := s.cfg.Store.CommitCompaction(context.WithoutCancel(ctx), id, c)
	if err != nil {
		return kompact.Outcome{Status: kompact.OutcomeError, Err: asError(err), Model: out.Model, Dropped: out.Dropped}
	}
	res := *out.Result
	res.Session = &stored.Session
	out.Result = &res
	return out
}

// errorOutcome returns an error outcome for err.
func errorOutcome(err error) kompact.Outcome {
	return kompact.Outcome{Status: kompact.OutcomeError, Err: asError(err)}
}

// asError returns err as an *kompact.Error, wrapping foreign errors as
// internal ones.
func asError(err error) *kompact.Error {
	var e *kompact.Error
	if errors.As(err, &e) {
		return e
	}
	return &kompact.Error{Code: kompact.EInternal, Message: err.Error(), Err: err}
}

// outcomeBody returns the status and the JSON body of an outcome. An
// internal error is logged and shown only as "internal error". A preview
// carries its preview_id.
func (s *Server) outcomeBody(r *http.Request, out kompact.Outcome, previewID string) (int, []byte) {
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
		s.log.Error("encode outcome", "error", err.Error())
		return http.StatusInternalServerError, []byte(`{"status":"error","error":{"code":"internal","message":"internal error","fixes":[]}}`)
	}
	if previewID != "" {
		id, _ := json.Marshal(previewID)
		body = slices.Concat([]byte(`{"preview_id":`), id, []byte(","), body[1:])
	}
	return status, body
}

func (s *Server) writeOutcome(w http.ResponseWriter, r *http.Request, out kompact.Outcome, previewID string) {
	status, body := s.outcomeBody(r, out, previewID)
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
func (s *Server) streamAction(w http.ResponseWriter, r *http.Request, run func(func(kompact.Progress)) (kompact.Outcome, string)) {
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
		latest, pending = p, true
		mu.Unlock()
		select {
		case notify <- struct{}{}:
		default:
		}
	}
	type result struct {
		out kompact.Outcome
		pid string
	}
	done := make(chan result, 1)
	go func() {
		out, pid := run(progress)
		done <- result{out, pid}
	}()

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
		case res := <-done:
			sendProgress()
			_, body := s.outcomeBody(r, res.out, res.pid)
			writeEvent(w, "outcome", body)
			_ = rc.Flush()
			if res.out.Status == kompact.OutcomeError && res.out.Err != nil {
				s.log.LogAttrs(r.Context(), slog.LevelInfo, "action failed", slog.String("path", r.URL.Path),
					slog.String("code", string(res.out.Err.Code)))
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
func (s *Server) applyPreview(w http.ResponseWriter, r *http.Request) {
	var req applyRequest
	if err := s.decodeBody(w, r, &req, true); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Summary != nil && strings.TrimSpace(*req.Summary) == "" {
		s.writeError(w, r, kompact.Errorf(kompact.EInvalid, "the edited summary is empty").
			WithFixes(`Leave "summary" out to apply the summary as the LLM wrote it.`))
		return
	}
	id, pid := r.PathValue("id"), r.PathValue("preview")
	pv := s.previews.take(id, pid)
	if pv == nil {
		s.writeError(w, r, kompact.Errorf(kompact.ENotFound, "no preview %q for session %q: it was applied already, it expired (previews last %v), or it never existed", pid, id, previewTTL).
			WithFixes(`Run the action again with "preview": true.`))
		return
	}
	res := pv.result
	if req.Summary != nil {
		res = EditSummary(pv.plan, res, *req.Summary)
	}
	out := s.commit(r.Context(), id, pv.plan, 0, kompact.Outcome{Status: kompact.OutcomeCompacted, Result: res, Model: pv.model, Dropped: pv.dropped})
	if out.Status == kompact.OutcomeError && out.Err.Code != kompact.EConflict && out.Err.Code != kompact.ENotFound {
		// Not applied: it may be tried again.
		s.previews.putBack(pv)
	}
	s.writeOutcome(w, r, out, "")
}

// SummaryMessage returns the user message that replaces the compacted
// messages: kompact.SummaryPrefix, a newline, then summary.
func SummaryMessage(summary string) kompact.Message {
	return kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(kompact.SummaryPrefix + "\n" + summary)}}
}

// EditSummary returns a copy of res, the result of plan, whose summary is
// summary: the summary message, the summary, the missing sections and the
// estimates follow it. res is not modified.
func EditSummary(plan *kompact.Plan, res *kompact.Result, summary string) *kompact.Result {
	out := *res
	at := len(plan.Kept())
	msgs := slices.Clone(res.Session.Messages)
	msgs[at] = SummaryMessage(summary)
	sess := *res.Session
	sess.Messages = msgs
	out.Session = &sess
	out.SummaryMessage = msgs[at]
	out.Summary = summary
	out.MissingSections = kompact.MissingSections(summary)
	out.TokensAfter = kompact.EstimateTokens(msgs)
	if plan.Start < len(res.KimiMessages) {
		kimi := slices.Clone(res.KimiMessages)
		kimi[plan.Start] = kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(kompact.SummaryPrefix), kompact.TextPart(summary)}}
		out.KimiMessages = kimi
		out.EstimatedTokenCount = kompact.EstimateTokens(kimi)
	}
	return &out
}
