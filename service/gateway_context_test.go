package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/internal/testing/memstore"
	"kompact/internal/testing/testserver"
	"kompact/kimicode"
	"kompact/openai"
	"kompact/service"
)

// contextAgents is agent "cx", a gateway agent of compaction type %s
// (automatic compaction %v, at half of its 10000-token window), keeping 2
// messages.
const contextAgents = `agents:
  cx:
    llm: {base_url: http://127.0.0.1:1/v1, model: chat-model, max_context_size: 10000}
    compaction:
      enabled: true
      type: %s
      compaction_model: compact-model
      max_preserved_messages: 2
      auto: {enabled: %v, trigger_ratio: 0.5, reserved_context_size: 1000}
    gateway: {enabled: true, precompute_ratio: 0}
`

// contextLLM answers every compaction with a full summary and keeps the
// text of each compaction request.
type contextLLM struct {
	mu   sync.Mutex
	sent []string
}

func (l *contextLLM) Complete(_ context.Context, _ kompact.RequestConfig, msgs []kompact.Message, _ func(kompact.Progress)) (kompact.Answer, error) {
	var b strings.Builder
	for _, m := range msgs {
		for _, p := range m.Content {
			b.WriteString(p.Text + "\n")
		}
	}
	l.mu.Lock()
	l.sent = append(l.sent, b.String())
	l.mu.Unlock()
	return kompact.Answer{Parts: []kompact.Part{kompact.TextPart(fullSummary())}}, nil
}

// contextEnv is a Sessions over the store in memory whose agent cx
// compacts with type typ.
type contextEnv struct {
	t     *testing.T
	store *memstore.Store
	llm   *contextLLM
	s     *service.Sessions
	a     *kompact.Agent
}

func newContextEnv(t *testing.T, store *memstore.Store, typ string, auto bool) *contextEnv {
	t.Helper()
	agents, err := config.Parse([]byte(fmt.Sprintf(contextAgents, typ, auto)), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e := &contextEnv{t: t, store: store, llm: &contextLLM{}}
	n := 0
	e.s = service.NewSessions(service.SessionsConfig{Store: store, Compactor: &service.Compactor{LLM: e.llm}, Agents: agents,
		NewID: func() string { n++; return fmt.Sprint("gw_", n) }})
	if e.a, err = e.s.GatewayAgent("cx"); err != nil {
		t.Fatal(err)
	}
	return e
}

// codexContext are the texts of codexTurn's three context messages:
// Codex's base instructions, its permissions, its environment.
var codexContext = []string{"BASE-INSTRUCTIONS-XYZ: you are a test agent.", "PERMISSIONS-XYZ: sandbox read-only.",
	"<environment_context>\n  <cwd>/w/cwd-xyz</cwd>\n</environment_context>"}

// codexTurn is a Responses request as the gateway's Responses face reads
// it: Codex's three context messages, then the user's own turns (own[i]
// alternating user and assistant).
func codexTurn(t *testing.T, own ...string) *openai.ResponsesRequest {
	t.Helper()
	item := func(role, text string) any {
		part := "input_text"
		if role == "assistant" {
			part = "output_text"
		}
		return map[string]any{"type": "message", "role": role, "content": []any{map[string]any{"type": part, "text": text}}}
	}
	items := []any{item("developer", codexContext[0]), item("developer", codexContext[1]), item("user", codexContext[2])}
	for i, text := range own {
		items = append(items, item([]string{"user", "assistant"}[i%2], text))
	}
	body, err := json.Marshal(map[string]any{"model": "chat-model", "input": items})
	if err != nil {
		t.Fatal(err)
	}
	req, err := openai.ParseResponsesRequest(body)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// codexSession stores Codex thread th (context and five own messages,
// g_3..g_7) through the gateway and returns it.
func (e *contextEnv) codexSession(th string) *kompact.StoredSession {
	e.t.Helper()
	turn := e.s.GatewayTurnWith(context.Background(), e.a, service.GatewayNaming{SessionID: th, Face: "responses"}, service.GatewayPolicy{},
		codexTurn(e.t, "fix parse.go", "fixed parse.go", "run the tests", "they pass", "one more thing"))
	if !turn.Stored || turn.SessionID != th {
		e.t.Fatalf("the Codex turn: %+v", turn)
	}
	return e.open(th)
}

func (e *contextEnv) open(id string) *kompact.StoredSession {
	e.t.Helper()
	st, _, err := e.s.Open(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return st
}

// plan is the plan the service makes of req on st (Sessions.NewJob).
func (e *contextEnv) plan(st *kompact.StoredSession, req kompact.ActionRequest) kompact.CompactionPlan {
	e.t.Helper()
	job, err := e.s.NewJob(context.Background(), st, e.a, req)
	if err != nil {
		e.t.Fatalf("%+v: %v", req, err)
	}
	return job.Job.Plan
}

// asIs is the plan the compactor makes of req on st as it is, without the
// service's context head.
func (e *contextEnv) asIs(st *kompact.StoredSession, req kompact.ActionRequest) kompact.CompactionPlan {
	e.t.Helper()
	job, err := (&service.Compactor{LLM: e.llm}).NewJob(e.a, &st.Session, req)
	if err != nil {
		e.t.Fatalf("%+v: %v", req, err)
	}
	return job.Plan
}

// samePlan reports whether two plans replace the same range with the same
// request.
func samePlan(p, q kompact.CompactionPlan) bool {
	a, b := p.About(), q.About()
	return a.Noop == b.Noop && a.Span.Start == b.Span.Start && a.Span.End == b.Span.End && a.Span.KeepSystem == b.Span.KeepSystem &&
		reflect.DeepEqual(a.Span.Pinned, b.Span.Pinned) && reflect.DeepEqual(p.RequestMessages(), q.RequestMessages())
}

// TestContextHeadStartsTheRange (issue 42 §2): the gateway records how
// many of a Codex session's first messages are Codex's context
// (context_head in its state), and every compaction of the session starts
// after those still pinned: compact_conversation without a start, or with
// one inside the head, starts at message 4; compact_up_to_here is the
// same plan as compact_conversation from message 4 to its anchor; a range
// that ends inside the head, or starts after it, is planned as asked; a
// user who unpinned the head has its messages summarised again.
func TestContextHeadStartsTheRange(t *testing.T) {
	ctx := context.Background()
	e := newContextEnv(t, memstore.New(0), "kimi", false)
	st := e.codexSession("th-1")
	rec, err := e.store.GetGatewayRecord(ctx, "th-1")
	if err != nil || !strings.Contains(string(rec.State), `"context_head":3`) {
		t.Fatalf("the session's gateway state %s (%v), want context_head 3", rec.State, err)
	}
	cc := func(start, end string) kompact.ActionRequest {
		return kompact.ActionRequest{Action: kompact.ActionCompactConversation, Start: start, End: end}
	}
	for _, req := range []kompact.ActionRequest{cc("", ""), cc("g_0", ""), cc("g_2", "")} {
		p := e.plan(st, req)
		if !samePlan(p, e.asIs(st, cc("g_3", ""))) || p.About().Span.Start != 3 || len(p.About().Span.Pinned) != 0 {
			t.Errorf("%+v: the range %+v, want it from message 4 (g_3), as compact_conversation{start: g_3} plans it", req, p.About().Span)
		}
		for _, text := range codexContext {
			if strings.Contains(transcript(p), text) {
				t.Errorf("%+v: the request shows Codex's context %q", req, text)
			}
		}
	}
	upTo := e.plan(st, kompact.ActionRequest{Action: kompact.ActionCompactUpToHere, MessageID: "g_5"})
	if !samePlan(upTo, e.asIs(st, cc("g_3", "g_5"))) {
		t.Errorf("compact_up_to_here g_5: %+v, want compact_conversation{start: g_3, end: g_5}'s plan", upTo.About().Span)
	}
	for _, req := range []kompact.ActionRequest{cc("g_4", ""), cc("", "g_1"), cc("g_1", "g_2"), {Action: kompact.ActionCompactUpToHere, MessageID: "g_2"}} {
		if p := e.plan(st, req); !samePlan(p, e.asIs(st, req)) {
			t.Errorf("%+v: %+v, want the request planned as it is (%+v)", req, p.About().Span, e.asIs(st, req).About().Span)
		}
	}
	// Unpinned: the head counts only while its messages are pinned.
	for pins, start := range map[string]int{"g_1 g_2": 0, "g_0 g_2": 1, "": 0} {
		set := strings.Fields(pins)
		if _, err := e.s.UpdateSettings(ctx, "th-1", kompact.SessionSettings{Pinned: &set}); err != nil {
			t.Fatal(err)
		}
		st := e.open("th-1")
		p := e.plan(st, cc("", ""))
		if p.About().Span.Start != start || start == 0 && !samePlan(p, e.asIs(st, cc("", ""))) || start > 0 && !samePlan(p, e.asIs(st, cc(fmt.Sprintf("g_%d", start), ""))) {
			t.Errorf("pinned %q: the range %+v, want it from message %d", pins, p.About().Span, start+1)
		}
	}
}

// TestContextHeadPreviewEdited (issue 42 §2): a preview of a Codex
// session, applied with a person's summary, keeps Codex's context first,
// verbatim, then the edited summary; undone, the session is as it was.
func TestContextHeadPreviewEdited(t *testing.T) {
	ctx := context.Background()
	e := newContextEnv(t, memstore.New(0), "kimi", false)
	st := e.codexSession("th-pv")
	job, err := e.s.NewJob(ctx, st, e.a, kompact.ActionRequest{Action: kompact.ActionCompactConversation})
	if err != nil {
		t.Fatal(err)
	}
	pv := job.Run(ctx, service.ActionOptions{Preview: true}, nil)
	if pv.Status != kompact.OutcomePreview {
		t.Fatalf("the preview: %s %+v", pv.Status, pv.Err)
	}
	edited := "EDITED-SUMMARY-XYZ"
	out, err := e.s.ApplyPreview(ctx, "th-pv", pv.PreviewID, &edited)
	if err != nil || out.Status != kompact.OutcomeCompacted {
		t.Fatalf("apply the edited preview: %v %s %+v", err, out.Status, out.Err)
	}
	msgs := e.open("th-pv").Messages
	for i, text := range codexContext {
		if msgs[i].ID != fmt.Sprintf("g_%d", i) || msgs[i].Content[0].Text != text {
			t.Errorf("message %d is %+v, want Codex's context %q", i+1, msgs[i], text)
		}
	}
	if !strings.Contains(msgs[3].Content[0].Text, edited) || len(msgs) != 6 {
		t.Errorf("message 4 of %d is %+v, want the edited summary, then the preserved two", len(msgs), msgs[3])
	}
	revs, err := e.store.ListRevisions(ctx, "th-pv")
	if err != nil || len(revs) == 0 {
		t.Fatalf("revisions %v %v", revs, err)
	}
	if _, err := e.s.Undo(ctx, "th-pv", revs[0].Rev); err != nil {
		t.Fatal(err)
	}
	if got := e.open("th-pv").Messages; !reflect.DeepEqual(got, st.Messages) {
		t.Errorf("undone, the session holds %+v, want it as it was", got)
	}
}

// transcript is the text of a plan's request.
func transcript(p kompact.CompactionPlan) string {
	var b strings.Builder
	for _, m := range p.RequestMessages() {
		for _, part := range m.Content {
			b.WriteString(part.Text)
		}
	}
	return b.String()
}

// TestContextHeadKeptByEveryOtherSession (issue 42 §2, parity; KCP-002): a
// session whose gateway state has no context head (a chat-face gateway
// session, a Codex session made before the head was recorded) and an
// ordinary session, each with its leading system message pinned by the
// user, are planned exactly as the compactor plans them: the system
// message in the transcript, kept first. A type that takes no range
// (kimi-code) is not given one.
func TestContextHeadKeptByEveryOtherSession(t *testing.T) {
	ctx := context.Background()
	store := memstore.New(0)
	e := newContextEnv(t, store, "kimi", false)
	chat := e.s.GatewayTurn(ctx, e.a, "chat-1", chat(t, "system", "SYSTEM-XYZ be brief", "user", "fix parse.go", "assistant", "fixed",
		"user", "run the tests", "assistant", "they pass", "user", "more"))
	e.codexSession("th-old")
	forgetContextHead(t, store, "th-old")
	plain := &kompact.Session{ID: "plain", Agent: "cx", Messages: e.open("chat-1").Messages}
	if _, err := store.CreateSession(ctx, plain); err != nil || !chat.Stored {
		t.Fatalf("the sessions: %v %+v", err, chat)
	}
	for _, id := range []string{"chat-1", "th-old", "plain"} {
		set := []string{e.open(id).Messages[0].ID}
		if _, err := e.s.UpdateSettings(ctx, id, kompact.SessionSettings{Pinned: &set}); err != nil {
			t.Fatal(err)
		}
		st := e.open(id)
		for _, req := range []kompact.ActionRequest{{Action: kompact.ActionCompactConversation}, {Action: kompact.ActionCompactUpToHere, MessageID: st.Messages[4].ID}} {
			p := e.plan(st, req)
			first := st.Messages[0].Content[0].Text
			if !samePlan(p, e.asIs(st, req)) || !p.About().Span.KeepSystem || !strings.Contains(transcript(p), "## Message 1\nRole: system\nContent:\n"+first) {
				t.Errorf("%s %+v: %+v, want the compactor's plan, the leading system message %q in the transcript", id, req, p.About().Span, first)
			}
		}
	}
	kimicode.UseTexts(kimicode.Builtin())
	kc := newContextEnv(t, store, "kimi-code", false)
	st := kc.codexSession("th-kc")
	req := kompact.ActionRequest{Action: kompact.ActionCompactConversation}
	if p := kc.plan(st, req); !samePlan(p, kc.asIs(st, req)) {
		t.Errorf("kimi-code: %+v, want the request planned as it is", p.About().Span)
	}
}

// forgetContextHead rewrites session id's gateway state as it was written
// before the context head was kept: without it.
func forgetContextHead(t *testing.T, store *memstore.Store, id string) {
	t.Helper()
	ctx := context.Background()
	rec, err := store.GetGatewayRecord(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(rec.State, &st); err != nil || st["context_head"] == nil {
		t.Fatalf("the state %s (%v) has no context head to forget", rec.State, err)
	}
	delete(st, "context_head")
	b, _ := json.Marshal(st)
	if _, _, err := store.SwapGatewayRecord(ctx, id, rec.Seq, kompact.GatewayUpdate{Chain: rec.Chain, State: b}, nil); err != nil {
		t.Fatal(err)
	}
}

// TestContextHeadAutomatic (issue 42 §2): the automatic compaction a
// Codex turn takes past the trigger starts after Codex's context too: its
// request holds none of it, and the compacted session begins with it,
// verbatim, then the summary.
func TestContextHeadAutomatic(t *testing.T) {
	e := newContextEnv(t, memstore.New(0), "kimi", true)
	long := func(c byte) string { return strings.Repeat(string(c), 8000) }
	turn := e.s.GatewayTurnWith(context.Background(), e.a, service.GatewayNaming{SessionID: "th-auto", Face: "responses"}, service.GatewayPolicy{},
		codexTurn(t, long('a'), long('b'), long('c'), long('d'), "next"))
	if !turn.Stored || turn.Compaction == nil || len(e.llm.sent) != 1 {
		t.Fatalf("the turn past the trigger: %+v, %d compaction requests; want one compaction", turn, len(e.llm.sent))
	}
	for _, text := range codexContext {
		if strings.Contains(e.llm.sent[0], text) {
			t.Errorf("the automatic compaction's request shows Codex's context %q", text)
		}
	}
	msgs := e.open("th-auto").Messages
	for i, text := range codexContext {
		if msgs[i].ID != fmt.Sprintf("g_%d", i) || msgs[i].Content[0].Text != text {
			t.Errorf("the compacted session's message %d is %+v, want Codex's context %q", i+1, msgs[i], text)
		}
	}
	if !strings.Contains(msgs[3].Content[0].Text, "Previous context has been compacted") {
		t.Errorf("the compacted session's message 4 is %+v, want the summary", msgs[3])
	}
}

// markedChat is a chat-completions request that tells its context
// (service.ContextMarker) as the Responses face's requests do: the
// messages at ctx.
type markedChat struct {
	*openai.ChatRequest
	ctx []int
}

func (m markedChat) Context(i int) bool { return slices.Contains(m.ctx, i) }

// TestGatewayPinsAppendedContext (issue 42 §2): the context messages a
// later request appends to a session are pinned with the append, after
// the ones the session was made with, for a conversation that tells its
// context; a conversation that does not (the chat face's, whatever its
// texts) gets no pins, then or later.
func TestGatewayPinsAppendedContext(t *testing.T) {
	e := newGatewayEnv(t, testserver.Gateway{})
	pinned := func(id string) []string {
		t.Helper()
		s, err := e.store.GetSession(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return s.Pinned
	}
	first := []string{"system", "base instructions", "user", "<environment_context>/a</environment_context>", "user", "hi"}
	later := append(slices.Clone(first), "assistant", "hello", "user", "<environment_context>/b</environment_context>", "user", "more")

	plain := e.turn("", chat(t, first...))
	if next := e.turn("", chat(t, later...)); !next.Stored || next.SessionID != plain.SessionID || next.Appended != 3 {
		t.Fatalf("the chat face's second turn: %+v (first %+v)", next, plain)
	}
	if p := pinned(plain.SessionID); p != nil {
		t.Errorf("a conversation that tells no context got pins %q", p)
	}

	e = newGatewayEnv(t, testserver.Gateway{})
	made := e.turn("", markedChat{chat(t, first...), []int{0, 1}})
	ids := func() []string {
		var out []string
		for _, m := range e.messages(made.SessionID) {
			out = append(out, m.ID)
		}
		return out
	}
	if got := pinned(made.SessionID); !slices.Equal(got, ids()[:2]) {
		t.Fatalf("the new session pins %q, want its first two messages %q", got, ids()[:2])
	}
	next := e.turn("", markedChat{chat(t, later...), []int{0, 1, 4}})
	if !next.Stored || next.SessionID != made.SessionID || next.Appended != 3 {
		t.Fatalf("the second turn: %+v (first %+v)", next, made)
	}
	all := ids()
	if got, want := pinned(made.SessionID), []string{all[0], all[1], all[4]}; !slices.Equal(got, want) {
		t.Errorf("after the second turn the session pins %q, want %q (the later <environment_context> added)", got, want)
	}
}
