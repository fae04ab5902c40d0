package kimi

import (
	"strconv"
	"strings"
	"sync"

	"kompact"
	"kompact/fidelity"
)

// CompactorSystemPrompt is the system message of every compaction request,
// the same generic compactor prompt kimi-cli sends.
const CompactorSystemPrompt = "You are a helpful assistant that compacts conversation context."

// instructionIntro introduces custom instructions at the end of the prompt
// part, as kimi-cli does.
const instructionIntro = "\n\n**User's Custom Compaction Instruction:**\n" +
	"The user has specifically requested the following focus during compaction. " +
	"You MUST prioritize this instruction above the default compression priorities:\n"

// Options says what to compact and how.
type Options struct {
	// MaxPreserved is how many trailing user/assistant messages stay verbatim
	// when End is empty. Values <= 0 make compaction a no-op, as in kimi-cli.
	// Use DefaultMaxPreserved for kimi-cli's default.
	MaxPreserved int
	// Instructions are the user's custom focus, appended to the prompt. Any
	// non-empty value is appended, even white space only.
	Instructions string
	// Start names the first message of the range (see Session.Locate);
	// empty means the first message of the session.
	Start string
	// End names the last message of the range, inclusive. When set, the range
	// is compacted exactly and no tail is preserved; when empty, the range
	// runs to the end of the session and the preserved tail applies.
	End string
	// Prompt is the prompt body; the zero value means BuiltinPrompt().
	Prompt kompact.Prompt
	// Fidelity says when the result warns of low fidelity and whether the
	// summary gets the preserved_artifacts appendix; the zero value is off.
	// It never changes the request.
	Fidelity kompact.FidelityOptions
}

// Plan is the outcome of Prepare: either a no-op with its reason, or the
// range to compact and the synthetic request message that describes it.
type Plan struct {
	// Span is what the plan replaces (its Dropped counts the oldest
	// compacted messages left out of the request, see DropOldest).
	kompact.Span
	// Noop is true when there is nothing to compact; Reason says why.
	Noop   bool
	Reason string
	// Transcript is the synthetic user message: one header part per compacted
	// message followed by its text parts, then the prompt part.
	Transcript kompact.Message
	Prompt     kompact.Prompt
	// Explicit is true when the range had an explicit end.
	Explicit bool
	// Fidelity is the options' Fidelity: Apply uses it.
	Fidelity     kompact.FidelityOptions
	instructions string
	// tokensBefore is the session's token estimate, made once (a
	// sync.OnceValue, shared by the copies DropOldest makes): Job.Run
	// starts it while the LLM works, Apply waits for it. Nil in a Plan
	// built by hand, where Apply makes it.
	tokensBefore func() int
}

// TokensBefore estimates the whole session's tokens (EstimateTokens), once
// for the plan and the plans DropOldest makes from it.
func (p *Plan) TokensBefore() int {
	if p.tokensBefore == nil {
		return kompact.EstimateTokens(p.Session.Messages)
	}
	return p.tokensBefore()
}

// DropOldest returns a copy of p whose request leaves out the oldest quarter
// (at least one) of the messages the request still shows, for a provider
// whose context window the request exceeds. The range replaced by the
// summary does not change. It returns nil when the request shows a single
// message and cannot shrink further.
func (p *Plan) DropOldest() *Plan {
	shown := p.End - p.Start - p.Dropped
	if p.Noop || shown <= 1 {
		return nil
	}
	n := shown / 4
	if n < 1 {
		n = 1
	}
	q := *p
	q.Dropped += n
	q.Transcript = buildRequest(p.Session.Messages[p.Start+q.Dropped:p.End], p.Prompt.Body, p.instructions)
	return &q
}

// Counts says how many messages the compaction replaces, keeps before the
// summary (Kept: the unselected messages before the range, or the leading
// system message the range starts with, which is kept, not replaced) and
// keeps after it (Preserved). A no-op replaces none and keeps all after.
// Every surface that describes a plan (the HTTP dry run, the CLI's
// report) gives these figures.
func (p *Plan) Counts() kompact.PlanCounts {
	if p.Noop {
		return kompact.PlanCounts{After: len(p.Session.Messages)}
	}
	return p.Span.Counts()
}

// Preserved returns kimi-cli's to_preserve: every message after the compacted
// range, or the whole session for a no-op.
func (p *Plan) Preserved() []kompact.Message {
	if p.Noop {
		return p.Session.Messages
	}
	return p.Session.Messages[p.End:]
}

// RequestMessages returns the two messages of the compaction request: the
// compactor system prompt and the synthetic user message. It is nil for a
// no-op.
func (p *Plan) RequestMessages() []kompact.Message {
	if p.Noop {
		return nil
	}
	return []kompact.Message{
		{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart(CompactorSystemPrompt)}},
		p.Transcript,
	}
}

func noop(s *kompact.Session, reason string) *Plan {
	return &Plan{Span: kompact.Span{Session: s}, Noop: true, Reason: reason}
}

// Prepare selects what to compact in s and builds the compaction request, as
// kimi-cli's SimpleCompaction.prepare does, with range selection on top.
// It returns a no-op plan when there is nothing to compact, and an error
// when the options do not fit the session. Every plan, a no-op too, names
// the prompt a compaction would use.
//
// A kimi-cli session (Session.Kimi) is compacted as kimi-cli compacts its
// file: its system prompt message is not history (the plan is the one its
// other messages would have alone, a range never starts at it), and no
// leading system message is kept.
func Prepare(s *kompact.Session, opt Options) (*Plan, error) {
	var p *Plan
	var err error
	if off := s.Kimi.History(s.Messages); off > 0 {
		p, err = prepareHistory(s, opt, off)
	} else {
		p, err = prepare(s, opt)
	}
	if p != nil && p.Noop {
		p.Prompt = promptOf(opt)
	}
	if p != nil && s.Kimi != nil {
		p.KeepSystem = false
	}
	return p, err
}

// prepareHistory prepares the compaction of s's messages from off on, as
// if they were the whole session, and returns the plan for s.
func prepareHistory(s *kompact.Session, opt Options, off int) (*Plan, error) {
	view := *s
	view.Messages, view.Kimi = s.Messages[off:], nil
	var err error
	if opt.Start, err = historyRef(s, opt.Start, off, false); err != nil {
		return nil, err
	}
	if opt.End, err = historyRef(s, opt.End, off, true); err != nil {
		return nil, err
	}
	p, err := prepare(&view, opt)
	if err != nil {
		return nil, err
	}
	p.Session = s
	if !p.Noop {
		p.Start, p.End = p.Start+off, p.End+off
	}
	return p, nil
}

// historyRef turns ref, a message of s, into the reference of the same
// message among s's messages from off on: a range starting before them
// starts at the first; one ending before them is EInvalid.
func historyRef(s *kompact.Session, ref string, off int, end bool) (string, error) {
	if ref == "" {
		return "", nil
	}
	i, err := s.Locate(ref)
	if err != nil {
		return "", err
	}
	if i < off {
		if end {
			return "", kompact.Errorf(kompact.EInvalid, "the range ends at the session's system prompt (%s), which is not part of the kimi-cli history", ref).
				WithFixes("End the range at a later message.")
		}
		i = off
	}
	if i < len(s.Messages) && s.Messages[i].ID != "" {
		return s.Messages[i].ID, nil
	}
	return "#" + strconv.Itoa(i-off+1), nil
}

// promptOf is the prompt a compaction with opt uses: opt's, else the
// built-in one.
func promptOf(opt Options) kompact.Prompt {
	if opt.Prompt.Body == "" {
		return BuiltinPrompt()
	}
	return opt.Prompt
}

func prepare(s *kompact.Session, opt Options) (*Plan, error) {
	msgs := s.Messages
	start, end := 0, 0
	if opt.Start != "" {
		i, err := s.Locate(opt.Start)
		if err != nil {
			return nil, err
		}
		start = i
	}
	explicit := opt.End != ""
	if explicit {
		i, err := s.Locate(opt.End)
		if err != nil {
			return nil, err
		}
		if i < start {
			return nil, kompact.Errorf(kompact.EInvalid, "the range ends (%s, message %d) before it starts (%s, message %d)",
				opt.End, i+1, opt.Start, start+1).WithFixes("Swap start and end, or pick an end at or after the start.")
		}
		end = i + 1
		if start == 0 && end == 1 && msgs[0].Role == kompact.RoleSystem {
			return noop(s, "the selection holds only the leading system message, which is always kept"), nil
		}
	} else {
		switch {
		case len(msgs) == 0:
			return noop(s, "the session has no messages"), nil
		case opt.MaxPreserved <= 0:
			return noop(s, "max_preserved_messages is "+strconv.Itoa(opt.MaxPreserved)+
				"; kimi-cli never compacts unless it is at least 1"), nil
		}
		n, cut := 0, len(msgs)
		for i := len(msgs) - 1; i >= start; i-- {
			if msgs[i].Role == kompact.RoleUser || msgs[i].Role == kompact.RoleAssistant {
				n++
				if n == opt.MaxPreserved {
					cut = i
					break
				}
			}
		}
		if n < opt.MaxPreserved {
			return noop(s, "only "+strconv.Itoa(n)+" user/assistant messages in the range and "+
				strconv.Itoa(opt.MaxPreserved)+" are preserved, so nothing is left to compact"), nil
		}
		if cut == start {
			return noop(s, "every message in the range is part of the preserved tail"), nil
		}
		end = cut
	}
	if i, ok := onlySummary(msgs, start, end); ok {
		return noop(s, messageName(s, i)+" is an earlier summary and the only message to compact; compacting it again would not make the session smaller"), nil
	}
	prompt := promptOf(opt)
	p := &Plan{
		Span:     kompact.Span{Session: s, Start: start, End: end, KeepSystem: start == 0 && msgs[0].Role == kompact.RoleSystem},
		Prompt:   prompt,
		Explicit: explicit,
		Fidelity: opt.Fidelity,

		instructions: opt.Instructions,
		tokensBefore: sync.OnceValue(func() int { return kompact.EstimateTokens(msgs) }),
	}
	if err := checkToolPairs(s, start, end); err != nil {
		return nil, err
	}
	p.Transcript = buildRequest(msgs[start:end], prompt.Body, opt.Instructions)
	return p, nil
}

// buildRequest flattens msgs into the synthetic user message. All headers
// share one string and the parts one slice, so the number of allocations
// does not grow with the number of messages or parts.
func buildRequest(msgs []kompact.Message, prompt, instructions string) kompact.Message {
	const fixed = len("## Message \nRole: \nContent:\n")
	nparts, hlen := 1, 0
	for i := range msgs {
		nparts++
		hlen += fixed + digits(i+1) + len(msgs[i].Role)
		for j := range msgs[i].Content {
			if msgs[i].Content[j].Type == kompact.PartText {
				nparts++
			}
		}
	}
	var b strings.Builder
	b.Grow(hlen)
	var num [20]byte
	for i := range msgs {
		b.WriteString("## Message ")
		b.Write(strconv.AppendInt(num[:0], int64(i+1), 10))
		b.WriteString("\nRole: ")
		b.WriteString(string(msgs[i].Role))
		b.WriteString("\nContent:\n")
	}
	headers := b.String()
	parts := make([]kompact.Part, 0, nparts)
	off := 0
	for i := range msgs {
		h := fixed + digits(i+1) + len(msgs[i].Role)
		parts = append(parts, kompact.TextPart(headers[off:off+h]))
		off += h
		for j := range msgs[i].Content {
			if msgs[i].Content[j].Type == kompact.PartText {
				parts = append(parts, kompact.TextPart(msgs[i].Content[j].Text))
			}
		}
	}
	tail := "\n" + prompt
	if instructions != "" {
		tail += instructionIntro + instructions
	}
	parts = append(parts, kompact.TextPart(tail))
	return kompact.Message{Role: kompact.RoleUser, Content: parts}
}

func digits(n int) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}

// checkToolPairs refuses a selection whose edges separate an assistant tool
// call from its results: the next LLM call on such a session would be
// rejected. It names the message to choose instead.
func checkToolPairs(s *kompact.Session, start, end int) error {
	msgs := s.Messages
	// Where is each tool call made?
	callAt := make(map[string]int)
	for i := range msgs {
		for _, c := range msgs[i].ToolCalls {
			if c.ID != "" {
				callAt[c.ID] = i
			}
		}
	}
	if len(callAt) == 0 {
		return nil
	}
	for _, cut := range []int{start, end} {
		if cut <= 0 || cut >= len(msgs) {
			continue
		}
		// A result at or after the cut whose call is before it.
		for i := cut; i < len(msgs); i++ {
			if msgs[i].Role != kompact.RoleTool {
				continue
			}
			at, ok := callAt[msgs[i].ToolCallID]
			if !ok || at >= cut {
				continue
			}
			last := i
			for j := i + 1; j < len(msgs); j++ {
				if msgs[j].Role == kompact.RoleTool {
					if a, ok := callAt[msgs[j].ToolCallID]; ok && a == at {
						last = j
					}
				}
			}
			if cut == start {
				return kompact.Errorf(kompact.EInvalid, "the range starts at %s, but %s holds the tool call that %s answers; the call would be kept without its result",
					messageName(s, cut), messageName(s, at), messageName(s, i)).
					WithFixes("Start the range at " + messageName(s, at) + " instead, or after " + messageName(s, last) + ".")
			}
			return kompact.Errorf(kompact.EInvalid, "the range ends at %s, but %s answers the tool call in %s; the result would be kept without its call",
				messageName(s, cut-1), messageName(s, i), messageName(s, at)).
				WithFixes("End the range at " + messageName(s, last) + " instead, or before " + messageName(s, at) + ".")
		}
	}
	return nil
}

// onlySummary reports whether msgs[start:end], apart from a leading system
// message (always kept), is a single earlier summary, and returns its index.
func onlySummary(msgs []kompact.Message, start, end int) (int, bool) {
	if start == 0 && end > 0 && msgs[0].Role == kompact.RoleSystem {
		start = 1
	}
	if end-start != 1 {
		return 0, false
	}
	return start, kompact.IsSummary(msgs[start])
}

// Artifacts lists the artifacts of the messages the plan's summary
// replaces (SpanArtifacts); a no-op plan has none.
func (p *Plan) Artifacts() []kompact.Artifact {
	if p.Noop {
		return nil
	}
	return fidelity.SpanArtifacts(&p.Span)
}

// messageName names message i of s for people: its id, or #N.
func messageName(s *kompact.Session, i int) string {
	if id := s.Messages[i].ID; id != "" {
		return "message " + strconv.Quote(id)
	}
	return "message #" + strconv.Itoa(i+1)
}
