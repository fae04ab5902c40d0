package httpapi

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"unicode"

	"kompact"
	"kompact/anthropic"
)

// This file is the compaction gateway's HTTP surface (docs/gateway.md):
// its routes, headers, the server's token and the agent a request is for,
// and its errors in the form of the face's API. The turn, the same for
// every face, is gateway_face.go's; the faces are gateway_chat.go's and
// gateway_messages.go's.

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
// answered in the form of its face's API (writeGatewayError).
func isGatewayPath(path string) bool { return strings.HasPrefix(path, gatewayPrefix) }

// gatewayAPIRoutes is the table of the gateway's routes: gatewayRoutes
// registers them, and a test holds openapi.yaml's paths to them.
func (s *Server) gatewayAPIRoutes() []route {
	return []route{
		{"POST /gateway/{agent}/v1/chat/completions", serveTurn(s, chatFace)},
		{"POST /gateway/{agent}/v1/responses", serveTurn(s, responsesFace)},
		{"GET /gateway/{agent}/v1/models", s.gatewayModels},
		{"POST /gateway/{agent}/v1/messages", serveTurn(s, messagesFace)},
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
	gw(gatewayPrefix, func(w http.ResponseWriter, r *http.Request) error { return s.noGatewayRoute(r) })
}

// noGatewayRoute is the 404 of a request to no gateway route; its fix
// names every route of gatewayAPIRoutes, the agent's name as AGENT.
func (s *Server) noGatewayRoute(r *http.Request) error {
	var routes []string
	for _, rt := range s.gatewayAPIRoutes() {
		routes = append(routes, strings.Replace(rt.pattern, "{agent}", "AGENT", 1))
	}
	last := len(routes) - 1
	answers := strings.Join(routes[:last], ", ") + " and " + routes[last]
	return kompact.Errorf(kompact.ENotFound, "no gateway route %s %s", r.Method, r.URL.Path).
		WithFixes("The gateway answers " + answers + " (docs/gateway.md).")
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
// anthropic, the others' openai: protocolOf) and the server can reach
// upstreams.
func (s *Server) gatewayAgent(r *http.Request) (*kompact.Agent, error) {
	a, err := s.sessions.GatewayAgent(r.PathValue("agent"))
	if err != nil {
		return nil, err
	}
	if speaks := agentProtocol(a); speaks != protocolOf(r.URL.Path) {
		return nil, kompact.Errorf(kompact.ENotFound, "agent %q speaks llm.api: %s; its gateway answers %s", a.Name, speaks.api, speaks.route).
			WithFixes("Point the client at the route of the agent's protocol, or set agents." + a.Name + ".llm.api to the protocol its upstream speaks (docs/gateway.md).")
	}
	if s.cfg.Upstream == nil {
		return nil, kompact.Errorf(kompact.EInternal, "the server has no upstream transport for the gateway")
	}
	return a, nil
}

// agentProtocol is the protocol of agent a's API (llm.api).
func agentProtocol(a *kompact.Agent) *gatewayProtocol {
	if anthropic.IsAnthropic(a.LLM) {
		return anthropicProtocol
	}
	return openaiProtocol
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

// gatewayHandle adapts a gateway handler: its error is answered in the
// error form of its face's API (writeGatewayError), so that clients and SDKs show it; errRelayCut
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

// writeGatewayError answers err with its status, in the error form of the
// path's protocol (OpenAI's, or Anthropic's on the Messages face).
func (s *Server) writeGatewayError(w http.ResponseWriter, r *http.Request, err error) {
	e := s.publicError(r, err)
	retryLater(w, e.Code)
	s.metrics.gateway.forwarded(StatusOf(e.Code))
	writeJSON(w, StatusOf(e.Code), protocolOf(r.URL.Path).errorBody(e, StatusOf(e.Code)))
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

// gatewayToken reports whether r carries the server's token: on a face
// whose API has a key header of its own, it may carry it too (the
// Messages face's x-api-key: ANTHROPIC_API_KEY).
func (s *Server) gatewayToken(r *http.Request) bool {
	if t := r.Header.Get(HeaderToken); t != "" {
		return s.isToken(t)
	}
	if h := protocolOf(r.URL.Path).apiKey; h != "" {
		if k := r.Header.Get(h); k != "" && s.isToken(k) {
			return true
		}
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
