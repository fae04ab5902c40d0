package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"kompact"
	"kompact/service"
)

// This file tells the clients the gateway knows apart by what identifies
// them (their headers and the request's shape, never their words), for
// what only some clients do (docs/gateway.md, "Side calls" and
// "opencode"): opencode names its session in a header, and opencode,
// Codex and Claude Code send one-shot side calls (a title request) beside
// their conversations, which the faces report as
// service.GatewayNaming.SideCall.

// HeaderSessionAffinity is the header in which opencode names its session
// on every request to a provider that is not its own (X-Session-Id holds
// the same).
const HeaderSessionAffinity = "X-Session-Affinity"

// opencodeClient reports whether a request comes from opencode: its
// User-Agent is opencode/VERSION.
func opencodeClient(h http.Header) bool {
	return strings.HasPrefix(h.Get("User-Agent"), "opencode/")
}

// claudeCodeClient reports whether a request comes from Claude Code: its
// User-Agent is claude-cli/VERSION (../shared/claude-code/README.md).
func claudeCodeClient(h http.Header) bool {
	return strings.HasPrefix(h.Get("User-Agent"), "claude-cli/")
}

// codexClient reports whether a request comes from Codex CLI: its
// originator header or its User-Agent starts with codex (codex_exec,
// codex-tui, codex_vscode; ../shared/codex/README.md).
func codexClient(h http.Header) bool {
	return strings.HasPrefix(h.Get("Originator"), "codex") || strings.HasPrefix(h.Get("User-Agent"), "codex")
}

// A side call is told by its client and its shape: a request of a client
// known to send them that offers the model no tools. The service then
// checks that its history holds no answer (GatewayNaming.SideCall):
//
//   - opencode's title request: no tools, its title agent's system prompt,
//     then user messages only.
//   - Claude Code's title and topic requests: no tools, one user message,
//     sent to its small model, not the main one (a Claude Code agent's
//     llm.model, docs/gateway.md): a tool-less request to the main model
//     is taken for a conversation.
//   - Codex's title request (the TUI, one per thread): a Responses request
//     with no tools and a "text" key (codexSideCall, for the Responses
//     face).

// chatSideCall reports whether a chat-completions request with headers h
// that offers tools or not is a side call: opencode's.
func chatSideCall(h http.Header, tools bool) bool { return !tools && opencodeClient(h) }

// messagesSideCall reports whether a Messages request for agent a with
// headers h that offers tools or not, for model, is a side call: Claude
// Code's.
func messagesSideCall(h http.Header, a *kompact.Agent, tools bool, model string) bool {
	return !tools && model != a.LLM.Model && claudeCodeClient(h)
}

// codexSideCall reports whether a Responses request with headers h is
// Codex's title request: it offers no tools and has a "text" key. The
// Responses face sets GatewayNaming.SideCall by it.
func codexSideCall(h http.Header, tools, text bool) bool { return !tools && text && codexClient(h) }

// opencodeNaming is n for a chat-completions request with headers h for
// agent a: without X-Kompact-Session, opencode's session
// (HeaderSessionAffinity) names the conversation, as the key
// "opencode:AGENT:ID" and its first session's id, one conversation however
// opencode reshapes its history (after its own compaction, say).
func opencodeNaming(h http.Header, a *kompact.Agent, n service.GatewayNaming) service.GatewayNaming {
	if oc := h.Get(HeaderSessionAffinity); n.SessionID == "" && oc != "" && opencodeClient(h) {
		n.Key, n.NewID, n.OneConversation = "opencode:"+a.Name+":"+clientConversation(oc), oc, true
	}
	return n
}

// maxClientConversation bounds a client's own name of its conversation
// (opencode's X-Session-Affinity, Claude Code's X-Claude-Code-Session-Id,
// Codex's Thread-Id) as it goes into a conversation key: the session id
// rule's length (kompact.MaxSessionIDLen). The names the clients send are
// UUIDs or shorter.
const maxClientConversation = kompact.MaxSessionIDLen

// clientConversation is id, a client's name of its conversation, as a
// conversation key holds it: as it is when it is at most
// maxClientConversation bytes, else "sha256:" and its SHA-256 in hex, so
// that a key stays short whatever a header holds (one conversation all
// the same: the same name gives the same key). Such a name is no session
// id either, so the conversation's sessions get ids of their own.
func clientConversation(id string) string {
	if len(id) <= maxClientConversation {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "sha256:" + hex.EncodeToString(sum[:])
}
