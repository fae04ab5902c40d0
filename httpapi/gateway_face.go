package httpapi

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"kompact"
	"kompact/internal/jsonscan"
	"kompact/service"
)

// This file is the gateway's one turn (docs/gateway.md): parse the
// request into its conversation, name it, keep it and compact it when due
// (service.Sessions.GatewayTurnWith), answer a client's own compaction
// request or forward the turn, relay the answer and record its usage. A
// face (gatewayFace) is the part that differs: the chat-completions face
// (gateway_chat.go) and the Messages face (gateway_messages.go) are each
// one value of it over their API's protocol (gatewayProtocol).

// gatewayProtocol is what the faces of one upstream API (llm.api) share:
// the agents they serve, the client's credentials, the upstream transport,
// the relayed headers and the form of the gateway's own errors.
type gatewayProtocol struct {
	// api is the llm.api of the agents the protocol's faces serve, and
	// route the turn route those agents answer (named to the client of an
	// agent of another API).
	api, route string
	// apiKey, when not "", is the header besides Authorization in which
	// the client sends its key (x-api-key): it may carry the server's
	// token, and it is one of the client's credentials.
	apiKey string
	// keyFixes are the fixes of a request that brings no key of its own
	// to an agent that forwards the client's (gateway.forward_authorization).
	keyFixes []string
	// upstream is the server's transport for the protocol's requests.
	upstream func(s *Server) Upstream
	// relayed are the upstream's response headers the protocol's faces
	// pass on besides relayedHeaders, with every one that begins with
	// relayedPrefix ("" for none); baseFix is the fix of an answer that
	// is not the API's (relayable).
	relayed       []string
	relayedPrefix string
	baseFix       string
	// errorBody is the gateway's own error e, answered with status, in
	// the API's error form.
	errorBody func(e *kompact.Error, status int) any
}

// credentials are the names of the headers that carry the client's key.
func (p *gatewayProtocol) credentials() []string {
	if p.apiKey == "" {
		return []string{"Authorization"}
	}
	return []string{p.apiKey, "Authorization"}
}

// protocolOf is the protocol of a gateway path: the Messages face's routes
// speak Anthropic's, every other OpenAI's.
func protocolOf(path string) *gatewayProtocol {
	if isMessagesPath(path) {
		return anthropicProtocol
	}
	return openaiProtocol
}

// gatewayFace is what one of the gateway's faces does its own way, over
// requests read as R; serveTurn is the turn, the same for every face. A
// new face is one more value of it, with its request's codec.
type gatewayFace[R kompact.Conversation] struct {
	// proto is the face's API; path is where its turns go under the
	// agent's API ("chat/completions", "messages").
	proto *gatewayProtocol
	path  string
	// passThrough sends the client's query and headers upstream as they
	// came (the transport drops the connection's own); otherwise only the
	// client's Authorization goes, when the agent forwards it.
	passThrough bool
	// policy is what the gateway may do to the face's conversations.
	policy service.GatewayPolicy
	// parse reads a request body within the bounds given (one of the
	// codecs' Parse…Bounded: parseBounded turns its bounds errors into
	// the gateway's).
	parse func(body []byte, maxMessages int, parts jsonscan.PartLimits) (R, error)
	// naming says how request r for agent a names its conversation.
	naming func(r *http.Request, a *kompact.Agent) (service.GatewayNaming, error)
	// sideCall, when not nil, tells a client's one-shot side call by
	// request r for agent a and its parsed req (service.GatewayNaming.
	// SideCall; gateway_clients.go).
	sideCall func(r *http.Request, a *kompact.Agent, req R) bool
	// compaction, when not nil, tells the client's own compaction request:
	// its history (the request without its instruction) and what it asks;
	// ok false for a turn.
	compaction func(r *http.Request, a *kompact.Agent, req R) (history kompact.Conversation, ask service.GatewayAsk, ok bool)
	// forward returns the body that goes upstream for turn (body itself
	// when it goes as sent), and how its answer is relayed.
	forward func(a *kompact.Agent, req R, body []byte, turn *service.GatewayTurn) ([]byte, relayFace)
	// answer writes the answer kompact makes itself to the client's
	// compaction request req from the summary sum committed for it: its
	// status and body (writeAnswerStream for a stream).
	answer func(w http.ResponseWriter, req R, sum *service.GatewaySummary) error
}

// serveTurn is the handler of face f's turns: the request read, kept as
// its session's turn, then answered by kompact or forwarded.
func serveTurn[R kompact.Conversation](s *Server, f *gatewayFace[R]) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		start := time.Now()
		a, client, forward, err := s.faceAgent(r, f.passThrough)
		if err != nil {
			return err
		}
		naming, err := f.naming(r, a)
		if err != nil {
			return err
		}
		body, err := s.readRawBody(w, r)
		if err != nil {
			return err
		}
		req, err := parseBounded(s, body, f.parse)
		if err != nil {
			return err
		}
		naming.SideCall = f.sideCall != nil && f.sideCall(r, a, req)
		turn, sum := keepTurn(s, r, f, a, naming, req)
		if sum != nil {
			return s.answered(w, sum, func() error { return f.answer(w, req, sum) })
		}
		out, relay := f.forward(a, req, body, turn)
		s.metrics.gateway.turn(turn, len(body)-len(out), time.Since(start))
		query := ""
		if f.passThrough {
			query = r.URL.RawQuery
		}
		resp, err := f.proto.upstream(s).Send(r.Context(), a.LLM, f.path, query, client, out, forward)
		return s.relayTurn(w, r, turn, resp, err, relay)
	}
}

// keepTurn keeps req as its session's turn (service.Sessions.
// GatewayTurnWith under the face's policy). A client's own compaction
// request keeps its history only when it continues a session (Continue),
// never its instruction; it is then answered from a summary when one is
// ready (sum, not nil), else forwarded as a turn.
func keepTurn[R kompact.Conversation](s *Server, r *http.Request, f *gatewayFace[R], a *kompact.Agent, naming service.GatewayNaming, req R) (*service.GatewayTurn, *service.GatewaySummary) {
	ctx := r.Context()
	if f.compaction != nil {
		if history, ask, ok := f.compaction(r, a, req); ok {
			p := f.policy
			p.Continue = true
			turn := s.sessions.GatewayTurnWith(ctx, a, naming, p, history)
			return turn, s.sessions.GatewayAnswerCompaction(ctx, a, naming, history, ask)
		}
	}
	return s.sessions.GatewayTurnWith(ctx, a, naming, f.policy, req), nil
}

// relayTurn relays the upstream's answer to a forwarded turn (or the error
// of a request that could not be sent) and records the answer's usage.
func (s *Server) relayTurn(w http.ResponseWriter, r *http.Request, turn *service.GatewayTurn, resp *http.Response, err error, relay relayFace) error {
	if err != nil {
		if turn.Stored { // the messages are in the session all the same
			w.Header().Set(HeaderSession, turn.SessionID)
		}
		return upstreamFailed(err)
	}
	defer resp.Body.Close()
	usage, err := s.relayUpstream(w, r, resp, relay, turnHeaders(turn))
	if err == nil || errors.Is(err, errRelayCut) {
		s.metrics.gateway.forwarded(resp.StatusCode)
	}
	s.sessions.GatewayUsage(r.Context(), turn, usage)
	return err
}

// answered answers a client's compaction request from the summary sum
// (write, the face's answer): X-Kompact-Session, X-Kompact-Forwarded:
// answered, and the request counted as answered 200.
func (s *Server) answered(w http.ResponseWriter, sum *service.GatewaySummary, write func() error) error {
	h := w.Header()
	h.Set(HeaderSession, sum.SessionID)
	h.Set(HeaderForwarded, "answered")
	s.metrics.gateway.forwarded(http.StatusOK)
	return write()
}

// writeAnswerStream writes an answer kompact makes itself as an event
// stream (stream writes its events, flushing each); a stream that breaks
// off is errRelayCut, as a relayed one's.
func writeAnswerStream(w http.ResponseWriter, stream func(w io.Writer, flush func()) error) error {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	if err := stream(w, func() { _ = rc.Flush() }); err != nil {
		return errRelayCut
	}
	return nil
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

// faceAgent returns the agent of a face's request (gatewayAgent), the
// client's headers that go upstream with it (all of them for a face that
// passes them through, else its Authorization only) and whether the
// client's own credentials go instead of the agent's key
// (gateway.forward_authorization: ownCredentials).
func (s *Server) faceAgent(r *http.Request, passThrough bool) (*kompact.Agent, http.Header, bool, error) {
	a, err := s.gatewayAgent(r)
	if err != nil {
		return nil, nil, false, err
	}
	client := r.Header
	if !passThrough {
		client = nil
		if a.Gateway.ForwardAuthorization {
			client = authorizationHeader(r.Header.Get("Authorization"))
		}
	}
	if !a.Gateway.ForwardAuthorization {
		return a, client, false, nil
	}
	if err := s.ownCredentials(a, protocolOf(r.URL.Path), client); err != nil {
		return nil, nil, false, err
	}
	return a, client, true, nil
}

// ownCredentials checks the credentials the client sends upstream for an
// agent that forwards them: a key of its own, in one of the protocol's
// credential headers, that is not the server's token (401 otherwise: the
// agent's key is not spent instead). Every value that goes upstream is
// checked: a request that repeats a header with the server's token in a
// later value is refused too.
func (s *Server) ownCredentials(a *kompact.Agent, p *gatewayProtocol, client http.Header) error {
	own, carries := false, false
	for _, name := range p.credentials() {
		for _, v := range client.Values(name) {
			own = own || strings.TrimSpace(v) != ""
			carries = carries || (v != "" && s.carriesToken(v))
		}
	}
	if own && !carries {
		return nil
	}
	return kompact.Errorf(EUnauthorized, "the agent %q sends the client's own key upstream (gateway.forward_authorization), and this request has none", a.Name).
		WithFixes(p.keyFixes...)
}

// authorizationHeader is the client header of an Authorization value:
// none for "".
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
