package service

import (
	"slices"
	"strconv"
	"strings"

	"kompact"
	"kompact/fidelity"
)

// Pinned messages (kompact.Session.Pinned, docs/compaction.md "Pinned
// messages") are kept at the seam, for every compaction type: the type
// plans the session, and when its range holds pinned messages it plans
// again a view of the session without them, with the same range. Its
// request never shows them; its result is put back in the session's
// terms (pinning.toBase) with the pinned messages verbatim, in order,
// right after the summary. Without pins in the range, the type's plan is
// used as it is: every byte stays what it was.

// pinning is a compaction's pinned messages: the session it read (base),
// the view without the range's pinned messages, and the range in base
// (span, whose Pinned lists them).
type pinning struct {
	base, view *kompact.Session
	span       kompact.Span
}

// pinPlan returns plan, a's type's plan of s, or, when the range it
// replaces holds pinned messages, the plan of the view without them.
func pinPlan(t kompact.CompactionType, a *kompact.Agent, s *kompact.Session, req kompact.ActionRequest, prompt kompact.Prompt, plan kompact.CompactionPlan) (kompact.CompactionPlan, error) {
	info := plan.About()
	if len(s.Pinned) == 0 || info.Noop {
		return plan, nil
	}
	span := info.Span
	span.Pinned = pinnedIn(s, span)
	if len(span.Pinned) == 0 {
		return plan, nil
	}
	if span.Counts().Replaced == 0 {
		return allPinned{info: info}, nil
	}
	pin := &pinning{base: s, span: span}
	pin.view = pin.viewOf(s.Messages)
	req.Start, req.End, req.MessageID = pin.ref(req.Start, false), pin.ref(req.End, true), pin.ref(req.MessageID, true)
	inner, err := t.Plan(a, pin.view, req, prompt)
	if err != nil {
		return nil, err
	}
	got := inner.About()
	if !got.Noop && (got.Span.Start != pin.viewIndex(span.Start) || got.Span.End != pin.viewIndex(span.End)) {
		return nil, kompact.Errorf(kompact.EInternal, "compaction type %s planned another range once the pinned messages were left out; nothing was changed", t.Name()).
			WithFixes("Unpin the messages of the range, or compact with the kimi type.")
	}
	return &pinnedPlan{CompactionPlan: inner, pin: pin}, nil
}

// pinnedIn returns the indexes of s's pinned messages in span's range, in
// order: a pinned message of a tool exchange pins the whole exchange (the
// assistant message with the calls and every result answering them). A
// pin that names no message (one a restore took away) is passed over; a
// leading system message the range keeps is kept anyway.
func pinnedIn(s *kompact.Session, span kompact.Span) []int {
	msgs := s.Messages
	callAt := map[string]int{}
	for i := span.Start; i < span.End; i++ {
		for _, c := range msgs[i].ToolCalls {
			callAt[c.ID] = i
		}
	}
	pinned := map[int]bool{}
	for _, i := range locate(s, s.Pinned) {
		if i < span.Start || i >= span.End || span.KeepSystem && i == 0 {
			continue
		}
		pinned[i] = true
		if at, ok := callAt[msgs[i].ToolCallID]; ok && msgs[i].Role == kompact.RoleTool {
			pinned[at] = true
		}
	}
	for i := span.Start; i < span.End; i++ { // the results of every pinned call
		if at, ok := callAt[msgs[i].ToolCallID]; ok && msgs[i].Role == kompact.RoleTool && pinned[at] {
			pinned[i] = true
		}
	}
	out := make([]int, 0, len(pinned))
	for i := range pinned {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}

// PinnedIndexes returns the indexes of s's pinned messages and of the
// rest of their tool exchanges, in the whole session: what a prune leaves
// alone (toolprune.Options.Pinned); nil when s pins none.
func PinnedIndexes(s *kompact.Session) map[int]bool {
	if len(s.Pinned) == 0 {
		return nil
	}
	out := map[int]bool{}
	for _, i := range pinnedIn(s, kompact.Span{Session: s, End: len(s.Messages)}) {
		out[i] = true
	}
	return out
}

// locate returns the indexes of the messages refs name, as Session.Locate
// reads a ref (an id, else #N), in one pass over s's messages whatever the
// number of refs; a ref that names no message is left out.
func locate(s *kompact.Session, refs []string) []int {
	at := make(map[string]int, len(refs))
	for _, r := range refs {
		at[r] = -1
	}
	for i := range s.Messages {
		if j, ok := at[s.Messages[i].ID]; ok && j < 0 && s.Messages[i].ID != "" {
			at[s.Messages[i].ID] = i
		}
	}
	out := make([]int, 0, len(refs))
	for _, r := range refs {
		i := at[r]
		if n, ok := strings.CutPrefix(r, "#"); ok && i < 0 {
			if k, err := strconv.Atoi(n); err == nil && k >= 1 && k <= len(s.Messages) {
				i = k - 1
			}
		}
		if i >= 0 {
			out = append(out, i)
		}
	}
	return out
}

// viewOf returns the session without the pinned messages of msgs (base's
// or a result's in base form, whose pinned ones are at p.span.Pinned).
func (p *pinning) viewOf(msgs []kompact.Message) *kompact.Session {
	v := *p.base
	v.Pinned = nil
	v.Messages = make([]kompact.Message, 0, len(msgs)-len(p.span.Pinned))
	next := 0
	for _, i := range p.span.Pinned {
		v.Messages = append(v.Messages, msgs[next:i]...)
		next = i + 1
	}
	v.Messages = append(v.Messages, msgs[next:]...)
	return &v
}

// viewIndex returns the view's index of base index i: how many messages
// before i are not pinned.
func (p *pinning) viewIndex(i int) int {
	n, _ := slices.BinarySearch(p.span.Pinned, i)
	return i - n
}

// ref returns ref, a message of base, as the view names it: a pinned
// message stands for the next message (an end: the one before) that is
// not pinned. An empty ref, or one no message answers, stays as it is.
func (p *pinning) ref(ref string, end bool) string {
	i, err := p.base.Locate(ref)
	if ref == "" || err != nil {
		return ref
	}
	step := 1
	if end {
		step = -1
	}
	for _, pinned := slices.BinarySearch(p.span.Pinned, i); pinned; _, pinned = slices.BinarySearch(p.span.Pinned, i) {
		i += step
	}
	v := p.viewIndex(i)
	if i < 0 || v >= len(p.view.Messages) {
		return ref
	}
	if id := p.view.Messages[v].ID; id != "" {
		return id
	}
	return "#" + strconv.Itoa(v+1)
}

// pinnedPlan is the type's plan of the view, describing and applying
// itself in the base session's terms.
type pinnedPlan struct {
	kompact.CompactionPlan
	pin *pinning
}

// About is the inner plan's, with the range in base.
func (p *pinnedPlan) About() kompact.PlanInfo {
	info := p.CompactionPlan.About()
	if info.Noop {
		info.Span = kompact.Span{Session: p.pin.base}
		return info
	}
	span := p.pin.span
	span.Dropped = info.Span.Dropped
	info.Span = span
	return info
}

// Counts divide base: the range's pinned messages apart.
func (p *pinnedPlan) Counts() kompact.PlanCounts {
	if p.CompactionPlan.About().Noop {
		return kompact.PlanCounts{After: len(p.pin.base.Messages)}
	}
	span := p.About().Span
	return span.Counts()
}

// Shrink shrinks the inner plan.
func (p *pinnedPlan) Shrink() kompact.CompactionPlan {
	q := p.CompactionPlan.Shrink()
	if q == nil {
		return nil
	}
	return &pinnedPlan{CompactionPlan: q, pin: p.pin}
}

// TokensBefore estimates base's tokens, as a plan of base would.
func (p *pinnedPlan) TokensBefore() int {
	p.CompactionPlan.TokensBefore()
	return kompact.EstimateTokens(p.pin.base.Messages)
}

// Apply applies the inner plan and puts its result in base's terms.
func (p *pinnedPlan) Apply(answer kompact.Answer) (*kompact.Result, error) {
	r, err := p.CompactionPlan.Apply(answer)
	if err != nil {
		return nil, err
	}
	return p.pin.toBase(r), nil
}

// pinned returns the range's pinned messages, in order.
func (p *pinning) pinned() []kompact.Message {
	out := make([]kompact.Message, len(p.span.Pinned))
	for k, i := range p.span.Pinned {
		out[k] = p.base.Messages[i]
	}
	return out
}

// toBase returns r, a result of the view, in base's terms: the pinned
// messages right after the summary (in KimiMessages too), the range in
// base, the estimates with them, and the fidelity report with their texts
// counted as keeping what they hold.
func (p *pinning) toBase(r *kompact.Result) *kompact.Result {
	out := *r
	pins := p.pinned()
	at := r.SummaryAt() + 1
	sess := *r.Session
	sess.Messages = slices.Concat(r.Session.Messages[:at], pins, r.Session.Messages[at:])
	sess.Pinned = p.base.Pinned
	out.Session = &sess
	if r.KimiMessages != nil {
		k := len(r.KimiMessages) - (len(r.Session.Messages) - at)
		out.KimiMessages = slices.Concat(r.KimiMessages[:k], pins, r.KimiMessages[k:])
	}
	span := p.span
	span.Dropped = r.Dropped()
	if r.Span != nil { // the type's own messages around the summary
		span.Leading, span.Trailing = r.Span.Leading, r.Span.Trailing
	}
	out.Span = &span
	extra := kompact.EstimateTokens(pins)
	out.TokensBefore = kompact.EstimateTokens(p.base.Messages)
	out.TokensAfter += extra
	out.EstimatedTokenCount += extra
	if r.Fidelity != nil && r.Span != nil {
		f := fidelity.MeasureFidelity(fidelity.SpanArtifacts(r.Span), r.Summary+"\n"+pinnedText(pins))
		f.Appendix = r.Fidelity.Appendix
		f.Pinned = len(fidelity.Artifacts(pins))
		out.Fidelity = &f
	}
	return &out
}

// toView returns r, a result in base's terms, as the view's result it was.
func (p *pinning) toView(r *kompact.Result) *kompact.Result {
	out := *r
	at := r.SummaryAt() + 1
	n := len(p.span.Pinned)
	sess := *r.Session
	sess.Messages = slices.Concat(r.Session.Messages[:at], r.Session.Messages[at+n:])
	out.Session = &sess
	if r.KimiMessages != nil {
		k := len(r.KimiMessages) - (len(r.Session.Messages) - at)
		out.KimiMessages = slices.Concat(r.KimiMessages[:k], r.KimiMessages[k+n:])
	}
	extra := kompact.EstimateTokens(p.pinned())
	out.TokensAfter -= extra
	out.EstimatedTokenCount -= extra
	span := p.span
	span.Session, span.Pinned = p.view, nil
	span.Start, span.End, span.Dropped = p.viewIndex(span.Start), p.viewIndex(span.End), r.Dropped()
	out.Span = &span
	return &out
}

// pinnedText is what the pinned messages say, for the fidelity report: an
// artifact they hold is kept by definition.
func pinnedText(msgs []kompact.Message) string {
	var b strings.Builder
	for i := range msgs {
		for _, part := range msgs[i].Content {
			b.WriteString(part.Text)
			b.WriteByte('\n')
		}
		for _, c := range msgs[i].ToolCalls {
			if b.WriteString(c.Name + "\n"); c.Arguments != nil {
				b.WriteString(*c.Arguments + "\n")
			}
		}
	}
	return b.String()
}

// pinningOf returns the pinning of r, a result in base's terms; nil when
// it keeps no pinned message.
func pinningOf(r *kompact.Result) *pinning {
	if r.Span == nil || len(r.Span.Pinned) == 0 {
		return nil
	}
	p := &pinning{base: r.Span.Session, span: *r.Span}
	p.span.Dropped = 0
	p.view = p.viewOf(p.base.Messages)
	return p
}

// withSummary is t.WithSummary of r (a person's summary in place of the
// model's), the pinned messages kept.
func withSummary(t kompact.CompactionType, r *kompact.Result, summary string) *kompact.Result {
	p := pinningOf(r)
	if p == nil {
		return t.WithSummary(r, summary)
	}
	out := p.toBase(t.WithSummary(p.toView(r), summary))
	out.Span.Dropped = r.Dropped()
	return out
}

// allPinned is the no-op plan of a range whose messages are all pinned.
type allPinned struct{ info kompact.PlanInfo }

func (p allPinned) About() kompact.PlanInfo {
	return kompact.PlanInfo{Noop: true, Reason: "every message of the range is pinned; there is nothing to summarise",
		Span: kompact.Span{Session: p.info.Span.Session}, Prompt: p.info.Prompt, Instructions: p.info.Instructions}
}
func (p allPinned) Counts() kompact.PlanCounts {
	return kompact.PlanCounts{After: len(p.info.Span.Session.Messages)}
}
func (allPinned) RequestMessages() []kompact.Message { return nil }
func (allPinned) LimitCompletion(_ *kompact.Agent, fields map[string]any, _ int) (map[string]any, int) {
	return fields, 0
}
func (allPinned) Shrink() kompact.CompactionPlan { return nil }
func (p allPinned) Apply(kompact.Answer) (*kompact.Result, error) {
	return nil, kompact.Errorf(kompact.EInvalid, "nothing to apply: %s", p.About().Reason)
}
func (p allPinned) TokensBefore() int { return kompact.EstimateTokens(p.info.Span.Session.Messages) }
