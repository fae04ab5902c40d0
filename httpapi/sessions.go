package httpapi

import (
	"cmp"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"

	"kompact"
)

// agent returns the agent called name (the default agent for ""). An
// unknown agent is an invalid request: the session or the body names an
// agent this server's configuration lacks.
func (s *Server) agent(name string) (*kompact.Agent, error) {
	a, err := s.agents.Agent(name)
	if err != nil {
		var e *kompact.Error
		if errors.As(err, &e) && e.Code == kompact.ENotFound {
			return nil, &kompact.Error{Code: kompact.EInvalid, Message: e.Message, Fixes: e.Fixes, Err: e.Err}
		}
		return nil, err
	}
	return a, nil
}

// checkIDs rejects duplicate message ids.
func checkIDs(msgs []kompact.Message) error {
	seen := make(map[string]int, len(msgs))
	for i := range msgs {
		id := msgs[i].ID
		if id == "" {
			continue
		}
		if j, dup := seen[id]; dup {
			return kompact.Errorf(kompact.EInvalid, "messages[%d].id: %q is already the id of messages[%d]", i, id, j).
				WithFixes("Give every message a unique id, or none (the server assigns one).")
		}
		seen[id] = i
	}
	return nil
}

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	list, err := s.cfg.Store.ListSessions(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if list == nil {
		list = []kompact.SessionInfo{}
	}
	// Newest first: the most recently updated, then the most recently
	// created.
	slices.SortStableFunc(list, func(a, b kompact.SessionInfo) int {
		if c := b.UpdatedAt.Compare(a.UpdatedAt); c != 0 {
			return c
		}
		return b.CreatedAt.Compare(a.CreatedAt)
	})
	writeJSON(w, http.StatusOK, map[string]any{"sessions": list})
}

type createRequest struct {
	ID              string            `json:"id"`
	Agent           string            `json:"agent"`
	CompactionModel string            `json:"compaction_model"`
	Messages        []json.RawMessage `json:"messages"`
}

func (s *Server) createSession(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if err := s.decodeBody(w, r, &req, true); err != nil {
		s.writeError(w, r, err)
		return
	}
	msgs, err := decodeMessages(req.Messages, "messages")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.create(w, r, &kompact.Session{ID: req.ID, Agent: req.Agent, CompactionModel: req.CompactionModel, Messages: msgs})
}

func (s *Server) importSession(w http.ResponseWriter, r *http.Request) {
	data, err := s.readBody(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	sess, err := kompact.DecodeSession(data)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.create(w, r, sess)
}

// create stores a new session after checking its agent and message ids.
func (s *Server) create(w http.ResponseWriter, r *http.Request, sess *kompact.Session) {
	a, err := s.agent(sess.Agent)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	sess.Agent = a.Name
	if err := checkIDs(sess.Messages); err != nil {
		s.writeError(w, r, err)
		return
	}
	stored, err := s.cfg.Store.CreateSession(r.Context(), sess)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Location", "/v1/sessions/"+stored.ID)
	writeRaw(w, http.StatusCreated, appendStored(nil, stored))
}

func (s *Server) getSession(w http.ResponseWriter, r *http.Request) {
	stored, err := s.cfg.Store.GetSession(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeRaw(w, http.StatusOK, appendStored(nil, stored))
}

func (s *Server) deleteSession(w http.ResponseWriter, r *http.Request) {
	if err := s.cfg.Store.DeleteSession(r.Context(), r.PathValue("id")); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

type appendRequest struct {
	Message  json.RawMessage   `json:"message"`
	Messages []json.RawMessage `json:"messages"`
}

// appendResponse is the answer to an append or a continue: the session's
// version after it and the messages added, with their ids.
type appendResponse struct {
	Version  int64             `json:"version"`
	Messages []kompact.Message `json:"messages"`
}

func (s *Server) appendMessages(w http.ResponseWriter, r *http.Request) {
	var req appendRequest
	if err := s.decodeBody(w, r, &req, false); err != nil {
		s.writeError(w, r, err)
		return
	}
	one := len(req.Message) > 0 && string(req.Message) != "null"
	var msgs []kompact.Message
	switch {
	case one && req.Messages != nil:
		s.writeError(w, r, kompact.Errorf(kompact.EInvalid, `the body has both "message" and "messages"`).
			WithFixes(`Send {"message": {...}} for one message or {"messages": [...]} for several.`))
		return
	case one:
		m, err := decodeMessages([]json.RawMessage{req.Message}, "message")
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		msgs = m
	default:
		m, err := decodeMessages(req.Messages, "messages")
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		msgs = m
	}
	if len(msgs) == 0 {
		s.writeError(w, r, kompact.Errorf(kompact.EInvalid, "no message to append").
			WithFixes(`Send {"message": {"role": "user", "content": "..."}} or {"messages": [...]}.`))
		return
	}
	if err := checkIDs(msgs); err != nil {
		s.writeError(w, r, err)
		return
	}
	added, err := s.cfg.Store.AppendMessages(r.Context(), r.PathValue("id"), msgs)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, appendResponse{Version: added.Version, Messages: added.Messages})
}

type settingsRequest struct {
	CompactionModel *string `json:"compaction_model"`
}

func (s *Server) updateSettings(w http.ResponseWriter, r *http.Request) {
	var req settingsRequest
	if err := s.decodeBody(w, r, &req, false); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.CompactionModel == nil {
		s.writeError(w, r, kompact.Errorf(kompact.EInvalid, `the body has no "compaction_model"`).
			WithFixes(`Send {"compaction_model": "model-name"}, or {"compaction_model": ""} to use the agent's model again.`))
		return
	}
	if _, err := s.cfg.Store.SetCompactionModel(r.Context(), r.PathValue("id"), *req.CompactionModel); err != nil {
		s.writeError(w, r, err)
		return
	}
	// The response is the session, read after the write (a later write
	// may show in it too).
	stored, err := s.cfg.Store.GetSession(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeRaw(w, http.StatusOK, appendStored(nil, stored))
}

type continueRequest struct {
	Content *string `json:"content"`
}

// continueSession appends the user's message, sends the agent's system
// prompt and the whole session to the agent's LLM, and appends the reply.
// When the LLM fails, the user message stays appended.
func (s *Server) continueSession(w http.ResponseWriter, r *http.Request) {
	var req continueRequest
	if err := s.decodeBody(w, r, &req, false); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Content == nil || *req.Content == "" {
		s.writeError(w, r, kompact.Errorf(kompact.EInvalid, `the body has no "content"`).
			WithFixes(`Send {"content": "your message"}.`))
		return
	}
	ctx := r.Context()
	id := r.PathValue("id")
	cur, err := s.cfg.Store.GetSession(ctx, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.agent(cur.Agent)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if s.cfg.LLM == nil {
		s.writeError(w, r, kompact.Errorf(kompact.EInternal, "no LLM client configured"))
		return
	}
	user := kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(*req.Content)}}
	added, err := s.cfg.Store.AppendMessages(ctx, id, []kompact.Message{user})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	user = added.Messages[0]
	after, err := s.cfg.Store.GetSession(ctx, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}

	msgs := make([]kompact.Message, 0, len(after.Messages)+1)
	if a.SystemPrompt != "" {
		msgs = append(msgs, kompact.Message{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart(a.SystemPrompt)}})
	}
	msgs = append(msgs, after.Messages...)
	rc := kompact.RequestConfig{BaseURL: a.LLM.BaseURL, APIKeyEnv: a.LLM.APIKeyEnv, Model: a.LLM.Model, Fields: a.LLM.Settings}
	answer, err := s.cfg.LLM.Complete(ctx, rc, msgs, nil)
	if err == nil {
		err = kompact.CheckAnswer(answer)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	reply := kompact.Message{Role: kompact.RoleAssistant, Content: make([]kompact.Part, 0, len(answer.Parts))}
	for _, p := range answer.Parts {
		if p.Type == kompact.PartText || p.Type == kompact.PartThink {
			reply.Content = append(reply.Content, p)
		}
	}
	final, err := s.cfg.Store.AppendMessages(ctx, id, []kompact.Message{reply})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, appendResponse{Version: final.Version, Messages: []kompact.Message{user, final.Messages[0]}})
}

func (s *Server) globalUIElements(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"ui_elements": kompact.UIElements(nil)})
}

func (s *Server) sessionUIElements(w http.ResponseWriter, r *http.Request) {
	stored, err := s.cfg.Store.GetSession(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.agent(stored.Agent)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ui_elements": kompact.UIElements(a)})
}

type agentInfo struct {
	Name              string `json:"name"`
	Model             string `json:"model"`
	CompactionEnabled bool   `json:"compaction_enabled"`
	Default           bool   `json:"default"`
}

func (s *Server) listAgents(w http.ResponseWriter, r *http.Request) {
	def := ""
	if a, err := s.agents.Agent(""); err == nil {
		def = a.Name
	}
	list := make([]agentInfo, 0, len(s.agents.Agents))
	for _, name := range s.agents.Names() {
		a := s.agents.Agents[name]
		list = append(list, agentInfo{Name: name, Model: a.LLM.Model, CompactionEnabled: a.CompactionEnabled(), Default: name == def})
	}
	writeJSON(w, http.StatusOK, map[string]any{"agents": list})
}

func (s *Server) listRevisions(w http.ResponseWriter, r *http.Request) {
	list, err := s.cfg.Store.ListRevisions(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if list == nil {
		list = []kompact.RevisionInfo{}
	}
	slices.SortStableFunc(list, func(a, b kompact.RevisionInfo) int { return cmp.Compare(b.Rev, a.Rev) })
	writeJSON(w, http.StatusOK, map[string]any{"revisions": list})
}

// revParam parses the {rev} path value.
func revParam(r *http.Request) (int64, error) {
	s := r.PathValue("rev")
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return 0, kompact.Errorf(kompact.EInvalid, "revision %q is not a revision number", s).
			WithFixes("Revisions are numbered from 1; list them with GET /v1/sessions/{id}/revisions.")
	}
	return n, nil
}

func (s *Server) getRevision(w http.ResponseWriter, r *http.Request) {
	rev, err := revParam(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out, err := s.cfg.Store.GetRevision(r.Context(), r.PathValue("id"), rev)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if out.Before == nil {
		out.Before = []kompact.Message{}
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) restoreRevision(w http.ResponseWriter, r *http.Request) {
	rev, err := revParam(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	stored, info, err := s.cfg.Store.RestoreRevision(r.Context(), r.PathValue("id"), rev)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"session": storedJSON{stored}, "revision": info})
}
