package httpapi

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode"

	"kompact"
	"kompact/anthropic"
	"kompact/internal/jsonscan"
	"kompact/openai"
	"kompact/service"
)

// This file is the compaction gateway's HTTP surface (docs/gateway.md):
// OpenAI's chat-completions protocol at /gateway/{agent}/v1, forwarded to
// the agent's upstream with the session's compaction applied
// (service.Sessions.GatewayTurn).

// Upstream sends a gateway face's requests to an agent's LLM and returns
// the answer unread, e.g. openai.Upstream or anthropic.Upstream: path is
// the face's under the agent's API ("chat/completions", "messages",
// "messages/count_tokens"), rawQuery and client the query and headers
// that go with it (the transport drops the connection's own and
// X-Kompact-*), body what is sent; forward sends the client's own
// credentials in client instead of the agent's key.
type Upstream interface {
	Send(ctx context.Context, llm kompact.LLMConfig, path, rawQuery string, client http.Header, body []byte, forward bool) (*http.Response, error)
}

// modelLister is an Upstream that lists an OpenAI-compatible API's models
// (openai.Upstream): the chat face's GET /models, with authorization the
// client's own Authorization header ("": the agent's key).
type modelLister interface {
	Models(ctx context.Context, llm kompact.LLMConfig, authorization string) (*http.Response, error)
}

// The gateway's headers.
const (
	// HeaderSession names a conversation's session (request) and says
	// which session a request went to (response).
	HeaderSession = "X-Kompact-Session"
	// HeaderForwarded says what was forwarded: "as-sent" or "compacted".
	HeaderForwarded = "X-Kompact-Forwarded"
	// HeaderNotStored says why a forwarded request was not stored:
	// service.GatewayNotReadable, GatewayNotContinued or GatewayNotKept.
	HeaderNotStored = "X-Kompact-Not-Stored"
	// HeaderToken carries the server's token when Authorization carries
	// the client's own upstream key (gateway.forward_authorization).
	HeaderToken = "X-Kompact-Token"
)

// gatewayPrefix begins the path of every gateway request.
const gatewayPrefix = "/gateway/"

// isGatewayPath reports whether path is the gateway's, whose errors are
// answered in OpenAI's form.
func isGatewayPath(path string) bool { return strings.HasPrefix(path, gatewayPrefix) }

// gatewayAPIRoutes is the table of the gateway's routes: gatewayRoutes
// registers them, and a test holds openapi.yaml's paths to them.
func (s *Server) gatewayAPIRoutes() []route {
	return []route{
		{"POST /gateway/{agent}/v1/chat/completions", s.gatewayChat},
		{"GET /gateway/{agent}/v1/models", s.gatewayModels},
		{"POST /gateway/{agent}/v1/messages", s.gatewayMessages},
		{"POST /gateway/{agent}/v1/messages/count_tokens", s.gatewayCountTokens},
	}
}

// gatewayRoutes registers the gateway's routes on mux (gatewayAPIRoutes),
// and the OpenAI-form 404 for the rest of /gateway/.
func (s *Server) gatewayRoutes(mux *http.ServeMux) {
	gw := func(pattern string, h handlerFunc) {
		mux.Handle(pattern, routed(pattern, s.gatewayAuthorize(s.gatewayHandle(h))))
	}
	for _, rt := range s.gatewayAPIRoutes() {
		gw(rt.pattern, rt.handler)
	}
	gw(gatewayPrefix, func(w http.ResponseWriter, r *http.Request) error {
		return kompact.Errorf(kompact.ENotFound, "no gateway route %s %s", r.Method, r.URL.Path).
			WithFixes("The gateway answers POST /gateway/AGENT/v1/chat/completions and GET /gateway/AGENT/v1/models (docs/gateway.md).")
	})
}

// gatewayChat forwards one chat-completions request.
func (s *Server) gatewayChat(w http.ResponseWriter, r *http.Request) error {
	start := time.Now()
	a, err := s.gatewayAgent(r)
	if err != nil {
		return err
	}
	sessionID := r.Header.Get(HeaderSession)
	if err := checkSessionHeader(sessionID); err != nil {
		return err
	}
	authorization, err := s.upstreamAuthorization(a, r)
	if err != nil {
		return err
	}
	body, err := s.readRawBody(w, r)
	if err != nil {
		return err
	}
	req, err := parseBounded(s, body, openai.ParseChatRequestBounded)
	if err != nil {
		return err
	}
	turn := s.sessions.GatewayTurn(r.Context(), a, sessionID, req)
	askUsage := req.Stream() && !req.HasStreamOptions() && a.Gateway.AskStreamUsage()
	out := req.Forward(turn.Head, turn.Summary, turn.From, askUsage)
	s.metrics.gateway.turn(turn, len(body)-len(out), time.Since(start))
	resp, err := s.cfg.Upstream.Send(r.Context(), a.LLM, "chat/completions", "", authorizationHeader(authorization), out, authorization != "")
	if err != nil {
		if turn.Stored { // the messages are in the session all the same
			w.Header().Set(HeaderSession, turn.SessionID)
		}
		return upstreamFailed(err)
	}
	defer resp.Body.Close()
	usage, err := s.relayUpstream(w, r, resp, relayFace{strip: askUsage}, turnHeaders(turn))
	if err == nil || errors.Is(err, errRelayCut) {
		s.metrics.gateway.forwarded(resp.StatusCode)
	}
	s.sessions.GatewayUsage(r.Context(), turn, usage)
	return err
}

// turnHeaders sets the gateway's own headers of an answer to turn:
// X-Kompact-Session when the request was stored, X-Kompact-Not-Stored
// when it was not, and X-Kompact-Forwarded.
func turnHeaders(turn *service.GatewayTurn) func(http.Header) {
	return func(h http.Header) {
		if turn.Stored {
			h.Set(HeaderSession, turn.SessionID)
		} else if turn.NotStored != "" {
			h.Set(HeaderNotStored, turn.NotStored)
		}
		forwarded := "as-sent"
		if turn.Summary != nil {
			forwarded = "compacted"
		}
		h.Set(HeaderForwarded, forwarded)
	}
}

// authorizationHeader is the client header of the chat face's
// Authorization: none for "" (the agent's key goes).
func authorizationHeader(authorization string) http.Header {
	if authorization == "" {
		return nil
	}
	return http.Header{"Authorization": {authorization}}
}

// parseBounded reads a gateway request body with a face's parser, of at
// most --max-request-messages messages, --max-message-parts parts in a
// message and --max-request-parts in all: a larger one is refused (413)
// as soon as the parse passes a bound, before the rest of the body is
// read (jsonscan.TooManyMessagesError, jsonscan.TooManyPartsError). A
// request without messages is refused (400): there is no conversation to
// store or forward.
func parseBounded[R kompact.Conversation](s *Server, body []byte, parse func([]byte, int, jsonscan.PartLimits) (R, error)) (R, error) {
	var none R
	req, err := parse(body, s.guard.maxMessages, s.guard.parts)
	if tooMany := (*jsonscan.TooManyMessagesError)(nil); errors.As(err, &tooMany) {
		return none, s.guard.checkChatMessages(tooMany.Max + 1)
	}
	if err != nil {
		return none, partsError(err)
	}
	if req.Len() == 0 {
		return none, kompact.Errorf(kompact.EInvalid, `the request's "messages" is empty`).
			WithFixes(`Send the conversation in "messages": at least one message.`)
	}
	return req, nil
}

// gatewayModels relays the upstream's model list.
func (s *Server) gatewayModels(w http.ResponseWriter, r *http.Request) error {
	a, err := s.gatewayAgent(r)
	if err != nil {
		return err
	}
	authorization, err := s.upstreamAuthorization(a, r)
	if err != nil {
		return err
	}
	models, ok := s.cfg.Upstream.(modelLister)
	if !ok {
		return kompact.Errorf(kompact.EInternal, "the server's upstream transport for the gateway lists no models")
	}
	resp, err := models.Models(r.Context(), a.LLM, authorization)
	if err != nil {
		return upstreamFailed(err)
	}
	defer resp.Body.Close()
	_, err = s.relayUpstream(w, r, resp, relayFace{}, nil)
	return err
}

// checkSessionHeader applies the session id rule to a request's
// X-Kompact-Session ("" names none), as checkPathIDs does to the ids in
// paths: an id outside it is 400 invalid before any store sees it.
func checkSessionHeader(id string) error {
	if id == "" {
		return nil
	}
	if err := kompact.ValidateSessionID(id); err != nil {
		e := kompact.AsError(err)
		return kompact.Errorf(e.Code, "the header %s: %s", HeaderSession, e.Message).WithFixes(e.Fixes...)
	}
	return nil
}

// gatewayAgent returns the agent of the request's path when its gateway is
// on, speaks the route's protocol (llm.api: the Messages routes' is
// anthropic, the others' openai) and the server can reach upstreams.
func (s *Server) gatewayAgent(r *http.Request) (*kompact.Agent, error) {
	a, err := s.sessions.GatewayAgent(r.PathValue("agent"))
	if err != nil {
		return nil, err
	}
	if messages := isMessagesPath(r.URL.Path); messages != anthropic.IsAnthropic(a.LLM) {
		api, face := "openai", "/v1/chat/completions"
		if anthropic.IsAnthropic(a.LLM) {
			api, face = "anthropic", "/v1/messages"
		}
		return nil, kompact.Errorf(kompact.ENotFound, "agent %q speaks llm.api: %s; its gateway answers %s", a.Name, api, face).
			WithFixes("Point the client at the route of the agent's protocol, or set agents." + a.Name + ".llm.api to the protocol its upstream speaks (docs/gateway.md).")
	}
	if s.cfg.Upstream == nil {
		return nil, kompact.Errorf(kompact.EInternal, "the server has no upstream transport for the gateway")
	}
	return a, nil
}

// upstreamAuthorization is what goes upstream as Authorization: "" (the
// agent's key) unless agent a forwards the client's own header
// (gateway.forward_authorization). Then the header is the client's key:
// one that carries the server's token, in any scheme, is never forwarded,
// and a request without a key of its own is 401 (the agent's key is not
// spent instead).
func (s *Server) upstreamAuthorization(a *kompact.Agent, r *http.Request) (string, error) {
	if !a.Gateway.ForwardAuthorization {
		return "", nil
	}
	h := r.Header.Get("Authorization")
	if strings.TrimSpace(h) == "" || s.carriesToken(h) {
		return "", kompact.Errorf(EUnauthorized, "the agent %q sends the client's own key upstream (gateway.forward_authorization), and this request has none", a.Name).
			WithFixes("Send your own API key for the upstream as the client's API key (Authorization: Bearer <key>).",
				"On a server with a token, send the server's token in the header X-Kompact-Token, never in Authorization.")
	}
	return h, nil
}

// carriesToken reports whether an Authorization header carries the
// server's token in any form: the whole value, any of its words (after
// "Bearer", "Token", a tab, quotes), or the user or password of a Basic
// credential. Each candidate is compared in constant time.
func (s *Server) carriesToken(h string) bool {
	if s.cfg.Token == "" {
		return false
	}
	found := s.isToken(strings.TrimSpace(h))
	for _, w := range strings.FieldsFunc(h, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == '"' || r == '\'' }) {
		found = s.isToken(w) || found
		if b, err := base64.StdEncoding.DecodeString(w); err == nil {
			user, pass, _ := strings.Cut(string(b), ":")
			found = s.isToken(string(b)) || s.isToken(user) || s.isToken(pass) || found
		}
	}
	return found
}

// gatewayHandle adapts a gateway handler: its error is answered in
// OpenAI's error form, so that clients and SDKs show it; errRelayCut
// aborts the connection.
func (s *Server) gatewayHandle(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			if errors.Is(err, errRelayCut) {
				panic(http.ErrAbortHandler) // the client sees the failure, not a cut answer that looks whole
			}
			s.writeGatewayError(w, r, err)
		}
	})
}

// gatewayErrorBody is OpenAI's error form, with kompact's code and fixes.
type gatewayErrorBody struct {
	Error gatewayError `json:"error"`
}

type gatewayError struct {
	Message string   `json:"message"`
	Type    string   `json:"type"`
	Code    string   `json:"code"`
	Fixes   []string `json:"fixes"`
}

// writeGatewayError answers err with its status, in OpenAI's error form.
func (s *Server) writeGatewayError(w http.ResponseWriter, r *http.Request, err error) {
	e := s.publicError(r, err)
	retryLater(w, e.Code)
	s.metrics.gateway.forwarded(StatusOf(e.Code))
	if isMessagesPath(r.URL.Path) {
		writeJSON(w, StatusOf(e.Code), messagesErrorOf(e, StatusOf(e.Code)))
		return
	}
	writeJSON(w, StatusOf(e.Code), gatewayErrorBody{Error: gatewayError{
		Message: e.Message, Type: "kompact_error", Code: string(e.Code), Fixes: e.Fixes,
	}})
}

// writeErrorFor answers err in the form of r's path: OpenAI's for the
// gateway's (writeGatewayError), the API's for every other
// (writeError). The guards that run before the routes answer with it.
func (s *Server) writeErrorFor(w http.ResponseWriter, r *http.Request, err error) {
	if isGatewayPath(r.URL.Path) {
		s.writeGatewayError(w, r, err)
		return
	}
	s.writeError(w, r, err)
}

// gatewayAuthorize checks the server's token, when it has one, on a
// gateway request: in X-Kompact-Token, or as the bearer token of
// Authorization.
func (s *Server) gatewayAuthorize(h http.Handler) http.Handler {
	if s.cfg.Token == "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.gatewayToken(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="kompact"`)
			s.writeGatewayError(w, r, kompact.Errorf(EUnauthorized, "this server needs its token").
				WithFixes("Use the server's token as the client's API key (Authorization: Bearer <token>).",
					"With gateway.forward_authorization, send the token in the header X-Kompact-Token instead."))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// gatewayToken reports whether r carries the server's token: on the
// Messages face, x-api-key may carry it too (ANTHROPIC_API_KEY).
func (s *Server) gatewayToken(r *http.Request) bool {
	if t := r.Header.Get(HeaderToken); t != "" {
		return s.isToken(t)
	}
	if k := r.Header.Get("X-Api-Key"); k != "" && isMessagesPath(r.URL.Path) && s.isToken(k) {
		return true
	}
	return s.validToken(r.Header.Get("Authorization"))
}

// upstreamFailed is the error of an upstream that could not be reached.
func upstreamFailed(err error) error {
	var e *kompact.Error
	if errors.As(err, &e) {
		return err
	}
	return kompact.Errorf(kompact.ELLM, "the upstream did not answer: %v", err).
		WithFixes("Check the agent's llm.base_url and that the upstream is up; the request was not sent.")
}
