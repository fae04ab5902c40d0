package httpapi

import (
	"errors"
	"io"
	"net/http"
	"strings"

	"kompact"
	"kompact/anthropic"
	"kompact/openai"
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

// anthropicProtocol is the faces' protocol for agents of Anthropic's
// Messages API (llm.api: anthropic).
var anthropicProtocol = &gatewayProtocol{
	api: "anthropic", route: "/v1/messages", apiKey: "X-Api-Key",
	keyFixes: []string{"Send your own API key for the upstream as the client's key (x-api-key, ANTHROPIC_API_KEY).",
		"On a server with a token, send the server's token in the header X-Kompact-Token, never as the API key."},
	upstream:      (*Server).messagesUpstream,
	relayed:       messagesHeaders,
	relayedPrefix: "Anthropic-",
	baseFix:       "Check the agent's llm.base_url: it must be the provider's Anthropic Messages API (the base that …/v1/messages is under, as for api: anthropic), not a web page or a proxy's error page.",
	errorBody:     func(e *kompact.Error, status int) any { return messagesErrorOf(e, status) },
}

// messagesFace is the Messages face: the client's body, query and headers
// go upstream as they came; the conversation is only stored (StoreOnly),
// named by Claude Code's session id; Claude Code's own compaction request
// is answered from a ready summary (messagesAnswer).
var messagesFace = &gatewayFace[*anthropic.Request]{
	proto:       anthropicProtocol,
	path:        "messages",
	passThrough: true,
	policy:      service.GatewayPolicy{StoreOnly: true},
	parse:       anthropic.ParseRequestBounded,
	naming:      messagesNaming,
	sideCall: func(r *http.Request, a *kompact.Agent, req *anthropic.Request) bool {
		return messagesSideCall(r.Header, a, req.HasTools(), req.Model)
	},
	compaction: claudeCodeCompaction,
	forward: func(_ *kompact.Agent, _ *anthropic.Request, body []byte, _ *service.GatewayTurn) ([]byte, relayFace) {
		return body, messagesRelay()
	},
	answer: messagesAnswer,
}

// claudeCodeCompaction tells Claude Code's own compaction request (one
// with a history before its instruction): the history before the
// instruction is stored when it continues the session (it may end with an
// answer the session has not seen; Claude Code may also have reshaped
// it), the instruction never; then it is answered from a ready summary,
// or forwarded.
func claudeCodeCompaction(r *http.Request, a *kompact.Agent, req *anthropic.Request) (kompact.Conversation, service.GatewayAsk, bool) {
	if !req.IsCompaction(r.Header.Get("User-Agent")) || req.Len() <= 1 {
		return nil, service.GatewayAsk{}, false
	}
	history := req.CompactionHistory()
	return history, claudeCodeAsk(a, req, history), true
}

// messagesRelay relays a Messages answer: a stream whole, pings and all,
// its usage read from its message_start and message_delta events, or the
// message's body.
func messagesRelay() relayFace {
	return relayFace{
		stream: func(dst io.Writer, flush func(), src io.Reader) (*kompact.Usage, error) {
			var su anthropic.StreamUsage
			err := openai.RelayEvents(dst, flush, src, maxStreamEvent, su.Event)
			return su.Usage(), err
		},
		body: anthropic.BodyUsage,
	}
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

// messagesAnswer answers Claude Code's compaction request from the
// summary sum committed for it (anthropic.ClaudeCodeCompactionAnswer), in
// the Messages format: streamed when the request streams.
func messagesAnswer(w http.ResponseWriter, req *anthropic.Request, sum *service.GatewaySummary) error {
	ans := anthropic.ClaudeCodeCompactionAnswer(sum.SessionID, sum.Revision, req.Model, sum.Summary, sum.Recent, sum.Tokens)
	if !req.Stream {
		writeRaw(w, http.StatusOK, ans.JSON())
		return nil
	}
	return writeAnswerStream(w, ans.Stream)
}

// gatewayCountTokens forwards a count_tokens request as it came: Claude
// Code's window accounting stays its own.
func (s *Server) gatewayCountTokens(w http.ResponseWriter, r *http.Request) error {
	a, client, forward, err := s.faceAgent(r, true)
	if err != nil {
		return err
	}
	body, err := s.readRawBody(w, r)
	if err != nil {
		return err
	}
	resp, err := s.messagesUpstream().Send(r.Context(), a.LLM, "messages/count_tokens", r.URL.RawQuery, client, body, forward)
	if err != nil {
		return upstreamFailed(err)
	}
	defer resp.Body.Close()
	_, err = s.relayUpstream(w, r, resp, messagesRelay(), nil)
	if err == nil || errors.Is(err, errRelayCut) {
		s.metrics.gateway.forwarded(resp.StatusCode)
	}
	return err
}

// messagesNaming says how a Messages request for agent a names its
// conversation: X-Kompact-Session as on the chat face; else Claude Code's
// session id (the conversation's key with the agent's name,
// "claude-code:AGENT:ID", and its first session's id; sessions stored
// under "claude-code:ID" before the key named the agent are found there
// too, for this agent only); else ConversationKey (the agent, the
// request's "system" and its first user message).
func messagesNaming(r *http.Request, a *kompact.Agent) (service.GatewayNaming, error) {
	n := service.GatewayNaming{SessionID: r.Header.Get(HeaderSession)}
	if err := checkSessionHeader(n.SessionID); err != nil {
		return n, err
	}
	if cc := r.Header.Get(HeaderClaudeCodeSession); n.SessionID == "" && cc != "" {
		n.Key, n.LegacyKey, n.NewID = "claude-code:"+a.Name+":"+clientConversation(cc), "claude-code:"+clientConversation(cc), cc
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
