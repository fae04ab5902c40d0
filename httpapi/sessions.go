package httpapi

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"

	"kompact"
	"kompact/internal/jsontext"
	"kompact/internal/title"
	"kompact/service"
	"kompact/sessionjson"
)

// agent returns the agent called name (the default agent for ""); an
// unknown one is EInvalid (service.Sessions.Agent).
func (s *Server) agent(name string) (*kompact.Agent, error) { return s.sessions.Agent(name) }

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) error {
	f, err := sessionFilter(r)
	if err != nil {
		return err
	}
	list, err := s.sessions.ListWith(r.Context(), f)
	if err != nil {
		return err
	}
	if list == nil {
		list = []service.ListedSession{}
	}
	if q := r.URL.Query().Get("q"); q != "" {
		list = slices.DeleteFunc(list, func(i service.ListedSession) bool { return !title.MatchesQuery(i.ID, i.Title, q) })
	}
	// Newest first: the most recently updated, then the most recently
	// created.
	slices.SortStableFunc(list, func(a, b service.ListedSession) int {
		if c := b.UpdatedAt.Compare(a.UpdatedAt); c != 0 {
			return c
		}
		return b.CreatedAt.Compare(a.CreatedAt)
	})
	writeJSON(w, http.StatusOK, map[string]any{"sessions": list})
	return nil
}

// sessionFilter is the list's filter a GET /v1/sessions asks for: the
// gateway's side calls too with side_calls=true.
func sessionFilter(r *http.Request) (kompact.SessionFilter, error) {
	v := r.URL.Query().Get("side_calls")
	if v == "" {
		return kompact.SessionFilter{}, nil
	}
	side, err := strconv.ParseBool(v)
	if err != nil {
		return kompact.SessionFilter{}, kompact.Errorf(kompact.EInvalid, "the query's side_calls is %q, not true or false", v).
			WithFixes("Give side_calls=true to list the gateway's side calls too, or leave it out.")
	}
	return kompact.SessionFilter{SideCalls: side}, nil
}

type createRequest struct {
	ID              string      `json:"id"`
	Agent           string      `json:"agent"`
	CompactionModel string      `json:"compaction_model"`
	Messages        messageList `json:"messages"`
}

func (s *Server) createSession(w http.ResponseWriter, r *http.Request) error {
	req := createRequest{Messages: messageList{g: s.guard}}
	if err := s.decodeBody(w, r, &req, true); err != nil {
		return err
	}
	msgs, err := decodeMessages(req.Messages.raws, "messages")
	if err != nil {
		return err
	}
	return s.create(w, r, &kompact.Session{ID: req.ID, Agent: req.Agent, CompactionModel: req.CompactionModel, Messages: msgs})
}

func (s *Server) importSession(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	if streamedImport(q) {
		return s.importStream(w, r, q)
	}
	data, err := s.readRawBody(w, r)
	if err != nil {
		return err
	}
	sess, err := s.importedSession(w, r, q.Get("format"), data)
	if err != nil {
		return err
	}
	if err := s.guard.checkMessages(len(sess.Messages)); err != nil {
		return err
	}
	if id := q.Get("id"); id != "" {
		sess.ID = id
	}
	if agent := q.Get("agent"); agent != "" {
		sess.Agent = agent
	}
	return s.create(w, r, sess)
}

// importedSession decodes an import's body in the given format. A session
// document is checked for UTF-8 as it is decoded, not in a pass of its own
// first (readBody's).
func (s *Server) importedSession(w http.ResponseWriter, r *http.Request, format string, data []byte) (*kompact.Session, error) {
	switch format {
	case "", "session":
		sess, valid, err := sessionjson.DecodeSessionUTF8(data)
		if !valid {
			at := jsontext.FirstBadUTF8(data)
			return nil, invalidUTF8At(int64(at), sessionjson.MessageAt(bytes.NewReader(data), int64(at)))
		}
		return sess, err
	case "kimi":
		if err := checkLinesUTF8(data); err != nil {
			return nil, err
		}
		return s.kimiSession(w, data)
	case "kimi-code":
		if err := checkLinesUTF8(data); err != nil {
			return nil, err
		}
		return s.kimiCodeSession(r.Context(), data)
	}
	return nil, kompact.Errorf(kompact.EInvalid, "unknown import format %q", format).
		WithFixes(`Use format=session (a session document), format=kimi (a kimi-cli context.jsonl) or format=kimi-code (a Kimi Code wire.jsonl).`)
}

// kimiCodeSession reads a Kimi Code wire.jsonl as the CLI's import
// --kimi-code does (Config.KimiCodeWire), stopping at
// --max-request-messages and when the request is done.
func (s *Server) kimiCodeSession(ctx context.Context, data []byte) (*kompact.Session, error) {
	if s.cfg.KimiCodeWire == nil {
		return nil, kompact.Errorf(kompact.EInvalid, "this server does not read Kimi Code files").
			WithFixes("Import a session document, without format=kimi-code.")
	}
	sess, err := s.cfg.KimiCodeWire(ctx, data, s.guard.maxMessages)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if kompact.ErrorCodeOf(err) == ETooLarge {
		return nil, err
	}
	if err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "the file is not a Kimi Code wire.jsonl kompact can read: %v", err).
			WithFixes("Send a Kimi Code session's agents/main/wire.jsonl with format=kimi-code, or a session document without it.")
	}
	return sess, nil
}

// kimiSession reads a kimi-cli context.jsonl as the CLI's import --kimi
// does (Config.KimiContext); the number of lines it could not read is in
// the Kompact-Skipped-Lines header.
func (s *Server) kimiSession(w http.ResponseWriter, data []byte) (*kompact.Session, error) {
	if s.cfg.KimiContext == nil {
		return nil, kompact.Errorf(kompact.EInvalid, "this server does not read kimi-cli files").
			WithFixes("Import a session document, without format=kimi.")
	}
	sess, skipped := s.cfg.KimiContext(data)
	if sess == nil {
		msg := "the file has no kimi-cli context record"
		if len(skipped) > 0 {
			msg += " (" + skipped[0] + ")"
		}
		return nil, kompact.Errorf(kompact.EInvalid, "%s", msg).WithFixes("Import a kimi-cli context.jsonl, or a session document without format=kimi.")
	}
	if n := len(skipped); n > 0 {
		w.Header().Set("Kompact-Skipped-Lines", strconv.Itoa(n))
	}
	return sess, nil
}

// create stores a new session after checking its agent and message ids
// (Sessions.Create). Its text is valid UTF-8 already: it comes from a
// request body checked for it (readBody, DecodeSessionUTF8).
func (s *Server) create(w http.ResponseWriter, r *http.Request, sess *kompact.Session) error {
	stored, err := s.sessions.Create(r.Context(), sess)
	if err != nil {
		return err
	}
	w.Header().Set("Location", sessionLocation(stored.ID))
	// The answer is the session read back as it is stored, streamed (a
	// later write may show in it too).
	return s.streamStored(w, r, stored.ID, http.StatusCreated, nil)
}

func (s *Server) getSession(w http.ResponseWriter, r *http.Request) error {
	return s.streamSession(w, r, r.PathValue("id"))
}

func (s *Server) deleteSession(w http.ResponseWriter, r *http.Request) error {
	if err := s.sessions.Delete(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

type appendRequest struct {
	Message  json.RawMessage `json:"message"`
	Messages messageList     `json:"messages"`
}

func (s *Server) appendMessages(w http.ResponseWriter, r *http.Request) error {
	req := appendRequest{Messages: messageList{g: s.guard}}
	if err := s.decodeBody(w, r, &req, false); err != nil {
		return err
	}
	one := len(req.Message) > 0 && string(req.Message) != "null"
	var msgs []kompact.Message
	switch {
	case one && req.Messages.raws != nil:
		return kompact.Errorf(kompact.EInvalid, `the body has both "message" and "messages"`).
			WithFixes(`Send {"message": {...}} for one message or {"messages": [...]} for several.`)
	case one:
		m, err := decodeMessages([]json.RawMessage{req.Message}, "message")
		if err != nil {
			return err
		}
		msgs = m
	default:
		m, err := decodeMessages(req.Messages.raws, "messages")
		if err != nil {
			return err
		}
		msgs = m
	}
	if len(msgs) == 0 {
		return kompact.Errorf(kompact.EInvalid, "no message to append").
			WithFixes(`Send {"message": {"role": "user", "content": "..."}} or {"messages": [...]}.`)
	}
	opts := service.AppendOptions{}
	if want, _ := strconv.ParseBool(r.URL.Query().Get("auto_compact")); want {
		opts = service.AppendOptions{AutoCompact: true, Done: s.logAutoCompaction(r)}
	}
	rep, err := s.sessions.Append(r.Context(), r.PathValue("id"), msgs, opts)
	if err != nil {
		return err
	}
	s.writeAppended(w, r, http.StatusCreated, rep)
	return nil
}

type settingsRequest struct {
	CompactionModel *string `json:"compaction_model"`
	Title           *string `json:"title"`
	// TokenCount is a provider's token figure for the session (its last
	// usage total), recorded as kimi-cli's update_token_count does.
	TokenCount *int `json:"token_count"`
	// Instructions are the session's standing compaction instructions
	// ("" clears them).
	Instructions *string `json:"instructions"`
	// Pinned replaces the session's pinned message ids ([] unpins all).
	Pinned *[]string `json:"pinned"`
}

func (s *Server) updateSettings(w http.ResponseWriter, r *http.Request) error {
	var req settingsRequest
	if err := s.decodeBody(w, r, &req, false); err != nil {
		return err
	}
	set := kompact.SessionSettings{CompactionModel: req.CompactionModel, Title: req.Title, TokenCount: req.TokenCount, Instructions: req.Instructions, Pinned: req.Pinned}
	if set.Empty() {
		return kompact.Errorf(kompact.EInvalid, `the body has none of "compaction_model", "title", "token_count", "instructions" and "pinned"`).
			WithFixes(`Send {"compaction_model": "model-name"}, or {"compaction_model": ""} to use the agent's model again.`,
				`Send {"title": "a name"} to rename the session, or {"title": ""} for its default title.`,
				`Send {"token_count": N} to record the provider's usage total for the session.`,
				`Send {"instructions": "focus"} to give every compaction of the session a focus, or {"instructions": ""} to drop it.`,
				`Send {"pinned": ["message-id", ...]} to keep those messages verbatim in every compaction, or {"pinned": []} to unpin all.`)
	}
	info, err := s.sessions.UpdateSettings(r.Context(), r.PathValue("id"), set)
	if err != nil {
		return err
	}
	st, err := s.sessions.Context(r.Context(), info.ID)
	if err != nil {
		return err
	}
	// The response is the session, read after the write (a later write
	// may show in it too), with every setting the route takes.
	return s.streamStoredWith(w, r, info.ID, http.StatusOK, nil, func(dst []byte, head *kompact.StoredSession) []byte {
		return appendSettings(dst, head, info.Title, st.TokenCount)
	})
}

// settingsJSON is the "settings" of a settings route's answer: each
// setting PATCH …/settings takes, as the session holds it ("" and [] for
// none).
type settingsJSON struct {
	CompactionModel string   `json:"compaction_model"`
	Title           string   `json:"title"`
	TokenCount      int      `json:"token_count"`
	Instructions    string   `json:"instructions"`
	Pinned          []string `json:"pinned"`
}

// appendSettings appends "settings": the session's settings, from its
// head, its title and its token count.
func appendSettings(dst []byte, head *kompact.StoredSession, title string, tokens int) []byte {
	set := settingsJSON{CompactionModel: head.CompactionModel, Title: title, TokenCount: tokens, Instructions: head.Instructions, Pinned: head.Pinned}
	if set.Pinned == nil {
		set.Pinned = []string{}
	}
	b, _ := json.Marshal(set) // strings and ints: it cannot fail
	return append(append(dst, `"settings":`...), b...)
}

type continueRequest struct {
	Content *string `json:"content"`
	// Retry answers the session's last message, a user message whose
	// reply failed, instead of appending a new one (Sessions.RetryTurn).
	Retry bool `json:"retry"`
}

// continueSession sends a user turn to the session's agent and appends
// its reply (service.Sessions.Continue: automatic compaction before the
// turn, token accounting after it).
func (s *Server) continueSession(w http.ResponseWriter, r *http.Request) error {
	var req continueRequest
	if err := s.decodeBody(w, r, &req, false); err != nil {
		return err
	}
	var rep *service.AppendReport
	var err error
	switch {
	case req.Retry && req.Content != nil:
		return kompact.Errorf(kompact.EInvalid, `"retry" answers the session's last message; it takes no "content"`).
			WithFixes(`Send {"retry": true} to retry the last turn, or {"content": "…"} for a new one.`)
	case req.Retry:
		rep, err = s.sessions.RetryTurn(r.Context(), r.PathValue("id"))
	case req.Content == nil || *req.Content == "":
		return kompact.Errorf(kompact.EInvalid, `the body has no "content"`).
			WithFixes(`Send {"content": "your message"}.`)
	default:
		rep, err = s.sessions.Continue(r.Context(), r.PathValue("id"), *req.Content)
	}
	if err != nil {
		return err
	}
	s.writeAppended(w, r, http.StatusOK, rep)
	return nil
}

// compactionFormat is the answer of GET /v1/compaction: how a compaction
// summary looks, so that clients need not copy it; kimi's form, or with
// ?agent=NAME that agent's compaction type's.
type compactionFormat struct {
	// Type names the compaction type whose form it is.
	Type string `json:"type"`
	// SummaryPrefix opens the summary message, followed by a newline.
	SummaryPrefix string `json:"summary_prefix"`
	// Sections are the XML sections a summary should contain, in order.
	Sections []string `json:"sections"`
	// AppendixSection names the section kompact may append after them
	// (compaction.fidelity.appendix_tokens).
	AppendixSection string `json:"appendix_section"`
}

func (s *Server) compactionFormat(w http.ResponseWriter, r *http.Request) error {
	var a *kompact.Agent
	if name := r.URL.Query().Get("agent"); name != "" {
		var err error
		if a, err = s.agents.Agent(name); err != nil {
			return err
		}
	}
	f := kompact.SummaryFormOf(a)
	writeJSON(w, http.StatusOK, compactionFormat{Type: f.Type, SummaryPrefix: f.Prefix, Sections: f.Sections, AppendixSection: f.Appendix})
	return nil
}

func (s *Server) globalUIElements(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]any{"ui_elements": kompact.UIElements(nil)})
	return nil
}

func (s *Server) sessionUIElements(w http.ResponseWriter, r *http.Request) error {
	_, a, err := s.sessions.OpenHead(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"ui_elements": kompact.UIElements(a)})
	return nil
}

type agentInfo struct {
	Name              string `json:"name"`
	Model             string `json:"model"`
	CompactionEnabled bool   `json:"compaction_enabled"`
	Default           bool   `json:"default"`
}

func (s *Server) listAgents(w http.ResponseWriter, r *http.Request) error {
	def := ""
	if a, err := s.agents.Agent(""); err == nil {
		def = a.Name
	}
	names := s.agents.Names()
	list := make([]agentInfo, 0, len(names))
	for _, name := range names {
		a, err := s.agents.Agent(name)
		if err != nil {
			return err
		}
		list = append(list, agentInfo{Name: name, Model: a.LLM.Model, CompactionEnabled: a.CompactionEnabled(), Default: name == def})
	}
	writeJSON(w, http.StatusOK, map[string]any{"agents": list})
	return nil
}

func (s *Server) listRevisions(w http.ResponseWriter, r *http.Request) error {
	list, err := s.sessions.Revisions(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	if list == nil {
		list = []kompact.RevisionInfo{}
	}
	slices.SortStableFunc(list, func(a, b kompact.RevisionInfo) int { return cmp.Compare(b.Rev, a.Rev) })
	failures, err := s.sessions.AutoFailures(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	if failures == nil {
		failures = []kompact.AutoFailure{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"revisions": list, "failures": failures})
	return nil
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

func (s *Server) getRevision(w http.ResponseWriter, r *http.Request) error {
	rev, err := revParam(r)
	if err != nil {
		return err
	}
	return s.streamRevision(w, r, r.PathValue("id"), rev)
}

func (s *Server) restoreRevision(w http.ResponseWriter, r *http.Request) error {
	return s.revise(w, r, s.sessions.Restore)
}

// undoCompaction undoes a compaction revision, keeping later messages.
func (s *Server) undoCompaction(w http.ResponseWriter, r *http.Request) error {
	return s.revise(w, r, s.sessions.Undo)
}

// revise rewrites the session by the path's revision (a restore, an undo)
// and answers with the revision it recorded and the session after it,
// streamed from the store.
func (s *Server) revise(w http.ResponseWriter, r *http.Request, rewrite func(context.Context, string, int64) (*kompact.RevisionInfo, error)) error {
	rev, err := revParam(r)
	if err != nil {
		return err
	}
	info, err := rewrite(r.Context(), r.PathValue("id"), rev)
	if err != nil {
		return err
	}
	return s.streamRevised(w, r, r.PathValue("id"), info)
}

// restorePreview says what restoring a revision would drop and bring back,
// without changing anything.
func (s *Server) restorePreview(w http.ResponseWriter, r *http.Request) error {
	rev, err := revParam(r)
	if err != nil {
		return err
	}
	p, err := s.sessions.PreviewRestore(r.Context(), r.PathValue("id"), rev)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, p)
	return nil
}
