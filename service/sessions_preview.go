package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"kompact"
)

// Previews live in the store (Store.PutPreview), for PreviewTTL, within
// the limits of SessionsConfig.Previews (all previews together, the ones
// that expire first go first), so that any instance over the same store can
// apply one and a restart keeps them. Each can be applied once.

// keptPreview is a preview taken from the store: its compacted outcome,
// and the session's version and generation when the compaction read it.
type keptPreview struct {
	read    readAt
	outcome kompact.Outcome
	stored  *kompact.Preview
	elided  elision
}

// keepPreview keeps a compacted outcome of session id, read at read, as
// a preview and returns it as one, with its preview id; a preview the store
// cannot keep turns it into an error outcome.
func (s *Sessions) keepPreview(ctx context.Context, id string, read readAt, out kompact.Outcome) kompact.Outcome {
	pid, err := s.putPreview(ctx, id, read, out, false)
	if err != nil {
		return failedAs(out, err)
	}
	out.PreviewID = pid
	out.Status = kompact.OutcomePreview
	return out
}

// putPreview stores a compacted outcome of session id, read at read, as
// a new preview and returns its id. The stored body holds every byte the
// preview needs but the messages the summary replaces, which applying
// reads from the session (restoreBase): the replacement and the messages
// after the range, tool-call arguments and data parts included. The byte
// budget counts the body. gateway marks the gateway's
// precompute, which has a budget of its own (Preview.Gateway).
func (s *Sessions) putPreview(ctx context.Context, id string, read readAt, out kompact.Outcome, gateway bool) (string, error) {
	body, err := EncodePreview(out)
	if err != nil {
		return "", err
	}
	if size := int64(len(body)); size > s.previews.MaxBytes {
		return "", kompact.PreviewTooLargeError(size, s.previews.MaxBytes)
	}
	if s.newID == nil {
		return "", kompact.Errorf(kompact.EInternal, "no id source for previews (SessionsConfig.NewID)")
	}
	now := s.now()
	p := &kompact.Preview{ID: "pv_" + s.newID(), SessionID: id, Version: read.version, Generation: read.generation, Body: body, Counts: out.Result.Counts(), ExpiresAt: now.Add(kompact.PreviewTTL), Gateway: gateway}
	if err := s.store.PutPreview(context.WithoutCancel(ctx), p, now, s.previews); err != nil {
		return "", err
	}
	return p.ID, nil
}

// takePreview removes preview pid of session id from the store and returns
// it decoded, with the messages it replaces read back from the session
// (restoreBase). When they cannot be, it returns the preview and why (an
// EConflict when the session no longer holds them).
func (s *Sessions) takePreview(ctx context.Context, id, pid string) (*keptPreview, error) {
	p, err := s.store.TakePreview(ctx, id, pid, s.now())
	if err != nil {
		return nil, err
	}
	out, el, err := decodePreview(p.Body)
	if err != nil {
		return nil, err
	}
	pv := &keptPreview{read: readAt{p.Version, p.Generation}, outcome: out, stored: p, elided: el}
	return pv, s.restoreBase(ctx, id, pv)
}

// restoreBase puts back into pv's base the messages its body leaves out,
// read from session id: its first ones, which the session holds as the
// compaction read them when it has not been rewritten since (only
// appended to) and their digest says so. Only they are decoded; the read
// stops after them.
func (s *Sessions) restoreBase(ctx context.Context, id string, pv *keptPreview) error {
	n := pv.elided.n
	if n == 0 {
		return nil
	}
	base := pv.outcome.Result.Span.Session.Messages[:n]
	i := 0
	err := s.store.StreamSession(ctx, id, func(h *kompact.StoredSession) error {
		return previewStillApplies(h, pv.read)
	}, func(raw []byte) error {
		if err := json.Unmarshal(raw, &base[i]); err != nil {
			return kompact.Errorf(kompact.EInternal, "a stored message of session %q does not decode: %w", id, err)
		}
		if i++; i == n {
			return errStopRead
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStopRead) {
		return err
	}
	if i < n || baseDigest(base) != pv.elided.digest {
		return previewConflict(id, "the messages it replaces changed")
	}
	return nil
}

// previewStillApplies is the conflict of a preview read at read on
// session head h that was recreated or rewritten (compacted, restored,
// undone, pruned) since.
func previewStillApplies(h *kompact.StoredSession, read readAt) error {
	switch {
	case read.generation != 0 && h.Generation != read.generation:
		return previewConflict(h.ID, "the session was deleted and created again")
	case h.Rewritten > read.version:
		return previewConflict(h.ID, fmt.Sprintf("the session was rewritten at version %d (a compaction, restore, undo or prune)", h.Rewritten))
	}
	return nil
}

// previewConflict is the EConflict of a preview of session id that no
// longer applies, because of why.
func previewConflict(id, why string) error {
	return kompact.Errorf(kompact.EConflict, "the preview of session %q no longer applies: %s since the compaction read it", id, why).
		WithFixes("Run the action again for a new preview; nothing was written.")
}

// putBack keeps a preview that could not be applied, until its expiry.
func (s *Sessions) putBack(ctx context.Context, pv *keptPreview) {
	err := s.store.PutPreview(context.WithoutCancel(ctx), pv.stored, s.now(), s.previews)
	if err != nil && kompact.ErrorCodeOf(err) != kompact.ENotFound {
		s.warn(ctx, "keep a preview that was not applied", "preview", pv.stored.ID, "error", err.Error())
	}
}

// ApplyPreview commits preview pid of session id at the version its
// compaction read, with its summary replaced by summary when that is not
// nil. The preview is gone once applied, and when the commit conflicts or
// the session is gone; after any other failure it is kept, to be tried
// again. A preview that cannot be taken (unknown, applied, expired) or an
// empty summary is an error; the commit's own failure is an error
// outcome.
func (s *Sessions) ApplyPreview(ctx context.Context, id, pid string, summary *string) (kompact.Outcome, error) {
	if summary != nil && strings.TrimSpace(*summary) == "" {
		return kompact.Outcome{}, kompact.Errorf(kompact.EInvalid, "the edited summary is empty").
			WithFixes(`Leave "summary" out to apply the summary as the LLM wrote it.`)
	}
	pv, err := s.takePreview(ctx, id, pid)
	if pv == nil {
		return kompact.Outcome{}, err
	}
	if err != nil {
		return s.notApplied(ctx, id, pv, err), nil
	}
	res := pv.outcome.Result
	t := s.CompactionTypeOf(res.Session.Agent)
	if res.Type != "" && res.Type != t.Name() {
		return kompact.ErrorOutcome(typeChangedError(pid, res, t.Name())), nil // gone, as after any conflict
	}
	if summary != nil {
		res = withSummary(t, res, *summary)
	}
	ctx = withTrigger(ctx, logManual)
	out := s.commit(ctx, id, pv.read, kompact.Outcome{Status: kompact.OutcomeCompacted, Result: res, Model: pv.outcome.Model}, s.paused(ctx, id), pid)
	if out.Status == kompact.OutcomeError && out.Err.Code != kompact.EConflict && out.Err.Code != kompact.ENotFound {
		// Not applied: it may be tried again.
		s.putBack(ctx, pv)
	}
	return out, nil
}

// notApplied is the error outcome of preview pv of session id whose
// messages could not be read back (err): a conflict drops it, as a
// conflicting commit does; after any other failure it is kept.
func (s *Sessions) notApplied(ctx context.Context, id string, pv *keptPreview, err error) kompact.Outcome {
	f := failedAs(pv.outcome, err)
	s.logEnded(withTrigger(ctx, logManual), id, f, "")
	if kompact.ErrorCodeOf(err) != kompact.EConflict && kompact.ErrorCodeOf(err) != kompact.ENotFound {
		s.putBack(ctx, pv)
	}
	return f
}

// DiscardPreview forgets preview pid of session id without applying it.
func (s *Sessions) DiscardPreview(ctx context.Context, id, pid string) error {
	if _, err := s.store.TakePreview(ctx, id, pid, s.now()); err != nil {
		if kompact.ErrorCodeOf(err) != kompact.ENotFound {
			return err
		}
		return kompact.Errorf(kompact.ENotFound, "no preview %q for session %q: it was applied or discarded already, or it expired", pid, id).
			WithFixes("Nothing to discard; the session was not changed by the preview.")
	}
	return nil
}

// OpenPreview describes a preview of a session that can still be applied
// (Sessions.Previews).
type OpenPreview struct {
	ID string `json:"preview_id"`
	// Version is the session's version the compaction read; Stale says the
	// session has changed since. Applying it may still work: messages
	// appended since follow the summary, as Commit says.
	Version   int64     `json:"version"`
	CreatedAt time.Time `json:"created_at"`
	ExpiresAt time.Time `json:"expires_at"`
	Stale     bool      `json:"stale"`
	// Compacted counts the messages the summary replaces (Plan.Counts'
	// Replaced); First and Last are their 1-based numbers in the session
	// the compaction read, as a dry run gives them.
	Compacted int `json:"compacted_messages"`
	First     int `json:"first"`
	Last      int `json:"last"`
	// Gateway marks the gateway's precomputed summary (docs/gateway.md,
	// "Precompute"): no person's to review, the gateway applies it by
	// itself when the session reaches the trigger.
	Gateway bool `json:"gateway,omitempty"`
}

// Previews describes the open previews of session id, the newest first.
func (s *Sessions) Previews(ctx context.Context, id string) ([]OpenPreview, error) {
	version, err := s.version(ctx, id)
	if err != nil {
		return nil, err
	}
	now := s.now()
	list, err := s.store.ListPreviews(ctx, id, now)
	if err != nil {
		return nil, err
	}
	precomputed := s.precomputedPreview(ctx, id)
	out := make([]OpenPreview, 0, len(list))
	for _, info := range list {
		c, err := s.previewCountsOf(ctx, id, info, now)
		if kompact.ErrorCodeOf(err) == kompact.ENotFound {
			continue // applied, discarded or dropped since the listing
		}
		if err != nil {
			return nil, err
		}
		out = append(out, OpenPreview{
			ID: info.ID, Version: info.Version, CreatedAt: info.CreatedAt(), ExpiresAt: info.ExpiresAt,
			Stale: info.Version != version, Compacted: c.Replaced, First: c.First(), Last: c.Last(),
			Gateway: precomputed != "" && info.ID == precomputed,
		})
	}
	return out, nil
}

// previewCountsOf returns the counts of the listed preview info: the store's
// (PreviewInfo.Counts), or, for a preview kept before stores kept them, its
// body's.
func (s *Sessions) previewCountsOf(ctx context.Context, id string, info kompact.PreviewInfo, now time.Time) (kompact.PlanCounts, error) {
	if info.Counts != (kompact.PlanCounts{}) {
		return info.Counts, nil
	}
	p, err := s.store.GetPreview(ctx, id, info.ID, now)
	if err != nil {
		return kompact.PlanCounts{}, err
	}
	return previewCounts(p.Body)
}

// Preview returns preview pid of session id, as the action answered when
// it kept it: status preview, with its preview id. The preview stays kept.
func (s *Sessions) Preview(ctx context.Context, id, pid string) (kompact.Outcome, error) {
	p, err := s.store.GetPreview(ctx, id, pid, s.now())
	if err != nil {
		return kompact.Outcome{}, err
	}
	out, err := DecodePreview(p.Body)
	if err != nil {
		return kompact.Outcome{}, err
	}
	out.Status, out.PreviewID = kompact.OutcomePreview, pid
	return out, nil
}

// errStopRead ends a StreamSession after its head.
var errStopRead = errors.New("stop after the head")

// version reads the current version of session id without its messages.
func (s *Sessions) version(ctx context.Context, id string) (int64, error) {
	var v int64
	err := s.store.StreamSession(ctx, id, func(h *kompact.StoredSession) error {
		v = h.Version
		return errStopRead
	}, func([]byte) error { return nil })
	if err != nil && !errors.Is(err, errStopRead) {
		return 0, err
	}
	return v, nil
}

// paused says whether automatic compaction of session id is paused now
// (false when the session cannot be read: the commit will say why).
func (s *Sessions) paused(ctx context.Context, id string) bool {
	head, err := s.store.GetSessionHead(ctx, id)
	return err == nil && head.Breaker.Paused()
}

// typeChangedError is the EConflict of preview pid, made by r.Type, applied
// when the agent compacts with another type (its compaction.type changed
// since): the other type would rebuild the session around a range it does
// not make.
func typeChangedError(pid string, r *kompact.Result, now string) *kompact.Error {
	return kompact.Errorf(kompact.EConflict, "preview %s was made by the %s compaction type, but agent %s now compacts with %s; it was not applied and the session is unchanged", pid, r.Type, r.Session.Agent, now).
		WithFixes(`Run the compaction again with "preview": true, to preview it with the agent's type now.`)
}

// CheckPreview is the error of a preview of the job that the budget
// (SessionsConfig.Previews) could not keep, known before the job takes a
// slot or calls the LLM: the messages after its range, which a preview
// holds, pass the budget alone. Nil when it may fit.
func (j *SessionJob) CheckPreview() error {
	info := j.Job.Plan.About()
	if info.Noop || info.Span.Session == nil {
		return nil
	}
	p := info.Span
	if size := int64(messagesSize(p.Session.Messages[p.End:])); size > j.s.previews.MaxBytes {
		return kompact.Errorf(kompact.ETooLarge, "the preview would hold %d bytes or more (the messages after the compacted range), more than the %d bytes all previews may hold together", size, j.s.previews.MaxBytes).
			WithFixes(`Run the action without "preview", or raise the budget with kompact serve --max-preview-bytes.`)
	}
	return nil
}
