package httpapi

// This file is the context window of a session over HTTP: the context route,
// and what append and continue answers show of automatic compaction. The
// workflow is service.Sessions' (service/sessions_auto.go).

import (
	"context"
	"net/http"

	"kompact/service"
)

func (s *Server) getContext(w http.ResponseWriter, r *http.Request) error {
	c, err := s.sessions.Context(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, c)
	return nil
}

// writeAppended answers an append or a continue with status and rep, the
// error of its automatic compaction as a client may see it.
func (s *Server) writeAppended(w http.ResponseWriter, r *http.Request, status int, rep *service.AppendReport) {
	if auto := rep.AutoCompaction; auto != nil && auto.Error != nil {
		auto.Error = s.publicError(r, auto.Error)
	}
	writeJSON(w, status, rep)
}

// logAutoCompaction returns what logs the report of an automatic
// compaction that request r started in the background; an internal error
// is logged in full, as r's.
func (s *Server) logAutoCompaction(r *http.Request) func(service.AutoCompactionReport) {
	id, bg := r.PathValue("id"), r.Clone(context.WithoutCancel(r.Context()))
	return func(rep service.AutoCompactionReport) {
		attrs := []any{"session", id, "status", string(rep.Status), "revision", rep.Revision, "tokens_before", rep.TokensBefore, "tokens_after", rep.TokensAfter}
		if rep.Error != nil {
			attrs = append(attrs, "code", string(s.publicError(bg, rep.Error).Code))
		}
		s.log.Info("automatic compaction", attrs...)
	}
}
