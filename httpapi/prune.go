package httpapi

import (
	"net/http"

	"kompact"
)

// pruneRequest is the body of POST …/actions/prune_tool_results; both
// fields are optional (the agent's compaction.prune values, else the
// defaults).
type pruneRequest struct {
	KeepRecent *int `json:"keep_recent"`
	MinChars   *int `json:"min_chars"`
}

// runPrune runs prune_tool_results on a stored session
// (service.Sessions.Prune): no LLM call, but it takes one of the action
// slots (busy is its error outcome, with Retry-After) after it checked
// the session's head. An unknown session or a bad body answers with the
// error body; the action's own outcome (pruned, noop, error) with its
// status and the outcome JSON.
func (s *Server) runPrune(w http.ResponseWriter, r *http.Request) error {
	var req pruneRequest
	if err := s.decodeBody(w, r, &req, true); err != nil {
		return err
	}
	out, err := s.sessions.Prune(r.Context(), r.PathValue("id"), kompact.PruneOptions{KeepRecent: req.KeepRecent, MinChars: req.MinChars})
	if err != nil {
		return err
	}
	status := http.StatusOK
	if out.Error != nil {
		out.Error = s.publicError(r, out.Error)
		status = StatusOf(out.Error.Code)
		retryLater(w, out.Error.Code)
	}
	writeJSON(w, status, out)
	return nil
}
