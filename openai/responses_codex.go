package openai

// This file holds what kompact knows of Codex CLI 0.171.0's Responses
// requests (../shared/codex/README.md): which input items are the context
// Codex injects rather than the user's words, which request is a
// compaction (remote: a compaction_trigger; local: a tool-less turn with
// Codex's checkpoint prompt), the user message Codex opens its own summary
// with, and its x-codex-turn-metadata header. Codex's texts are known by
// SHA-256 only: they are Codex's, not kompact's.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"kompact"
)

// codexCheckpointPrompt is the SHA-256, in hex, of the prompt Codex CLI
// 0.171.0 sends as the last user message of a local compaction (426
// characters, "You are performing a CONTEXT CHECKPOINT COMPACTION…").
const codexCheckpointPrompt = "ab0c334d4faca17e3afbb9b16967c1b2fdcc7242a9a0880af57949fa236d6d07"

// codexSummaryPrefix is the SHA-256, in hex, of the text (400 bytes, its
// final newline included) Codex CLI 0.171.0 puts before a local
// compaction's summary in the user message that replaces the history
// ("Another language model started to solve this problem…").
const codexSummaryPrefix = "371aca20f23d546135443e5c289f62b304aea1a9ce21cfa0e80e17d4c6020fd0"

// codexSummaryPrefixLen is that prefix's length in bytes.
const codexSummaryPrefixLen = 400

// codexEnvironmentTag opens the user message in which Codex describes the
// environment (cwd, shell, date).
const codexEnvironmentTag = "<environment_context>"

// TurnMetadata is what the gateway reads of Codex's x-codex-turn-metadata
// header (a JSON object; every other key is left unread).
type TurnMetadata struct {
	ThreadID     string `json:"thread_id"`
	SessionID    string `json:"session_id"`
	TurnID       string `json:"turn_id"`
	WindowNumber int64  `json:"window_number"`
	// RequestKind is "turn" or "compaction".
	RequestKind string `json:"request_kind"`
	// Compaction is set on a compaction request.
	Compaction *struct {
		// Trigger is "auto" or "manual".
		Trigger string `json:"trigger"`
		// Implementation is "responses" (local) or
		// "responses_compaction_v2" (remote).
		Implementation string `json:"implementation"`
		// Phase is "pre_turn", "mid_turn" or "standalone_turn".
		Phase string `json:"phase"`
	} `json:"compaction"`
}

// ParseTurnMetadata reads an x-codex-turn-metadata header's value; ok is
// false when it is absent or not a JSON object.
func ParseTurnMetadata(header string) (m TurnMetadata, ok bool) {
	if header == "" || json.Unmarshal([]byte(header), &m) != nil {
		return TurnMetadata{}, false
	}
	return m, true
}

// Compaction is the compaction a Responses request asks for.
type Compaction uint8

const (
	// NoCompaction: an ordinary turn.
	NoCompaction Compaction = iota
	// RemoteCompaction: the last input item is a compaction_trigger (Codex,
	// when its provider is named "OpenAI"); the answer must be exactly one
	// compaction item.
	RemoteCompaction
	// LocalCompaction: Codex's summarisation turn (any other provider
	// name): "tools": [], its checkpoint prompt as the last user message,
	// and request_kind "compaction"; the answer is the summary as the
	// assistant's text.
	LocalCompaction
)

func (c Compaction) String() string {
	return [...]string{"none", "remote", "local"}[c]
}

// Compaction tells which compaction the request asks for, meta being its
// x-codex-turn-metadata (ParseTurnMetadata). Remote compaction is known by
// its last item alone (the trigger is not a message any model reads);
// local compaction needs all three of its signs, request_kind alone not
// telling remote from local, and the prompt being known by SHA-256: a
// user who configured another compact_prompt sends an ordinary turn.
func (r *ResponsesRequest) Compaction(meta TurnMetadata) Compaction {
	n := r.Len()
	if n == 0 || r.textInput {
		return NoCompaction
	}
	if r.Kind(n-1) == ItemCompactionTrigger {
		return RemoteCompaction
	}
	if !r.noTools || meta.RequestKind != "compaction" || r.Kind(n-1) != ItemMessage || r.items[n-1].role != "user" {
		return NoCompaction
	}
	m, err := r.Message(n - 1)
	if err != nil || !hasDigest(allText(&m), codexCheckpointPrompt) {
		return NoCompaction
	}
	return LocalCompaction
}

// Context reports whether input item i is context Codex injects, not the
// user's words: a developer or system message (Codex's base instructions,
// its skills and permissions), or a user message that is Codex's. With the
// provider named "OpenAI" Codex says which by each message's
// internal_chat_message_metadata_passthrough.content_item_kinds (a user
// message is the user's when one of its kinds is user.*); without them, a
// user message is Codex's when its text opens with <environment_context>.
// Message reads such a user message as a system one.
func (r *ResponsesRequest) Context(i int) bool {
	if r.Kind(i) != ItemMessage {
		return false
	}
	if r.textInput {
		return false
	}
	switch r.items[i].role {
	case "developer", "system":
		return true
	case "user":
	default:
		return false
	}
	var w wireItem
	if json.Unmarshal(r.Raw(i), &w) != nil {
		return false
	}
	parts, err := contentParts(i, w.Content)
	return err == nil && codexContext(&w, parts)
}

// codexContext reports whether a user message (its item, its parts) is
// context Codex injects (see Context).
func codexContext(w *wireItem, parts []kompact.Part) bool {
	if w.Meta != nil && len(w.Meta.Kinds) > 0 {
		for _, k := range w.Meta.Kinds {
			if strings.HasPrefix(k, "user.") {
				return false
			}
		}
		return true
	}
	for _, p := range parts {
		if p.Type == kompact.PartText {
			return strings.HasPrefix(strings.TrimLeft(p.Text, " \t\r\n"), codexEnvironmentTag)
		}
	}
	return false
}

// CodexSummary reports whether input item i is the user message with
// which Codex replaces a history it compacted locally: Codex's summary
// prefix, then the summary, which it returns.
func (r *ResponsesRequest) CodexSummary(i int) (summary string, ok bool) {
	if r.Kind(i) != ItemMessage || r.textInput || r.items[i].role != "user" {
		return "", false
	}
	m, err := r.Message(i)
	if err != nil {
		return "", false
	}
	text := allText(&m)
	if len(text) < codexSummaryPrefixLen || !hasDigest(text[:codexSummaryPrefixLen], codexSummaryPrefix) {
		return "", false
	}
	return text[codexSummaryPrefixLen:], true
}

// allText is m's text parts joined.
func allText(m *kompact.Message) string {
	var b strings.Builder
	m.Texts(func(s string) { b.WriteString(s) })
	return b.String()
}

// hasDigest reports whether the SHA-256 of s is want (in hex).
func hasDigest(s, want string) bool {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:]) == want
}

// CompactedSinceTurn reports whether the history holds a compaction (a
// compaction item, or the message Codex opens its own summary with) that
// no model output follows: a second compaction asked right after one,
// with no turn between, which the gateway forwards rather than answer
// (Codex has no cap on back-to-back compactions).
func (r *ResponsesRequest) CompactedSinceTurn() bool {
	if r.textInput {
		return false
	}
	for i := len(r.items) - 1; i >= 0; i-- {
		switch s := r.items[i]; {
		case s.kind == ItemCompaction:
			return true
		case s.kind == ItemFunctionCall || s.kind == ItemReasoning || s.kind == ItemOther || s.kind == ItemMessage && s.role == "assistant":
			return false
		case s.kind == ItemMessage && s.role == "user":
			if _, ok := r.CodexSummary(i); ok {
				return true
			}
		}
	}
	return false
}

// Head is the request's first n items, as a conversation of their own
// (the history of a compaction request, without its trigger or prompt).
func (r *ResponsesRequest) Head(n int) *ResponsesRequest {
	c := *r
	c.items = r.items[:n:n]
	if r.textInput && n == 0 {
		c.textInput, c.inputText = false, ""
	}
	return &c
}

// SummaryAt is where the history's latest compaction stands: the index of
// its last compaction item that holds a kompact handle, or of the user
// message with which Codex replaces a history it compacted locally
// (CodexSummary); false when there is none. It implements
// service.CompactedHistory: the gateway continues the session whose
// compaction it answered with that summary.
func (r *ResponsesRequest) SummaryAt() (int, bool) {
	if r.textInput {
		return 0, false
	}
	for i := len(r.items) - 1; i >= 0; i-- {
		if r.items[i].kind == ItemCompaction {
			if _, ok := r.handleAt(i); ok {
				return i, true
			}
		}
		if _, ok := r.CodexSummary(i); ok {
			return i, true
		}
	}
	return 0, false
}
