package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"

	"kompact"
)

// Previews live in the store (kompact.Store.PutPreview), for
// kompact.PreviewTTL, within Config.Previews (all previews together, the
// ones that expire first go first), so any instance over the same store can
// apply one and a restart keeps them. Each can be applied once.

// preview is a compaction that ran but was not committed, as a store
// returned it: its compacted outcome, and the session's version when the
// compaction read it.
type preview struct {
	id      string
	version int64
	outcome kompact.Outcome
	stored  *kompact.Preview
}

// putPreview keeps a compacted outcome of session id, read at version, as
// a preview, and returns its new id. The stored body holds every byte the
// preview needs (the messages it read, tool-call arguments and data parts
// included): the byte budget counts the body.
func (s *Server) putPreview(ctx context.Context, id string, version int64, out kompact.Outcome) (string, error) {
	body, err := kompact.EncodePreview(out)
	if err != nil {
		return "", err
	}
	if int64(len(body)) > s.previewLimits.MaxBytes {
		return "", kompact.Errorf(ETooLarge, "the preview holds %d bytes, more than the %d bytes all previews may hold together", len(body), s.previewLimits.MaxBytes).
			WithFixes(`Run the action without "preview", or raise the budget with kompact serve --max-preview-bytes.`)
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	now := s.now()
	p := &kompact.Preview{ID: "pv_" + hex.EncodeToString(b[:]), SessionID: id, Version: version, Body: body, ExpiresAt: now.Add(kompact.PreviewTTL)}
	if err := s.cfg.Store.PutPreview(context.WithoutCancel(ctx), p, now, s.previewLimits); err != nil {
		return "", err
	}
	return p.ID, nil
}

// takePreview removes preview pid of session id from the store and returns
// it decoded.
func (s *Server) takePreview(ctx context.Context, id, pid string) (*preview, error) {
	p, err := s.cfg.Store.TakePreview(ctx, id, pid, s.now())
	if err != nil {
		return nil, err
	}
	out, err := kompact.DecodePreview(p.Body)
	if err != nil {
		return nil, err
	}
	return &preview{id: p.ID, version: p.Version, outcome: out, stored: p}, nil
}

// putBack keeps a preview that could not be applied, until its expiry.
func (s *Server) putBack(ctx context.Context, pv *preview) {
	err := s.cfg.Store.PutPreview(context.WithoutCancel(ctx), pv.stored, s.now(), s.previewLimits)
	if err != nil && kompact.ErrorCodeOf(err) != kompact.ENotFound {
		s.log.WarnContext(ctx, "keep a preview that was not applied", "preview", pv.id, "error", err.Error())
	}
}
