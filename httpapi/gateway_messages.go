package httpapi

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"kompact"
	"kompact/anthropic"
	"kompact/service"
)

// This file is the gateway's Messages face (docs/gateway.md, "Claude
// Code"): Anthropic's Messages API at /gateway/{agent}/v1/messages, for
// agents whose llm.api is anthropic. The client's body and headers go
// upstream as they came and the answer comes back as it came; the
// conversation is kept as a gateway session, which kompact never rewrites
// on the way (the client compacts on its own side).

// HeaderClaudeCodeSession is the header in which Claude Code names its
// session; the gateway session of such a conversation has that id.
const HeaderClaudeCodeSession = "X-Claude-Code-Session-Id"

// isMessagesPath reports whether path is one of the Messages face's,
// whose errors are answered in Anthropic's form.
func isMessagesPath(path string) bool {
	return isGatewayPath(path) && (strings.HasSuffix(path, "/v1/messages") || strings.HasSuffix(path, "/v1/messages/count_tokens"))
}

// messagesUpstream is the configured Messages upstream, or the default
// anthropic.Upstream.
func (s *Server) messagesUpstream() Upstream {
	if s.cfg.Messages != nil {
		return s.cfg.Messages
	}
	return &anthropic.Upstream{}
}

// gatewayMessages forwards one Messages request, keeping its conversation
// as a session.
func (s *Server) gatewayMessages(w http.ResponseWriter, r *http.Request) error {
	start := time.Now()
	a, forward, err := s.messagesAgent(r)
	if err != nil {
		return err
	}
	naming, err := messagesNaming(r, a)
	if err != nil {
		return err
	}
	body, err := s.readRawBody(w, r)
	if err != nil {
		return err
	}
	req, err := parseBounded(s, body, anthropic.ParseRequestBounded)
	if err != nil {
		return err
	}
	var turn *service.GatewayTurn
	if req.IsCompaction(r.Header.Get("User-Agent")) && req.Len() > 1 {
		// Claude Code's own compaction request: the history before its
		// instruction is stored when it continues the session (it may end
		// with an answer the session has not seen; Claude Code may also
		// have reshaped it), the instruction never; then it is answered
		// from a ready summary, or forwarded.
		history := req.CompactionHistory()
		head := naming
		head.Continue = true
		turn = s.sessions.GatewayTurnWith(r.Context(), a, head, history)
		if sum := s.sessions.GatewayAnswerCompaction(r.Context(), a, naming, history, claudeCodeAsk(a, req, history)); sum != nil {
			return s.answerCompaction(w, r, req, sum)
		}
	} else {
		turn = s.sessions.GatewayTurnWith(r.Context(), a, naming, req)
	}
	s.metrics.gateway.turn(turn, 0, time.Since(start))
	resp, err := s.messagesUpstream().Send(r.Context(), a.LLM, "messages", r.URL.RawQuery, r.Header, body, forward)
	if err != nil {
		if turn.Stored {
			w.Header().Set(HeaderSession, turn.SessionID)
		}
		return upstreamFailed(err)
	}
	defer resp.Body.Close()
	usage, err := s.relayUpstream(w, r, resp, relayFace{messages: true}, turnHeaders(turn))
	if err == nil || errors.Is(err, errRelayCut) {
		s.metrics.gateway.forwarded(resp.StatusCode)
	}
	s.sessions.GatewayUsage(r.Context(), turn, usage)
	return err
}

// claudeCodeAsk is what Claude Code's compaction request req, whose
// history is history, asks of the gateway: the user's instructions
// (/compact TEXT), a person's /compact told from Claude Code's own by the
// session's size, and the files Claude Code re-attaches by itself after
// the summary.
func claudeCodeAsk(a *kompact.Agent, req, history *anthropic.Request) service.GatewayAsk {
	omit := history.RestatedResults()
	return service.GatewayAsk{Wait: a.Gateway.Compaction == "wait", Instructions: req.CompactionInstructions(),
		AutoAt: anthropic.ClaudeCodeCompactsAt, Restated: anthropic.ClaudeCodeRestates, Omit: func(i int) bool { return omit[i] }}
}

// summaryTags turns the tags Claude Code reads in a compaction answer into
// plain brackets inside the answer's own <summary>, so that a summary
// that holds such tags itself is kept whole.
var summaryTags = strings.NewReplacer("<summary>", "[summary]", "</summary>", "[/summary]", "<analysis>", "[analysis]", "</analysis>", "[/analysis]")

// answerCompaction answers a compaction request from the summary sum
// committed for it, in the Messages format (streamed when the request
// streams): one text block, the summary, then the client's recent
// messages that the summary does not cover, in <summary> tags (Claude
// Code 2.1.332 keeps what they hold; an answer without them it asks for
// again); usage reporting the compacted context, so that the client does
// not compact again at once.
func (s *Server) answerCompaction(w http.ResponseWriter, r *http.Request, req *anthropic.Request, sum *service.GatewaySummary) error {
	text := sum.Summary
	if sum.Recent != "" {
		text += "\n\nThe most recent messages, which the summary above does not cover:\n\n" + sum.Recent
	}
	text = "<summary>\n" + summaryTags.Replace(text) + "\n</summary>"
	ans := &anthropic.Answer{ID: "msg_kompact_" + sum.SessionID + "_" + strconv.FormatInt(sum.Revision, 10), Model: req.Model, Text: text,
		InputTokens: sum.Tokens, OutputTokens: max(len(text)/4, 1)}
	h := w.Header()
	h.Set(HeaderSession, sum.SessionID)
	h.Set(HeaderForwarded, "answered")
	s.metrics.gateway.forwarded(http.StatusOK)
	if !req.Stream {
		writeRaw(w, http.StatusOK, ans.JSON())
		return nil
	}
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	if err := ans.Stream(w, func() { _ = rc.Flush() }); err != nil {
		return errRelayCut
	}
	return nil
}

// gatewayCountTokens forwards a count_tokens request as it came: Claude
// Code's window accounting stays its own.
func (s *Server) gatewayCountTokens(w http.ResponseWriter, r *http.Request) error {
	a, forward, err := s.messagesAgent(r)
	if err != nil {
		return err
	}
	body, err := s.readRawBody(w, r)
	if err != nil {
		return err
	}
	resp, err := s.messagesUpstream().Send(r.Context(), a.LLM, "messages/count_tokens", r.URL.RawQuery, r.Header, body, forward)
	if err != nil {
		return upstreamFailed(err)
	}
	defer resp.Body.Close()
	_, err = s.relayUpstream(w, r, resp, relayFace{messages: true}, nil)
	if err == nil || errors.Is(err, errRelayCut) {
		s.metrics.gateway.forwarded(resp.StatusCode)
	}
	return err
}

// messagesAgent returns the agent of a Messages request and whether the
// client's own credentials go upstream (gateway.forward_authorization):
// then the request must carry a key of its own, x-api-key or
// Authorization, that is not the server's token (401 otherwise: the
// agent's key is not spent instead). Every value of the two headers is
// checked, since every value goes upstream: a request that repeats one
// of them with the server's token in a later value is refused too.
func (s *Server) messagesAgent(r *http.Request) (*kompact.Agent, bool, error) {
	a, err := s.gatewayAgent(r)
	if err != nil || !a.Gateway.ForwardAuthorization {
		return a, false, err
	}
	own, carries := false, false
	for _, v := range append(r.Header.Values("X-Api-Key"), r.Header.Values("Authorization")...) {
		own = own || strings.TrimSpace(v) != ""
		carries = carries || (v != "" && s.carriesToken(v))
	}
	if !own || carries {
		return nil, false, kompact.Errorf(EUnauthorized, "the agent %q sends the client's own key upstream (gateway.forward_authorization), and this request has none", a.Name).
			WithFixes("Send your own API key for the upstream as the client's key (x-api-key, ANTHROPIC_API_KEY).",
				"On a server with a token, send the server's token in the header X-Kompact-Token, never as the API key.")
	}
	return a, true, nil
}

// messagesNaming says how a Messages request for agent a names its
// conversation: X-Kompact-Session as on the chat face; else Claude Code's
// session id (the conversation's key with the agent's name,
// "claude-code:AGENT:ID", and its first session's id; sessions stored
// under "claude-code:ID" before the key named the agent are found there
// too, for this agent only); else ConversationKey (the agent, the
// request's "system" and its first user message). The gateway only stores
// it (StoreOnly).
func messagesNaming(r *http.Request, a *kompact.Agent) (service.GatewayNaming, error) {
	n := service.GatewayNaming{SessionID: r.Header.Get(HeaderSession), StoreOnly: true}
	if err := checkSessionHeader(n.SessionID); err != nil {
		return n, err
	}
	if cc := r.Header.Get(HeaderClaudeCodeSession); n.SessionID == "" && cc != "" {
		n.Key, n.LegacyKey, n.NewID = "claude-code:"+a.Name+":"+cc, "claude-code:"+cc, cc
	}
	return n, nil
}

// messagesErrorBody is Anthropic's error form, with kompact's code and
// fixes in the error object.
type messagesErrorBody struct {
	Type  string        `json:"type"`
	Error messagesError `json:"error"`
}

type messagesError struct {
	Type    string   `json:"type"`
	Message string   `json:"message"`
	Code    string   `json:"code"`
	Fixes   []string `json:"fixes"`
}

// messagesErrorType is Anthropic's error type of an HTTP status.
func messagesErrorType(status int) string {
	switch status {
	case http.StatusBadRequest, http.StatusUnsupportedMediaType, http.StatusConflict:
		return "invalid_request_error"
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusForbidden:
		return "permission_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusRequestEntityTooLarge:
		return "request_too_large"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case http.StatusServiceUnavailable:
		return "overloaded_error"
	}
	return "api_error"
}

// messagesErrorOf is e in Anthropic's error form.
func messagesErrorOf(e *kompact.Error, status int) messagesErrorBody {
	return messagesErrorBody{Type: "error", Error: messagesError{
		Type: messagesErrorType(status), Message: e.Message, Code: string(e.Code), Fixes: e.Fixes,
	}}
}
