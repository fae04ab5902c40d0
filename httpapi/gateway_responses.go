package httpapi

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"kompact"
	"kompact/openai"
	"kompact/service"
)

// This file is the gateway's Responses face (docs/gateway.md, "Codex"):
// OpenAI's Responses API at /gateway/{agent}/v1/responses, for agents of
// an OpenAI-compatible API, the wire Codex CLI speaks. The client's body,
// query and headers go upstream as they came (but for kompact's own
// compaction items, expanded into the summary they stand for), the answer
// comes back as it came; the conversation is kept as a gateway session
// named by Codex's thread id, which kompact never rewrites on the way
// (Codex compacts on its own side), and Codex's compactions, remote and
// local, are answered from a ready summary.

// HeaderCodexThread is the header in which Codex names its thread (the
// same on every exec resume); HeaderCodexSession carries the same id.
const (
	HeaderCodexThread  = "Thread-Id"
	HeaderCodexSession = "Session-Id"
	// HeaderCodexTurn is Codex's x-codex-turn-metadata (a JSON object:
	// request_kind, compaction).
	HeaderCodexTurn = "X-Codex-Turn-Metadata"
)

// responsesFace is the Responses face: pass-through, stored only, named
// by Codex's thread id, its title request a side call (codexSideCall),
// Codex's compactions answered (codexCompaction, responsesAnswer).
var responsesFace = &gatewayFace[*openai.ResponsesRequest]{
	proto:       openaiProtocol,
	path:        "responses",
	passThrough: true,
	policy:      service.GatewayPolicy{StoreOnly: true},
	parse:       openai.ParseResponsesRequestBounded,
	naming:      codexNaming,
	sideCall: func(r *http.Request, _ *kompact.Agent, req *openai.ResponsesRequest) bool {
		meta, _ := openai.ParseTurnMetadata(r.Header.Get(HeaderCodexTurn))
		return req.Compaction(meta) == openai.NoCompaction && codexSideCall(r.Header, req.HasTools() && !req.NoTools(), req.HasText())
	},
	compaction: codexCompaction,
	forward: func(_ *kompact.Agent, req *openai.ResponsesRequest, body []byte, _ *service.GatewayTurn) ([]byte, relayFace) {
		out, err := req.Expand(openai.EmbeddedSummary)
		if err != nil {
			// A handle with no summary (none kompact writes): the item
			// goes as sent, and the upstream says what it makes of it.
			out = body
		}
		return out, responsesRelay()
	},
	answer: responsesAnswer,
}

// codexNaming names a Responses request's conversation: X-Kompact-Session
// as on the other faces; else Codex's thread id (Thread-Id, or Session-Id)
// with the agent's name, "codex:AGENT:THREAD", its first session taking
// the thread's id; else ConversationKey. Its sessions are the Responses
// face's (service.GatewayFaceResponses).
func codexNaming(r *http.Request, a *kompact.Agent) (service.GatewayNaming, error) {
	n := service.GatewayNaming{SessionID: r.Header.Get(HeaderSession)}
	if err := checkSessionHeader(n.SessionID); err != nil {
		return n, err
	}
	thread := r.Header.Get(HeaderCodexThread)
	if thread == "" {
		thread = r.Header.Get(HeaderCodexSession)
	}
	if n.SessionID == "" && thread != "" {
		n.Key, n.NewID = "codex:"+a.Name+":"+clientConversation(thread), thread
	}
	n.Face = service.GatewayFaceResponses
	return n, nil
}

// codexCompaction tells Codex's compaction requests (openai.
// ResponsesRequest.Compaction: a last compaction_trigger, or the
// tool-less turn with Codex's checkpoint prompt): its history is the
// request without that last item. One asked right after a compaction,
// with no model output between, is forwarded as a turn: Codex has no cap
// on back-to-back compactions, and answering each would loop. Without a
// ready summary the session is compacted now (service.GatewayAsk.
// CompactNow): an upstream that is not OpenAI's cannot serve a remote
// compaction, and Codex blocks on it as it would upstream.
func codexCompaction(r *http.Request, a *kompact.Agent, req *openai.ResponsesRequest) (kompact.Conversation, service.GatewayAsk, bool) {
	meta, _ := openai.ParseTurnMetadata(r.Header.Get(HeaderCodexTurn))
	kind := req.Compaction(meta)
	if kind == openai.NoCompaction || req.Len() <= 1 {
		return nil, service.GatewayAsk{}, false
	}
	history := req.Head(req.Len() - 1)
	if history.CompactedSinceTurn() {
		return nil, service.GatewayAsk{}, false
	}
	manual := meta.Compaction != nil && meta.Compaction.Trigger == "manual"
	return history, service.GatewayAsk{Wait: a.Gateway.Compaction == "wait",
		AutoAt:     func(int, int) bool { return !manual },
		CompactNow: true, Origin: codexOrigin(meta, kind)}, true
}

// codexOrigin names a Codex compaction request in its revision's note
// (service.GatewayAsk.Origin): "Codex, remote" or "Codex, local", and the
// trigger x-codex-turn-metadata gives ("Codex, remote, auto").
func codexOrigin(meta openai.TurnMetadata, kind openai.Compaction) string {
	o := "Codex, " + kind.String()
	if meta.Compaction != nil && (meta.Compaction.Trigger == "manual" || meta.Compaction.Trigger == "auto") {
		o += ", " + meta.Compaction.Trigger
	}
	return o
}

// responsesRelay relays a Responses answer: a stream whole, its usage read
// from response.completed (a client that hangs up after it does not lose
// it); a stream that ends without it (or reports a failure) is cut, so that Codex sees the failure it would see from the
// upstream and retries, and its usage is not recorded; a response
// object's usage from its body.
func responsesRelay() relayFace {
	return relayFace{
		stream: func(dst io.Writer, flush func(), src io.Reader) (*kompact.Usage, error) {
			var rs openai.ResponsesStream
			err := openai.RelayEvents(dst, flush, src, maxStreamEvent, rs.Event)
			switch {
			case !rs.Completed() && err == nil:
				return nil, errIncomplete
			case !rs.Completed():
				return nil, err
			}
			// Completed: Codex hangs up as soon as it has
			// response.completed, so a failure to write what follows
			// it loses nothing; the usage is the turn's.
			return rs.Usage(), nil
		},
		body: openai.ResponsesBodyUsage,
	}
}

// errIncomplete is a Responses stream that ended without
// response.completed.
var errIncomplete = errors.New("the upstream's Responses stream ended without response.completed")

// responsesAnswer answers Codex's compaction request from the summary sum
// committed for it: a remote compaction with exactly one compaction item,
// whose encrypted_content is kompact's handle carrying the summary (as
// kompact's summary message, which the next request is expanded into); a
// local one with the summary as the assistant's text (which Codex puts
// behind its own prefix). The usage is the session's estimated tokens
// after the compaction, so that Codex's trigger does not fire again at
// once. Streamed when the request streams.
func responsesAnswer(w http.ResponseWriter, req *openai.ResponsesRequest, sum *service.GatewaySummary) error {
	rev := strconv.FormatInt(sum.Revision, 10)
	var item []byte
	if req.Kind(req.Len()-1) == openai.ItemCompactionTrigger {
		h := openai.CompactionHandle{Session: sum.SessionID, Revision: sum.Revision, Summary: kompact.SummaryPrefix + "\n" + sum.Summary}
		item = openai.CompactionItem("cmp_kompact_"+rev, h)
	} else {
		item = openai.AssistantItem("msg_kompact_"+rev, sum.Summary)
	}
	a := &openai.ResponsesAnswer{ID: "resp_kompact_" + rev, Model: req.Model(), CreatedAt: time.Now().Unix(),
		Items: [][]byte{item}, Usage: kompact.Usage{InputOther: int64(sum.Tokens)}}
	if !req.Stream() {
		writeRaw(w, http.StatusOK, openai.AppendResponseObject(nil, a))
		return nil
	}
	return writeAnswerStream(w, func(w io.Writer, flush func()) error {
		_, err := w.Write(openai.AppendResponsesEvents(nil, a))
		flush()
		return err
	})
}
