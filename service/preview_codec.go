package service

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"

	"kompact"
	"kompact/fidelity"
)

// previewJSON is the stored form of a previewed outcome: everything its
// Result needs to be committed and shown again, except KimiMessages (the
// kimi-cli export form, which only the CLI uses) of a kompact session,
// and the messages the summary replaces: those the session holds still
// when the preview is applied (Elided).
type previewJSON struct {
	// Type names the compaction type that made it (Result.Type).
	Type            string `json:"type,omitempty"`
	Model           string `json:"model,omitempty"`
	SessionID       string `json:"session_id,omitempty"`
	Agent           string `json:"agent,omitempty"`
	CompactionModel string `json:"compaction_model,omitempty"`
	// Base is the session the compaction read from its Elided'th message
	// on (all of it in a preview kept before Elided).
	Base []kompact.Message `json:"base"`
	// Elided counts the first messages of the session the compaction read
	// that the body does not hold (End of them): applying the preview
	// reads them from the session (restoreBase), which must hold them as
	// they were, BaseDigest (SHA-256 of their stored forms, in hex) says.
	Elided     int    `json:"elided,omitempty"`
	BaseDigest string `json:"base_digest,omitempty"`
	Start      int    `json:"start"`
	End        int    `json:"end"`
	KeepSystem bool   `json:"keep_system,omitempty"`
	Dropped    int    `json:"dropped,omitempty"`
	// Pinned are the range's pinned messages (kompact.Span.Pinned), which
	// Replacement holds after the summary.
	Pinned []int `json:"pinned,omitempty"`
	// Leading and Trailing are the type's messages around the summary
	// (kompact.Span.Leading, Trailing: Kimi Code's), 0 for kimi.
	Leading         int                  `json:"leading,omitempty"`
	Trailing        int                  `json:"trailing,omitempty"`
	Replacement     []kompact.Message    `json:"replacement"`
	Summary         string               `json:"summary"`
	MissingSections []string             `json:"missing_sections,omitempty"`
	Usage           *kompact.Usage       `json:"usage,omitempty"`
	Compacted       int                  `json:"compacted"`
	Preserved       int                  `json:"preserved"`
	TokensBefore    int                  `json:"tokens_before"`
	TokensAfter     int                  `json:"tokens_after"`
	PromptBody      string               `json:"prompt_body,omitempty"`
	PromptSource    kompact.PromptSource `json:"prompt_source,omitempty"`
	PromptOrigin    string               `json:"prompt_origin,omitempty"`
	Fidelity        *kompact.Fidelity    `json:"fidelity,omitempty"`
	MinRecall       float64              `json:"min_recall,omitempty"`
	// EstimatedTokenCount is the result's (Result.EstimatedTokenCount),
	// which the commit records; 0 in a preview kept before it was stored
	// (a kimi-cli session's had it in Kimi).
	EstimatedTokenCount int `json:"estimated_token_count,omitempty"`
	// Kimi is a kimi-cli session's context and the result's token
	// figure; a kompact session's preview has none.
	Kimi *previewKimi `json:"kimi,omitempty"`
}

// previewKimi is what a kimi-cli session's preview holds besides a
// kompact session's: the context the compaction read. EstimatedTokenCount
// is read from previews kept before previewJSON held it for every session.
type previewKimi struct {
	Context             *kompact.KimiContext `json:"context"`
	EstimatedTokenCount int                  `json:"estimated_token_count,omitempty"`
}

// EncodePreview returns the stored form of a compacted outcome (its Result
// and Model), for Preview.Body.
func EncodePreview(o kompact.Outcome) ([]byte, error) {
	r := o.Result
	if r == nil || r.Span == nil {
		return nil, kompact.Errorf(kompact.EInternal, "only a compacted outcome can be kept as a preview")
	}
	p := r.Span
	var kimi *previewKimi
	if p.Session.Kimi != nil {
		kimi = &previewKimi{Context: p.Session.Kimi}
	}
	head, err := json.Marshal(previewJSON{
		Type: r.Type, Model: o.Model, SessionID: r.Session.ID, Agent: r.Session.Agent, CompactionModel: r.Session.CompactionModel,
		Start: p.Start, End: p.End, KeepSystem: p.KeepSystem, Dropped: p.Dropped, Pinned: p.Pinned,
		Leading: p.Leading, Trailing: p.Trailing, Summary: r.Summary, MissingSections: r.MissingSections, Usage: r.Usage,
		Compacted: r.Compacted, Preserved: r.Preserved, TokensBefore: r.TokensBefore, TokensAfter: r.TokensAfter,
		PromptBody: r.Prompt.Body, PromptSource: r.Prompt.Source, PromptOrigin: r.Prompt.Origin, Kimi: kimi,
		Fidelity: fidelityOf(r), MinRecall: r.MinRecall, EstimatedTokenCount: r.EstimatedTokenCount,
		Elided: p.End, BaseDigest: baseDigest(p.Session.Messages[:p.End]),
	})
	if err != nil {
		return nil, err
	}
	return spliceMessages(head, p.Session.Messages[p.End:], r.Replacement())
}

// baseDigest is the SHA-256, in hex, of msgs' stored forms
// (Message.AppendJSON), each followed by a newline.
func baseDigest(msgs []kompact.Message) string {
	h := sha256.New()
	var buf []byte
	for i := range msgs {
		buf = append(msgs[i].AppendJSON(buf[:0]), '\n')
		h.Write(buf)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// fidelityOf is r's fidelity report, measured now when r has none: the
// messages it measures are not kept with the preview.
func fidelityOf(r *kompact.Result) *kompact.Fidelity {
	if r.Fidelity != nil {
		return r.Fidelity
	}
	f := fidelity.MeasureFidelity(fidelity.SpanArtifacts(r.Span), r.Summary)
	return &f
}

// The messages' keys as json.Marshal writes previewJSON without them: the
// first of each in the text is the top-level key (only strings and
// numbers come before them, and a string's quotes are escaped).
var (
	baseNull        = []byte(`"base":null`)
	replacementNull = []byte(`"replacement":null`)
)

// spliceMessages writes base and replacement into head, previewJSON's
// encoding without them, each message in its neutral form
// (Message.AppendJSON), into one buffer of the body's exact size. A
// preview holds the session it read: json.Marshal of it grew a buffer by
// doubling and copied it out (some three times the body at its peak, 240
// MB for a 100k-message session), where this holds the body once.
func spliceMessages(head []byte, base, replacement []kompact.Message) ([]byte, error) {
	b := bytes.Index(head, baseNull)
	r := bytes.Index(head, replacementNull)
	if b < 0 || r < b {
		return nil, kompact.Errorf(kompact.EInternal, "a preview's encoding lacks its messages' keys")
	}
	size := len(head) - len("null")*2 + messagesSize(base) + messagesSize(replacement)
	out := make([]byte, 0, size)
	out = append(out, head[:b+len(`"base":`)]...)
	out = appendMessages(out, base)
	out = append(out, head[b+len(baseNull):r+len(`"replacement":`)]...)
	out = appendMessages(out, replacement)
	return append(out, head[r+len(replacementNull):]...), nil
}

// messagesSize is the length of appendMessages' list of msgs, measured
// one message at a time in a buffer reused.
func messagesSize(msgs []kompact.Message) int {
	n := len("[]") + max(len(msgs)-1, 0)
	var scratch []byte
	for i := range msgs {
		scratch = msgs[i].AppendJSON(scratch[:0])
		n += len(scratch)
	}
	return n
}

// appendMessages appends msgs as a JSON list.
func appendMessages(dst []byte, msgs []kompact.Message) []byte {
	dst = append(dst, '[')
	for i := range msgs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = msgs[i].AppendJSON(dst)
	}
	return append(dst, ']')
}

// DecodePreview reads what EncodePreview wrote back into a compacted
// outcome: its Result commits, shows and takes an edited summary
// (WithSummary) as the original did once its elided messages are back
// (restoreBase); a kompact session's has no KimiMessages.
func DecodePreview(data []byte) (kompact.Outcome, error) {
	out, _, err := decodePreview(data)
	return out, err
}

// elision is what a stored preview leaves out: the first n messages of
// the session it read, whose stored forms digest says (baseDigest).
type elision struct {
	n      int
	digest string
}

// decodePreview is DecodePreview, with what the body leaves out: the
// outcome's base holds empty messages in their place.
func decodePreview(data []byte) (kompact.Outcome, elision, error) {
	var pj previewJSON
	if err := json.Unmarshal(data, &pj); err != nil {
		return kompact.Outcome{}, elision{}, kompact.Errorf(kompact.EInternal, "a stored preview does not decode: %w", err)
	}
	if pj.Elided < 0 || pj.Elided > 0 && pj.Elided != pj.End {
		return kompact.Outcome{}, elision{}, kompact.Errorf(kompact.EInternal, "a stored preview is inconsistent: %d messages elided of a range ending at %d", pj.Elided, pj.End)
	}
	if pj.Elided > 0 {
		pj.Base = slices.Concat(make([]kompact.Message, pj.Elided), pj.Base)
	}
	out, err := decodedPreview(&pj)
	return out, elision{n: pj.Elided, digest: pj.BaseDigest}, err
}

// decodedPreview is the outcome of a decoded preview whose base is whole.
func decodedPreview(pj *previewJSON) (kompact.Outcome, error) {
	kept := pj.Start
	if pj.KeepSystem && pj.Kimi == nil {
		kept = 1
	}
	if pj.End < 0 || pj.End > len(pj.Base) || pj.Start < 0 || pj.Start > pj.End || pj.Leading < 0 || pj.Trailing < 0 || len(pj.Replacement) != kept+pj.Leading+1+len(pj.Pinned)+pj.Trailing || !pinsIn(pj.Pinned, pj.Start, pj.End) {
		return kompact.Outcome{}, kompact.Errorf(kompact.EInternal, "a stored preview is inconsistent: range [%d, %d) of %d messages, %d replacing", pj.Start, pj.End, len(pj.Base), len(pj.Replacement))
	}
	base := &kompact.Session{ID: pj.SessionID, Agent: pj.Agent, CompactionModel: pj.CompactionModel, Messages: pj.Base}
	compacted := *base
	compacted.Messages = slices.Concat(pj.Replacement, pj.Base[pj.End:])
	r := &kompact.Result{
		Type:           pj.Type,
		Session:        &compacted,
		SummaryMessage: pj.Replacement[kept+pj.Leading],
		Summary:        pj.Summary, MissingSections: pj.MissingSections, Usage: pj.Usage,
		Compacted: pj.Compacted, Preserved: pj.Preserved, TokensBefore: pj.TokensBefore, TokensAfter: pj.TokensAfter,
		Prompt:   kompact.Prompt{Body: pj.PromptBody, Source: pj.PromptSource, Origin: pj.PromptOrigin},
		Fidelity: pj.Fidelity, EstimatedTokenCount: pj.EstimatedTokenCount,
		Span: &kompact.Span{Session: base, Start: pj.Start, End: pj.End, KeepSystem: pj.KeepSystem, Dropped: pj.Dropped, Pinned: pj.Pinned,
			Leading: pj.Leading, Trailing: pj.Trailing},
		MinRecall: pj.MinRecall,
	}
	if r.Fidelity == nil { // kept before fidelity reports
		f := fidelity.MeasureFidelity(fidelity.SpanArtifacts(r.Span), r.Summary)
		r.Fidelity = &f
	}
	if pj.Kimi != nil {
		base.Kimi = pj.Kimi.Context
		r.KimiMessages = compacted.Messages
		if r.EstimatedTokenCount == 0 {
			r.EstimatedTokenCount = pj.Kimi.EstimatedTokenCount
		}
	}
	return kompact.Outcome{Status: kompact.OutcomeCompacted, Result: r, Model: pj.Model}, nil
}

// previewCounts returns the counts (Plan.Counts) of the compaction a
// stored preview body holds, without decoding its messages.
func previewCounts(data []byte) (kompact.PlanCounts, error) {
	var pj struct {
		Base       []struct{} `json:"base"`
		Elided     int        `json:"elided"`
		Start      int        `json:"start"`
		End        int        `json:"end"`
		KeepSystem bool       `json:"keep_system"`
		Pinned     []int      `json:"pinned"`
	}
	if err := json.Unmarshal(data, &pj); err != nil {
		return kompact.PlanCounts{}, kompact.Errorf(kompact.EInternal, "a stored preview does not decode: %w", err)
	}
	pj.Base = make([]struct{}, max(pj.Elided, 0)+len(pj.Base))
	if pj.End < 0 || pj.End > len(pj.Base) || pj.Start < 0 || pj.Start > pj.End || (pj.KeepSystem && pj.End == 0) || !pinsIn(pj.Pinned, pj.Start, pj.End) {
		return kompact.PlanCounts{}, kompact.Errorf(kompact.EInternal, "a stored preview is inconsistent: range [%d, %d) of %d messages", pj.Start, pj.End, len(pj.Base))
	}
	p := kompact.Span{Session: &kompact.Session{Messages: make([]kompact.Message, len(pj.Base))}, Start: pj.Start, End: pj.End, KeepSystem: pj.KeepSystem, Pinned: pj.Pinned}
	return p.Counts(), nil
}

// pinsIn reports whether pinned are indexes of [start, end), in order.
func pinsIn(pinned []int, start, end int) bool {
	for k, i := range pinned {
		if i < start || i >= end || k > 0 && i <= pinned[k-1] {
			return false
		}
	}
	return true
}
