package httpapi

import (
	"io"
	"net/http"

	"kompact"
	"kompact/openai"
	"kompact/service"
)

// This file is the gateway's chat-completions face (docs/gateway.md):
// OpenAI's chat-completions protocol at /gateway/{agent}/v1, forwarded to
// the agent's upstream with the session's compaction applied (the summary
// in place of the messages it covers: openai.ChatRequest.Forward), and the
// upstream's model list.

// openaiProtocol is the faces' protocol for agents of an
// OpenAI-compatible API (llm.api: openai, the default).
var openaiProtocol = &gatewayProtocol{
	api: "openai", route: "/v1/chat/completions",
	keyFixes: []string{"Send your own API key for the upstream as the client's API key (Authorization: Bearer <key>).",
		"On a server with a token, send the server's token in the header X-Kompact-Token, never in Authorization."},
	upstream: func(s *Server) Upstream { return s.cfg.Upstream },
	baseFix:  "Check the agent's llm.base_url: it must be the provider's OpenAI-compatible API (…/v1), not a web page or a proxy's error page.",
	errorBody: func(e *kompact.Error, status int) any {
		return gatewayErrorBody{Error: gatewayError{Message: e.Message, Type: "kompact_error", Code: string(e.Code), Fixes: e.Fixes}}
	},
}

// chatFace is the chat-completions face: a conversation named by
// X-Kompact-Session or its ConversationKey, compacted by the gateway
// before a turn when due; only the client's Authorization goes upstream
// with the body (when the agent forwards it).
var chatFace = &gatewayFace[*openai.ChatRequest]{
	proto:  openaiProtocol,
	path:   "chat/completions",
	parse:  openai.ParseChatRequestBounded,
	naming: chatNaming,
	sideCall: func(r *http.Request, _ *kompact.Agent, req *openai.ChatRequest) bool {
		return chatSideCall(r.Header, req.HasTools())
	},
	forward: func(a *kompact.Agent, req *openai.ChatRequest, _ []byte, turn *service.GatewayTurn) ([]byte, relayFace) {
		askUsage := req.Stream() && !req.HasStreamOptions() && a.Gateway.AskStreamUsage()
		return req.Forward(turn.Head, turn.Summary, turn.From, askUsage), chatRelay(askUsage)
	},
}

// chatNaming names a chat request's conversation by its X-Kompact-Session
// header, else by opencode's session (opencodeNaming), else ("") by its
// ConversationKey.
func chatNaming(r *http.Request, a *kompact.Agent) (service.GatewayNaming, error) {
	n := service.GatewayNaming{SessionID: r.Header.Get(HeaderSession)}
	return opencodeNaming(r.Header, a, n), checkSessionHeader(n.SessionID)
}

// chatRelay relays a chat answer: a stream without the usage chunk the
// gateway asked for when strip (gateway.stream_usage), its usage read from
// the stream's last chunk or the completion's body.
func chatRelay(strip bool) relayFace {
	return relayFace{
		stream: func(dst io.Writer, flush func(), src io.Reader) (*kompact.Usage, error) {
			return openai.RelayStream(dst, flush, src, strip, maxStreamEvent)
		},
		body: openai.CompletionUsage,
	}
}

// gatewayModels relays the upstream's model list.
func (s *Server) gatewayModels(w http.ResponseWriter, r *http.Request) error {
	a, client, _, err := s.faceAgent(r, false)
	if err != nil {
		return err
	}
	models, ok := s.cfg.Upstream.(modelLister)
	if !ok {
		return kompact.Errorf(kompact.EInternal, "the server's upstream transport for the gateway lists no models")
	}
	resp, err := models.Models(r.Context(), a.LLM, client.Get("Authorization"))
	if err != nil {
		return upstreamFailed(err)
	}
	defer resp.Body.Close()
	_, err = s.relayUpstream(w, r, resp, chatRelay(false), nil)
	return err
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
