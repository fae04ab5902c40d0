package httpapi

// This file lists and reopens a session's open previews; applying and
// discarding one are actions.go's. The workflow is service.Sessions'
// (service/sessions_preview.go).

import (
	"net/http"

	"kompact/service"
)

// listPreviews answers a session's open previews, the newest first.
func (s *Server) listPreviews(w http.ResponseWriter, r *http.Request) error {
	list, err := s.sessions.Previews(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	if list == nil {
		list = []service.OpenPreview{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"previews": list})
	return nil
}

// getPreview answers an open preview as the action answered it when it
// kept it.
func (s *Server) getPreview(w http.ResponseWriter, r *http.Request) error {
	out, err := s.sessions.Preview(r.Context(), r.PathValue("id"), r.PathValue("preview"))
	if err != nil {
		return err
	}
	s.writeOutcome(w, r, out)
	return nil
}
