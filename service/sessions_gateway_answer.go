package service

import (
	"context"
	"strings"
	"time"

	"kompact"
)

// This file answers a client's own compaction request (docs/gateway.md,
// "Claude Code"): from the gateway's precomputed summary, or, when the
// request carries the user's own instructions, from a summary made now
// with them. The summary is committed as the session's revision, and the
// client gets its text, built from the committed result, so that the
// upstream never sees the request.

// GatewaySummary is a summary committed to answer a client's compaction
// request.
type GatewaySummary struct {
	// SessionID and Revision name the session and the revision the
	// summary was committed as.
	SessionID string
	Revision  int64
	// Summary is the summary's own text, as the model wrote it (with the
	// fidelity appendix when the agent asks for it), without the framing
	// of the session's summary message; Recent the client's messages
	// after it that the request holds, as text, for the client to keep.
	Summary string
	Recent  string
	// Tokens is the compaction's estimate of the session's tokens after.
	Tokens int
	// Manual says the summary was recorded as a manual compaction (a
	// person's /compact); Instructed that it was made now with the
	// request's instructions.
	Manual     bool
	Instructed bool
}

// GatewayAsk is what a client's compaction request asks of the gateway.
type GatewayAsk struct {
	// Wait waits for a precompute that runs (gateway.compaction: wait),
	// up to compaction.timeout.
	Wait bool
	// Instructions are the user's own instructions for this compaction
	// (Claude Code's /compact TEXT): the summary is then made now, with
	// them after the agent's and the session's standing instructions,
	// never taken from one made without them.
	Instructions string
	// AutoAt says whether the client compacts on its own at a session
	// token count, for a model's context window: a request at a count
	// where it does not is a person's (recorded as a manual
	// compaction). Nil: every request is the client's own
	// (auto_compaction). A request with Instructions is a person's.
	AutoAt func(tokens, window int) bool
	// Restated says whether the client sends a tool call of the named
	// tool again by itself after a compaction (Claude Code restates the
	// files it read), and Omit whether it does so for the request's
	// message i (one that holds only such calls' results): the answer
	// does not list them among the recent messages. Nil: none.
	Restated func(tool string) bool
	Omit     func(i int) bool
	// CompactNow is a face's policy for a request with no summary ready
	// (none precomputed, or, with Wait, none that finished in time):
	// compact the session now, within compaction.timeout, and answer
	// from it, as the upstream would have blocked on it (Codex's
	// compactions, which a non-OpenAI upstream cannot serve). False:
	// such a request goes upstream as it came (Claude Code's).
	CompactNow bool
	// Origin names the request in the revision's note, after
	// "precomputed" or "compacted now" ("Codex, remote"); "" for none.
	Origin string
}

// wants says whether a request asking ask may be answered for a session
// in state st at now: it carries instructions or compacts now, or a
// summary is ready, or one runs and it waits for it.
func (ask GatewayAsk) wants(st *GatewayState, now time.Time) bool {
	return ask.Instructions != "" || ask.CompactNow || st.PreviewID != "" || (ask.Wait && st.leased("", now))
}

// GatewayAnswerCompaction answers a client's compaction request for the
// session it belongs to: with a ready precomputed summary (waiting for
// one that runs when ask.Wait), or with one made now when the request
// carries instructions; it commits it and returns what to answer.
// history is the request without its instruction: only a session of
// agent a whose client messages it continues, as a turn's must
// (GatewayState.answerable), is answered for, found by n as a turn finds
// its session; so a client that names another's session, or shares its
// key, gets no summary of a history that is not its own. It returns nil
// when there is none: the request then goes upstream as it came, and the
// session is as it was (or keeps the revision committed, when only the
// answer failed). With ask.CompactNow, a request that finds no ready
// summary compacts the session now (compactNow) instead.
func (s *Sessions) GatewayAnswerCompaction(ctx context.Context, a *kompact.Agent, n GatewayNaming, history kompact.Conversation, ask GatewayAsk) *GatewaySummary {
	gs, ok := s.store.(kompact.GatewayStore)
	if !ok {
		return nil
	}
	history, ch, rec, st := s.answerableForm(ctx, a, gs, n, history)
	if rec == nil || !ask.wants(st, s.now()) {
		return nil
	}
	id := rec.SessionID
	owner := "lease_" + s.leaseID()
	if taken := s.waitLease(ctx, a, gs, id, owner); !taken {
		return nil
	}
	c, preview := s.answerCommitted(ctx, a, gs, id, owner, ch, ask)
	s.releaseLease(ctx, gs, id, owner, preview)
	if c == nil {
		return nil
	}
	sum := s.answerOf(ctx, id, c, history, ask)
	if sum != nil {
		s.recordAnswered(ctx, gs, id, sum.Summary)
	}
	return sum
}

// answerCommitted commits the summary that answers a request asking ask
// for session id, under owner's lease: one made now with the request's
// instructions; else the ready one, or, when there is none and the face
// compacts now (GatewayAsk.CompactNow), one made now. It returns the
// commit (nil for none) and what the lease's release records as the
// precomputed summary.
func (s *Sessions) answerCommitted(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, id, owner string, ch Chain, ask GatewayAsk) (*answerCommit, string) {
	if ask.Instructions != "" {
		return s.compactNow(ctx, a, gs, id, owner, ch, ask)
	}
	preview := keepPreview
	c, consumed := s.commitReady(ctx, a, gs, id, ch, ask)
	if consumed {
		preview = ""
	}
	if c == nil && ask.CompactNow {
		var p string
		if c, p = s.compactNow(ctx, a, gs, id, owner, ch, ask); p != keepPreview {
			preview = p
		}
	}
	return c, preview
}

// answerableForm finds the session a compaction request's history may
// be answered for (answerableSession), as sent or else in one of the forms
// the turns sent it in (ResentForms); it returns the form that matched and
// its chain.
func (s *Sessions) answerableForm(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, n GatewayNaming, history kompact.Conversation) (kompact.Conversation, Chain, *kompact.GatewayRecord, *GatewayState) {
	forms := []kompact.Conversation{history}
	if r, ok := history.(ResentForms); ok {
		forms = append(forms, r.ResentForms()...)
	}
	for _, h := range forms {
		ch := ChainOf(h)
		if rec, st := s.answerableSession(ctx, a, gs, n, h, ch); rec != nil {
			return h, ch, rec, st
		}
	}
	return history, nil, nil, nil
}

// answerableSession finds the session of agent a that a compaction
// request whose history has chain ch may be answered for
// (GatewayState.answerable): the session n names by X-Kompact-Session,
// or of the sessions of its key the one whose client messages the
// history continues (as a turn finds it), else the newest of the key's
// latest maxGatewayCandidates that the history answers; nil for none.
func (s *Sessions) answerableSession(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, n GatewayNaming, history kompact.Conversation, ch Chain) (*kompact.GatewayRecord, *GatewayState) {
	rec, st, err := s.gatewayFind(ctx, a, gs, n, history, ch)
	if err != nil {
		return nil, nil
	}
	if rec != nil || n.SessionID != "" {
		if rec == nil && st != nil && st.Agent == a.Name && st.answerable(ch) {
			rec, _ = gs.GetGatewayRecord(ctx, n.SessionID)
		}
		if rec == nil || st.Agent != a.Name {
			return nil, nil
		}
		return rec, st
	}
	for _, key := range []string{n.key(a, history), n.LegacyKey} {
		if key == "" {
			continue
		}
		recs, err := gs.FindGatewayRecords(ctx, key, nil, maxGatewayCandidates)
		if err != nil {
			return nil, nil
		}
		for i := range recs {
			st, err := decodeGatewayState(recs[i].State)
			if err == nil && st.Agent == a.Name && st.answerable(ch) {
				return &recs[i], st
			}
		}
	}
	return nil, nil
}

// answerCommit is a summary committed to answer a compaction request: the
// result and its revision.
type answerCommit struct {
	res    *kompact.Result
	rev    int64
	manual bool
	// held is how many of the client's messages the session held when
	// the request was matched to it: the recent messages stop there (the
	// request's, not the ones a later request added). offset is the
	// session's GatewayState.Offset: its client message i+offset is the
	// request's message i.
	held, offset int
}

// commitReady commits session id's precomputed summary, under its lease,
// as the kind the request asks for, when the request's history ch still
// continues the session; it reports whether the preview was used up.
func (s *Sessions) commitReady(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, id string, ch Chain, ask GatewayAsk) (*answerCommit, bool) {
	rec, err := gs.GetGatewayRecord(ctx, id)
	if err != nil {
		return nil, false
	}
	st, err := decodeGatewayState(rec.State)
	if err != nil || st.PreviewID == "" || !st.answerable(ch) {
		return nil, false
	}
	head, err := s.store.GetSessionHead(ctx, id)
	if err != nil {
		return nil, false
	}
	ctx = withTrigger(ctx, logGateway)
	manual := s.askedByPerson(ctx, a, head, ask)
	rep, res, ok := s.applyPrecomputedAs(ctx, id, st.PreviewID, head, manual, ask.Origin)
	if !ok {
		return nil, true // gone, or no longer applies: not to be tried again
	}
	return &answerCommit{res: res, rev: rep.Revision, manual: manual, held: st.ClientCount, offset: st.Offset}, true
}

// askedByPerson says whether a compaction request of a session with head
// is a person's: it carries instructions, or came at a token count at
// which the client does not compact on its own (GatewayAsk.AutoAt).
func (s *Sessions) askedByPerson(ctx context.Context, a *kompact.Agent, head *kompact.StoredSession, ask GatewayAsk) bool {
	if ask.Instructions != "" {
		return true
	}
	if ask.AutoAt == nil {
		return false
	}
	return !ask.AutoAt(head.Tokens.WithPending(), s.contextSizeOf(ctx, a))
}

// compactNow compacts session id now, under owner's lease, with the
// request's instructions (if any) joined after the standing ones, within
// compaction.timeout, and commits it: as a manual compaction whose note
// names the instructions, or, without them, as the kind the request asks
// for (askedByPerson), its note saying it was compacted now. It returns the commit (nil when it failed or did not
// finish in time, or the request's history ch no longer continues the
// session: the session is unchanged) and what the lease's release
// records as the precomputed summary: none once this one is committed (a
// summary made without the instructions must not answer a later request
// in their place), else as it was.
func (s *Sessions) compactNow(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, id, owner string, ch Chain, ask GatewayAsk) (*answerCommit, string) {
	rec, err := gs.GetGatewayRecord(ctx, id)
	if err != nil {
		return nil, keepPreview
	}
	st, err := decodeGatewayState(rec.State)
	if err != nil || !st.answerable(ch) {
		return nil, keepPreview
	}
	release, ok := s.slots.TryTake()
	if !ok {
		s.warn(ctx, "gateway: no action slot to answer a compaction request now; the request is forwarded", "session", id)
		return nil, keepPreview
	}
	defer release()
	ctx = withTrigger(ctx, logGateway)
	s.gateway.start(id)
	defer s.gateway.done(id)
	stop := s.keepLease(ctx, a, gs, id, owner)
	defer stop()
	cur, err := s.store.GetSession(ctx, id)
	if err != nil {
		s.warn(ctx, "gateway: read the session to answer a compaction request now", "session", id, "error", err.Error())
		return nil, keepPreview
	}
	out, rep := s.autoRunWith(ctx, a, cur, ask.Instructions)
	if out == nil {
		s.warn(ctx, "gateway: the compaction made to answer a compaction request did not finish; the request is forwarded", "session", id, "status", string(rep.Status))
		return nil, keepPreview
	}
	manual := s.askedByPerson(ctx, a, cur, ask)
	c := out.Result.Commit()
	c.Kind, c.Note = nowKind(c.Note, manual, ask)
	c.Version, c.Generation = cur.Version, cur.Generation
	_, info, err := s.store.CommitCompaction(context.WithoutCancel(ctx), id, c)
	if err != nil {
		s.warn(ctx, "gateway: the compaction made to answer a compaction request did not apply", "session", id, "error", err.Error())
		return nil, keepPreview
	}
	s.logCommitted(ctx, id, out.Result, info.Rev, "")
	s.dropPrecomputed(ctx, gs, id)
	return &answerCommit{res: out.Result, rev: info.Rev, manual: manual, held: st.ClientCount, offset: st.Offset}, ""
}

// nowKind is the kind and note of a compaction made now to answer a
// request asking ask, whose result's note is note: with the user's
// instructions, a manual compaction whose note names them (as before
// CompactNow); else manual or automatic, the note saying it was made now
// and for whom (GatewayAsk.Origin).
func nowKind(note string, manual bool, ask GatewayAsk) (string, string) {
	if ask.Instructions != "" {
		return kompact.RevisionCompaction, note + " with the instructions " + quoteNote(ask.Instructions)
	}
	note += " (" + joinNote("compacted now", ask.Origin) + ")"
	if manual {
		return kompact.RevisionCompaction, note
	}
	return kompact.RevisionAutoCompaction, "automatically " + note
}

// joinNote joins a note's parenthesis parts, leaving out empty ones.
func joinNote(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "; ")
}

// dropPrecomputed removes session id's precomputed summary, if it has
// one: the session was compacted another way.
func (s *Sessions) dropPrecomputed(ctx context.Context, gs kompact.GatewayStore, id string) {
	rec, err := gs.GetGatewayRecord(ctx, id)
	if err != nil {
		return
	}
	st, err := decodeGatewayState(rec.State)
	if err != nil || st.PreviewID == "" {
		return
	}
	if _, err := s.store.TakePreview(context.WithoutCancel(ctx), id, st.PreviewID, s.now()); err != nil && kompact.ErrorCodeOf(err) != kompact.ENotFound {
		s.warn(ctx, "gateway: remove a precomputed summary the session no longer needs", "session", id, "error", err.Error())
	}
}

// maxNoteInstructions bounds how much of the user's instructions a
// revision's note quotes.
const maxNoteInstructions = 200

// quoteNote quotes instructions for a revision's note, cut to
// maxNoteInstructions code points.
func quoteNote(instructions string) string {
	r := []rune(strings.TrimSpace(instructions))
	if len(r) > maxNoteInstructions {
		return `"` + string(r[:maxNoteInstructions]) + `…"`
	}
	return `"` + string(r) + `"`
}

// answerOf is the answer to a compaction request whose history is
// history from commit c of session id, built from the committed result
// and the request alone (no second read); nil when it has no summary to
// give (the request then goes upstream; the session keeps the revision).
func (s *Sessions) answerOf(ctx context.Context, id string, c *answerCommit, history kompact.Conversation, ask GatewayAsk) *GatewaySummary {
	text := summaryBody(c.res)
	if strings.TrimSpace(text) == "" {
		s.warn(ctx, "gateway: the committed summary has no text to answer with; the request is forwarded", "session", id, "revision", c.rev)
		return nil
	}
	sum := &GatewaySummary{SessionID: id, Revision: c.rev, Summary: text, Tokens: c.res.EstimatedTokenCount,
		Manual: c.manual, Instructed: ask.Instructions != ""}
	sum.Recent = recentText(history, max(coveredCount(c.res)-c.offset, 0), min(c.held, history.Len()), ask)
	return sum
}

// summaryBody is the text of result res's summary message without the
// framing the session's summary message opens with (kompact.SummaryPrefix
// and its newline): what the model wrote, and the fidelity appendix.
func summaryBody(res *kompact.Result) string {
	var parts []string
	res.SummaryMessage.Texts(func(t string) { parts = append(parts, t) })
	text := strings.Join(parts, "\n\n")
	if body, ok := strings.CutPrefix(text, kompact.SummaryPrefix); ok {
		return strings.TrimLeft(body, "\n")
	}
	return text
}

// coveredCount is how many of the client's messages the committed result
// res covers: the client's messages after its summary (and the range's
// pinned messages, which a compaction keeps right after it) begin at
// that index; every one the compaction read, when none follows.
func coveredCount(res *kompact.Result) int {
	after := res.Session.Messages[res.SummaryAt()+1:]
	if res.Span != nil {
		after = after[min(len(res.Span.Pinned), len(after)):]
	}
	for i := range after {
		if j := clientIndex(after[i].ID); j >= 0 {
			return j
		}
	}
	n := 0
	for i := range res.Session.Messages {
		if j := clientIndex(res.Session.Messages[i].ID); j >= 0 {
			n = max(n, j+1)
		}
	}
	return n
}

// recentText renders the history's messages [from:end] (the client's
// messages after the summary that the session held when the request was
// matched to it) as text: a line
// naming each message's role, then its text and tool calls. Tool calls
// the client restates by itself, and the messages of their results
// (GatewayAsk.Restated, Omit), are left out.
func recentText(conv kompact.Conversation, from, end int, ask GatewayAsk) string {
	var b strings.Builder
	for i := from; i < end; i++ {
		m, err := conv.Message(i)
		if err != nil || (ask.Omit != nil && ask.Omit(i)) {
			continue
		}
		var lines []string
		m.Texts(func(t string) { lines = append(lines, t) })
		for _, c := range m.ToolCalls {
			if ask.Restated != nil && ask.Restated(c.Name) {
				continue
			}
			args := ""
			if c.Arguments != nil {
				args = *c.Arguments
			}
			lines = append(lines, "(tool call "+c.Name+" "+args+")")
		}
		if len(lines) == 0 {
			continue
		}
		b.WriteString("[" + string(m.Role) + "]\n" + strings.Join(lines, "\n") + "\n\n")
	}
	return strings.TrimSpace(b.String())
}
