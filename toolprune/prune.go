// Package toolprune clears the text of old, long tool results: the session
// action prune_tool_results and the first step of automatic compaction when
// an agent's compaction.prune is enabled (docs/compaction.md, "Pruning tool
// output"). It makes no LLM call. Each cleared output becomes a one-line
// marker that keeps what a summary loses most: the tool's name and the
// output's size, its exit status or first error, and the file paths it
// named. Tool calls and their arguments are never touched.
package toolprune

import (
	"strings"

	"kompact"
	"kompact/fidelity"
)

// The defaults of the action's body fields and of compaction.prune.
const (
	// DefaultKeepRecent is how many of the latest tool exchanges (an
	// assistant message with tool calls and the results answering it) are
	// kept whole.
	DefaultKeepRecent = 5
	// DefaultMinChars: only a result whose text is longer than this many
	// code points is cleared.
	DefaultMinChars = 2000
	// MaxSetting bounds keep_recent and min_chars.
	MaxSetting = 1_000_000
)

// MarkerPrefix opens every marker; a result whose text starts with it was
// cleared already and is never cleared again.
const MarkerPrefix = "[tool output cleared by kompact: "

// Options are one pruning's settings.
type Options struct {
	KeepRecent, MinChars int
	// Pinned are the indexes of messages never cleared: the session's
	// pinned messages and their tool exchanges (service.PinnedIndexes).
	Pinned map[int]bool
}

// OptionsOf returns o's settings with the defaults for those not set.
func OptionsOf(o kompact.PruneOptions) Options {
	opts := Options{KeepRecent: DefaultKeepRecent, MinChars: DefaultMinChars}
	if o.KeepRecent != nil {
		opts.KeepRecent = *o.KeepRecent
	}
	if o.MinChars != nil {
		opts.MinChars = *o.MinChars
	}
	return opts
}

// Check refuses settings out of bounds, with a fix.
func (o Options) Check() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"keep_recent", o.KeepRecent}, {"min_chars", o.MinChars}} {
		if f.v < 0 || f.v > MaxSetting {
			return kompact.Errorf(kompact.EInvalid, "%s is %d; it must be from 0 to %d", f.name, f.v, MaxSetting).
				WithFixes("Leave " + f.name + " out for its default, or give a whole number from 0 to 1000000.")
		}
	}
	return nil
}

// Cleared describes one cleared tool result.
type Cleared struct {
	// Message is the result's id, or #N (its 1-based position) without one.
	Message string `json:"message"`
	Tool    string `json:"tool"`
	// Chars counts the code points of the text it had.
	Chars  int    `json:"chars"`
	Marker string `json:"marker"`
}

// Result is a pruning: the session's messages with the old, long tool
// outputs cleared, and what was cleared.
type Result struct {
	// Base is the messages pruned; Messages the same list with the cleared
	// results replaced (the others shared with Base). End is one past the
	// last cleared result: Base[End:] is unchanged.
	Base, Messages []kompact.Message
	End            int
	Cleared        []Cleared
	// Options are the settings it ran with.
	Options Options
	// ClearedChars counts the code points of the cleared texts;
	// TokensBefore and TokensAfter are kimi-cli's estimate of the whole
	// session before and after.
	ClearedChars              int
	TokensBefore, TokensAfter int
	// PinnedKept counts the pinned results it left whole that it would
	// have cleared otherwise (old and long enough).
	PinnedKept int
	// Fidelity says which artifacts of the cleared texts their markers
	// keep.
	Fidelity kompact.Fidelity
}

// Noop reports whether the pruning cleared nothing.
func (r *Result) Noop() bool { return len(r.Cleared) == 0 }

// Prune clears the text of every tool result of msgs older than the last
// o.KeepRecent tool exchanges whose text is longer than o.MinChars code
// points (and longer than its marker), and was not cleared already nor is
// pinned (o.Pinned). msgs
// is not modified. It takes time linear in the size of msgs.
func Prune(msgs []kompact.Message, o Options) *Result {
	r := &Result{Base: msgs, Messages: msgs, Options: o}
	before := 0
	for i := range msgs {
		before += msgs[i].TextLen()
	}
	r.TokensBefore, r.TokensAfter = kompact.CharsToTokens(before), kompact.CharsToTokens(before)
	cut := recentStart(msgs, o.KeepRecent)
	names := map[string]string{}
	var originals []kompact.Message
	var markers strings.Builder
	after := before
	for i := 0; i < cut; i++ {
		m := &msgs[i]
		for _, c := range m.ToolCalls {
			names[c.ID] = c.Name
		}
		n := m.TextLen()
		if m.Role != kompact.RoleTool || n <= o.MinChars || cleared(m) {
			continue
		}
		if o.Pinned[i] {
			r.PinnedKept++
			continue
		}
		marker := Marker(toolName(m, names), n, m)
		if len([]rune(marker)) >= n {
			continue
		}
		if len(r.Cleared) == 0 {
			r.Messages = append([]kompact.Message(nil), msgs...)
		}
		r.Messages[i] = withMarker(m, marker)
		r.End = i + 1
		r.Cleared = append(r.Cleared, Cleared{Message: nameOf(m, i), Tool: toolName(m, names), Chars: n, Marker: marker})
		r.ClearedChars += n
		after += len([]rune(marker)) - n
		originals = append(originals, *m)
		markers.WriteString(marker)
		markers.WriteByte('\n')
	}
	r.TokensAfter = kompact.CharsToTokens(after)
	r.Fidelity = fidelity.MeasureFidelity(fidelity.Artifacts(originals), markers.String())
	return r
}

// recentStart returns the index of the first message of the last keep tool
// exchanges: the keep-th assistant message with tool calls from the end;
// len(msgs) when keep is 0, and 0 when msgs holds no more than keep.
func recentStart(msgs []kompact.Message, keep int) int {
	if keep == 0 {
		return len(msgs)
	}
	seen := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == kompact.RoleAssistant && len(msgs[i].ToolCalls) > 0 {
			if seen++; seen == keep {
				return i
			}
		}
	}
	return 0
}

// cleared reports whether m's text is a marker already.
func cleared(m *kompact.Message) bool {
	for i := range m.Content {
		if m.Content[i].Type == kompact.PartText {
			return strings.HasPrefix(m.Content[i].Text, MarkerPrefix)
		}
	}
	return false
}

// toolName is the name of the call m answers, else m's own name, else
// "tool".
func toolName(m *kompact.Message, names map[string]string) string {
	if n := names[m.ToolCallID]; n != "" {
		return n
	}
	if m.Name != "" {
		return m.Name
	}
	return "tool"
}

// nameOf names the i-th message: its id, or #N.
func nameOf(m *kompact.Message, i int) string {
	if m.ID != "" {
		return m.ID
	}
	return "#" + itoa(i+1)
}

// withMarker returns m with its text parts replaced by one text part, the
// marker, where the first was; its other parts stay.
func withMarker(m *kompact.Message, marker string) kompact.Message {
	out := *m
	out.Content = make([]kompact.Part, 0, len(m.Content))
	done := false
	for _, p := range m.Content {
		switch {
		case p.Type != kompact.PartText:
			out.Content = append(out.Content, p)
		case !done:
			out.Content = append(out.Content, kompact.TextPart(marker))
			done = true
		}
	}
	return out
}

// Note is the revision's note: "pruned 12 tool results (48,213 chars)".
func (r *Result) Note() string {
	return "pruned " + kompact.CountOf(len(r.Cleared), "tool result") + " (" + thousands(r.ClearedChars) + " chars)"
}

// Commit returns the commit that stores r, a prune revision: Base[:End]
// replaced by the same messages with the cleared results' markers (the
// others written again unchanged, as a compaction writes its kept
// messages). account is the session's token account when it was read: the
// figure recorded is its total less the estimated saving (the store
// estimates when the account is empty).
func (r *Result) Commit(account kompact.TokenAccount) kompact.Commit {
	c := kompact.Commit{Base: r.Base, End: r.End, Replacement: r.Messages[:r.End], Kind: kompact.RevisionPrune, Note: r.Note()}
	if total := account.WithPending(); total > 0 {
		c.TokenCount = max(1, total-(r.TokensBefore-r.TokensAfter))
	}
	f := r.Fidelity
	c.Fidelity = &f
	return c
}

// MaxListed bounds the cleared results a Report lists; Results counts them
// all.
const MaxListed = 200

// Report is what a pruning cleared, as the action's answer and the CLI's
// --json show it (docs/http-api.md, "Pruning tool output").
type Report struct {
	// Results counts the cleared tool results, Chars their text's code
	// points; Cleared lists the first MaxListed.
	Results int       `json:"cleared_results"`
	Chars   int       `json:"cleared_chars"`
	Cleared []Cleared `json:"cleared"`
	// KeepRecent and MinChars are the settings it ran with.
	KeepRecent int `json:"keep_recent"`
	MinChars   int `json:"min_chars"`
	// TokensBefore and TokensAfter are kimi-cli's estimate of the session.
	TokensBefore int               `json:"estimated_tokens_before"`
	TokensAfter  int               `json:"estimated_tokens_after"`
	Fidelity     *kompact.Fidelity `json:"fidelity"`
}

// Report returns r's report.
func (r *Result) Report() *Report {
	f := r.Fidelity
	list := r.Cleared
	if len(list) > MaxListed {
		list = list[:MaxListed]
	}
	if list == nil {
		list = []Cleared{}
	}
	return &Report{Results: len(r.Cleared), Chars: r.ClearedChars, Cleared: list, KeepRecent: r.Options.KeepRecent, MinChars: r.Options.MinChars,
		TokensBefore: r.TokensBefore, TokensAfter: r.TokensAfter, Fidelity: &f}
}

// The statuses of an Outcome.
const (
	StatusPruned = "pruned"
	StatusNoop   = "noop"
	StatusError  = "error"
)

// Outcome is how a prune_tool_results action ended: pruned (Revision is
// the revision it recorded, Version the session's version after it), noop
// (Reason says why) or error.
type Outcome struct {
	Status   string         `json:"status"`
	Reason   string         `json:"reason,omitempty"`
	Error    *kompact.Error `json:"error,omitempty"`
	Revision int64          `json:"revision,omitempty"`
	Version  int64          `json:"version,omitempty"`
	Prune    *Report        `json:"prune,omitempty"`
}

// NoopReason says why a pruning with settings o that cleared nothing did
// so, with none of the results it would clear pinned.
func NoopReason(o Options) string {
	return "no tool result older than the last " + kompact.CountOf(o.KeepRecent, "tool exchange") + " has more than " + thousands(o.MinChars) + " characters of text"
}

// NoopReason says why r cleared nothing: NoopReason of its settings, and
// the pinned results it left whole, when some would have been cleared
// without their pin.
func (r *Result) NoopReason() string {
	why := NoopReason(r.Options)
	if r.PinnedKept == 0 {
		return why
	}
	them := "them"
	if r.PinnedKept == 1 {
		them = "it"
	}
	return why + " but " + kompact.CountOf(r.PinnedKept, "pinned result") + ", which a prune never clears (unpin " + them + " to prune " + them + ")"
}

// ErrorOutcome is the error outcome of err.
func ErrorOutcome(err error) *Outcome {
	return &Outcome{Status: StatusError, Error: kompact.AsError(err)}
}
