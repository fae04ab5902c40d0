// Package storetest is the conformance suite for kompact.Store
// implementations. Every store runs the same tests:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) kompact.Store { return newStore(t) })
//	}
//
// A store that keeps its data across Close and a new open runs
// RunPersistent instead, which adds a test that reopens it.
//
// The suite pins down what kompact.Store leaves open: lists are newest
// first, appending an id the session already has is EConflict, a message
// whose JSON form would not decode (unknown role or part type, data that is
// not JSON) or that kompact.ValidateSession refuses (a session id such as
// "..", text that is not UTF-8, a message id given twice) is EInvalid,
// ENotFound errors carry fixes, times are UTC and
// updated_at grows with every write.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kompact"
	"kompact/kimi"
)

// Run runs the conformance suite. open returns a new, empty store; every
// subtest opens its own, and the suite closes it when the subtest ends.
func Run(t *testing.T, open func(t *testing.T) kompact.Store) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(*testing.T, kompact.Store)
	}{
		{"Create", testCreate},
		{"CreateRejects", testCreateRejects},
		{"Validate", testValidate},
		{"InputRule", testInputRule},
		{"SessionLimit", testSessionLimit},
		{"Import", testImport},
		{"ImportRejects", testImportRejects},
		{"RoundTrip", testRoundTrip},
		{"NotFound", testNotFound},
		{"List", testList},
		{"Delete", testDelete},
		{"Append", testAppend},
		{"AppendRetry", testAppendRetry},
		{"CompactionModel", testCompactionModel},
		{"UpdateSettings", testUpdateSettings},
		{"UpdateSettingsAt", testUpdateSettingsAt},
		{"Pinned", testPinned},
		{"CommitCompaction", testCommitCompaction},
		{"Conflict", testConflict},
		{"CommitAfterRewrite", testCommitAfterRewrite},
		{"CommitAfterRecreate", testCommitAfterRecreate},
		{"Restore", testRestore},
		{"Undo", testUndo},
		{"UndoPrune", testUndoPrune},
		{"UndoKimiCode", testUndoKimiCode},
		{"Titles", testTitles},
		{"Concurrency", testConcurrency},
		{"Previews", testPreviews},
		{"PreviewBudgets", testPreviewBudgets},
		{"PreviewList", testPreviewList},
		{"StreamSession", testStreamSession},
		{"StreamRevision", testStreamRevision},
		{"Window", testWindow},
		{"Tokens", testTokens},
		{"Breaker", testBreaker},
		{"Kimi", testKimi},
		{"Fidelity", testFidelity},
		{"SessionHead", testSessionHead},
		{"RewrittenFigures", testRewrittenFigures},
		{"PreviewRestore", testPreviewRestore},
		{"GatewayCreate", testGatewayCreate},
		{"GatewaySwap", testGatewaySwap},
		{"GatewayDelete", testGatewayDelete},
		{"GatewayRewritten", testGatewayRewritten},
		{"GatewaySwapRewritten", testGatewaySwapRewritten},
		{"GatewayChains", testGatewayChains},
		{"GatewayLimit", testGatewayLimit},
		{"GatewayRace", testGatewayRace},
		{"GatewaySideCalls", testGatewaySideCalls},
		{"GatewayPins", testGatewayPins},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := open(t)
			t.Cleanup(func() {
				if err := st.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			tc.fn(t, st)
		})
	}
}

// RunPersistent runs Run's suite, then checks that a store closed and
// opened again on the same data has everything: sessions, messages,
// versions, times and revisions. reopen(t) returns a store on the data of
// the store open(t) returned last for the same t.
func RunPersistent(t *testing.T, open, reopen func(t *testing.T) kompact.Store) {
	t.Helper()
	Run(t, open)
	t.Run("Reopen", func(t *testing.T) { testReopen(t, open, reopen) })
}

// ---- helpers ----

func ptr(s string) *string { return &s }

func msg(role kompact.Role, id, text string) kompact.Message {
	return kompact.Message{ID: id, Role: role, Content: []kompact.Part{kompact.TextPart(text)}}
}

// conversation is a small session: a system message, then user and
// assistant turns, including a tool call and its result inside the part a
// compaction summarises. No message has an id.
func conversation() []kompact.Message {
	return []kompact.Message{
		msg(kompact.RoleSystem, "", "You are a coding agent."),
		{Role: kompact.RoleUser, Content: []kompact.Part{
			kompact.TextPart("Fix the failing test; see the screenshot."),
			{Type: kompact.PartImage, URL: "https://example.test/shot.png", MediaID: ptr("img-1")},
		}},
		{Role: kompact.RoleAssistant,
			Content:   []kompact.Part{{Type: kompact.PartThink, Think: "Read it first.", Encrypted: ptr("sig==")}, kompact.TextPart("Reading a.go.")},
			ToolCalls: []kompact.ToolCall{{ID: "call_1", Name: "ReadFile", Arguments: ptr(`{"path":"a.go"}`)}}},
		{Role: kompact.RoleTool, ToolCallID: "call_1", HasToolCallID: true, Content: []kompact.Part{
			kompact.TextPart("package a"), {Type: kompact.PartData, Data: []byte(`{"asset_ref":"file-17","lines":[1,2]}`)},
		}},
		msg(kompact.RoleAssistant, "", "The test expects 2."),
		msg(kompact.RoleUser, "", "Then change it."),
		msg(kompact.RoleAssistant, "", "Changed."),
		msg(kompact.RoleUser, "", "Run the tests."),
		msg(kompact.RoleAssistant, "", "They pass."),
	}
}

// richMessages covers every field of the message form and the distinctions
// a round trip must keep: nil against empty, absent against present.
func richMessages() []kompact.Message {
	return []kompact.Message{
		{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart("system prompt")}},
		{Role: kompact.RoleUser, Name: "alice", Content: []kompact.Part{
			kompact.TextPart("quote \" backslash \\ newline \n tab \t nul \x00 <>& \u2028 é 😀 中文"),
			{Type: kompact.PartImage, URL: "https://example.test/a.png", MediaID: ptr("img-1")},
			{Type: kompact.PartImage, URL: "data:image/png;base64,AAAA"},
			{Type: kompact.PartAudio, URL: "https://example.test/a.mp3", MediaID: ptr("")},
			{Type: kompact.PartVideo, URL: "https://example.test/a.mp4"},
		}},
		{Role: kompact.RoleAssistant, Content: []kompact.Part{
			{Type: kompact.PartThink, Think: "signed thought", Encrypted: ptr("c2lnbmF0dXJl")},
			{Type: kompact.PartThink, Think: "plain thought"},
			{Type: kompact.PartThink, Think: "", Encrypted: ptr("")},
			kompact.TextPart("calling tools"),
		}, ToolCalls: []kompact.ToolCall{
			{ID: "call_1", Name: "ReadFile", Arguments: ptr(`{"path": "a.go"}`), Extras: []byte(`{"k":[1,2.50,"x\u00e9"],"n":null}`)},
			{ID: "call_2", Name: "NoArgs"},
			{ID: "call_3", Name: "EmptyArgs", Arguments: ptr("")},
		}},
		{Role: kompact.RoleTool, ToolCallID: "call_1", HasToolCallID: true, Content: []kompact.Part{
			kompact.TextPart("package a"),
			{Type: kompact.PartData, Data: []byte(`{"asset_ref":"file-17","n":1.50,"e":1e3,"nested":{"a":[true,false,null]},"s":"\u00e9\n\/"}`)},
		}},
		{Role: kompact.RoleTool, ToolCallID: "", HasToolCallID: true, Content: []kompact.Part{
			{Type: kompact.PartData, Data: []byte(`null`)},
			{Type: kompact.PartData, Data: []byte(`"a string"`)},
			{Type: kompact.PartData, Data: []byte(`-12.0`)},
			{Type: kompact.PartData, Data: []byte(`[]`)},
		}},
		{Role: kompact.RoleTool, ToolCallID: "call_3", HasToolCallID: true, Content: nil},
		{Role: kompact.RoleAssistant, ToolCalls: []kompact.ToolCall{}, Content: []kompact.Part{}},
		{ID: "custom-id", Role: kompact.RoleUser, Name: "bob", Content: []kompact.Part{kompact.TextPart("")}},
	}
}

func jsonOf(m *kompact.Message) string { return string(m.AppendJSON(nil)) }

// withIDs returns a copy of want whose messages without an id take the id
// of the message at the same index in got.
func withIDs(want, got []kompact.Message) []kompact.Message {
	out := append([]kompact.Message(nil), want...)
	for i := range out {
		if out[i].ID == "" && i < len(got) {
			out[i].ID = got[i].ID
		}
	}
	return out
}

// sameMessages fails unless got and want have the same JSON form, message
// for message.
func sameMessages(t *testing.T, what string, got, want []kompact.Message) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d messages, want %d\ngot:  %s\nwant: %s", what, len(got), len(want), listJSON(got), listJSON(want))
	}
	for i := range got {
		if g, w := jsonOf(&got[i]), jsonOf(&want[i]); g != w {
			t.Fatalf("%s: message %d differs\ngot:  %s\nwant: %s", what, i, g, w)
		}
	}
}

func listJSON(msgs []kompact.Message) string {
	var b bytes.Buffer
	for i := range msgs {
		b.WriteString("\n  ")
		b.Write(msgs[i].AppendJSON(nil))
	}
	return b.String()
}

// checkIDs fails unless every message has an id and no two share one.
func checkIDs(t *testing.T, what string, msgs []kompact.Message) {
	t.Helper()
	seen := map[string]int{}
	for i := range msgs {
		id := msgs[i].ID
		if id == "" {
			t.Fatalf("%s: message %d has no id", what, i)
		}
		if j, dup := seen[id]; dup {
			t.Fatalf("%s: messages %d and %d share the id %q", what, j, i, id)
		}
		seen[id] = i
	}
}

// commit commits c and returns the session as GetSession reads it after,
// once it has checked that the commit described it (and its revision)
// truly.
func commit(t *testing.T, st kompact.Store, id string, c kompact.Commit) (*kompact.StoredSession, *kompact.RevisionInfo) {
	t.Helper()
	s, info, err := st.CommitCompaction(t.Context(), id, c)
	if err != nil {
		t.Fatalf("CommitCompaction: %v", err)
	}
	return described(t, st, s, info, "CommitCompaction"), info
}

func restore(t *testing.T, st kompact.Store, id string, rev int64) (*kompact.StoredSession, *kompact.RevisionInfo) {
	t.Helper()
	return byRevision(t, st, id, rev, st.RestoreRevision, "RestoreRevision")
}

// byRevision runs a rewrite by revision rev (a restore, an undo) and
// returns the session GetSession reads after it, once described has
// checked what the rewrite returned.
func byRevision(t *testing.T, st kompact.Store, id string, rev int64, rewrite func(context.Context, string, int64) (*kompact.SessionInfo, *kompact.RevisionInfo, error), what string) (*kompact.StoredSession, *kompact.RevisionInfo) {
	t.Helper()
	s, info, err := rewrite(t.Context(), id, rev)
	if err != nil {
		t.Fatalf("%s(%d): %v", what, rev, err)
	}
	return described(t, st, s, info, what), info
}

// described checks what a write returned (the session's description and,
// unless nil, the revision it recorded) against what the store holds after
// it: the description ListSessions gives, the session GetSession reads and
// the newest revision. It returns the session read. (The stores return a
// description rather than the session, so that a write's cost follows
// what it changed, issue 10.)
func described(t *testing.T, st kompact.Store, info *kompact.SessionInfo, rev *kompact.RevisionInfo, what string) *kompact.StoredSession {
	t.Helper()
	if info == nil {
		t.Fatalf("%s: no session description", what)
	}
	s := get(t, st, info.ID)
	var listed *kompact.SessionInfo
	for _, l := range listSessions(t, st) {
		if l.ID == info.ID {
			listed = &l
		}
	}
	switch {
	case listed == nil:
		t.Fatalf("%s: session %q is not listed", what, info.ID)
	case info.Agent != listed.Agent || info.CompactionModel != listed.CompactionModel || info.Title != listed.Title ||
		info.Messages != listed.Messages || info.Version != listed.Version || info.Gateway != listed.Gateway ||
		!info.CreatedAt.Equal(listed.CreatedAt) || !info.UpdatedAt.Equal(listed.UpdatedAt):
		t.Fatalf("%s returned %+v; the store lists %+v", what, *info, *listed)
	case info.Messages != len(s.Messages) || info.Version != s.Version || !info.UpdatedAt.Equal(s.UpdatedAt) || info.Gateway != s.Gateway:
		t.Fatalf("%s returned %+v; GetSession reads %d messages, version %d, updated at %v, gateway %v", what, *info, len(s.Messages), s.Version, s.UpdatedAt, s.Gateway)
	}
	if rev == nil {
		return s
	}
	revs, err := st.ListRevisions(t.Context(), info.ID)
	if err != nil {
		t.Fatalf("ListRevisions: %v", err)
	}
	var newest *kompact.RevisionInfo
	for i := range revs {
		if newest == nil || revs[i].Rev > newest.Rev {
			newest = &revs[i]
		}
	}
	if newest == nil || newest.Rev != rev.Rev || newest.Kind != rev.Kind || newest.Note != rev.Note ||
		newest.Version != rev.Version || newest.Messages != rev.Messages || !newest.CreatedAt.Equal(rev.CreatedAt) || rev.Version != info.Version {
		t.Fatalf("%s recorded %+v (session version %d); the newest revision listed is %+v", what, *rev, info.Version, newest)
	}
	return s
}

func wantCode(t *testing.T, err error, code kompact.ErrorCode, what string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error, want %s", what, code)
	}
	var ke *kompact.Error
	if !errors.As(err, &ke) {
		t.Fatalf("%s: %v is a %T, want a *kompact.Error", what, err, err)
	}
	if got := kompact.ErrorCodeOf(err); got != code {
		t.Fatalf("%s: %v (code %s), want code %s", what, err, got, code)
	}
	if code == kompact.ENotFound && len(kompact.ErrorFixes(err)) == 0 {
		t.Fatalf("%s: the not-found error %q says nothing about how to fix it", what, err)
	}
}

func create(t *testing.T, st kompact.Store, s *kompact.Session) *kompact.StoredSession {
	t.Helper()
	out, err := st.CreateSession(t.Context(), s)
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	if out.Version != 1 || !out.CreatedAt.Equal(out.UpdatedAt) {
		t.Fatalf("CreateSession returned %+v: want version 1, created when updated", *out)
	}
	return described(t, st, out, nil, "CreateSession")
}

func get(t *testing.T, st kompact.Store, id string) *kompact.StoredSession {
	t.Helper()
	out, err := st.GetSession(t.Context(), id)
	if err != nil {
		t.Fatalf("GetSession(%q): %v", id, err)
	}
	return out
}

func listSessions(t *testing.T, st kompact.Store) []kompact.SessionInfo {
	t.Helper()
	out, err := st.ListSessions(t.Context(), kompact.SessionFilter{})
	if err != nil {
		t.Fatalf("ListSessions: %v", err)
	}
	return out
}

// appendMsgs appends msgs, checks what AppendMessages reports against the
// session read back, and returns that session.
func appendMsgs(t *testing.T, st kompact.Store, id string, msgs []kompact.Message) *kompact.StoredSession {
	t.Helper()
	before := get(t, st, id)
	out, err := st.AppendMessages(t.Context(), id, msgs)
	if err != nil {
		t.Fatalf("AppendMessages: %v", err)
	}
	after := get(t, st, id)
	if out.Version != after.Version || !out.UpdatedAt.Equal(after.UpdatedAt) || len(out.Messages) != len(msgs) ||
		len(after.Messages) != len(before.Messages)+len(msgs) {
		t.Fatalf("AppendMessages reported version %d updated %s and %d messages; the session has version %d updated %s and %d messages (had %d, appended %d)",
			out.Version, ts(out.UpdatedAt), len(out.Messages), after.Version, ts(after.UpdatedAt), len(after.Messages), len(before.Messages), len(msgs))
	}
	sameMessages(t, "the appended messages AppendMessages reports", out.Messages, after.Messages[len(before.Messages):])
	sameMessages(t, "the appended messages", out.Messages, withIDs(msgs, out.Messages))
	return after
}

// setModel sets the model (UpdateSettings), checks what it reports against
// the session read back, and returns that session.
func setModel(t *testing.T, st kompact.Store, id, model string) *kompact.StoredSession {
	t.Helper()
	out, err := st.UpdateSettings(t.Context(), id, Model(model))
	if err != nil {
		t.Fatalf("UpdateSettings (compaction model): %v", err)
	}
	after := get(t, st, id)
	want := kompact.SessionInfo{ID: after.ID, Agent: after.Agent, CompactionModel: after.CompactionModel, Messages: len(after.Messages),
		Version: after.Version, CreatedAt: after.CreatedAt, UpdatedAt: after.UpdatedAt}
	if out.ID != want.ID || out.Agent != want.Agent || out.CompactionModel != want.CompactionModel || out.Messages != want.Messages ||
		out.Version != want.Version || !out.CreatedAt.Equal(want.CreatedAt) || !out.UpdatedAt.Equal(want.UpdatedAt) {
		t.Fatalf("UpdateSettings (compaction model) reported %+v; the session is %+v", *out, want)
	}
	return after
}

func revisions(t *testing.T, st kompact.RevisionStore, id string) []kompact.RevisionInfo {
	t.Helper()
	out, err := st.ListRevisions(t.Context(), id)
	if err != nil {
		t.Fatalf("ListRevisions: %v", err)
	}
	return out
}

func revision(t *testing.T, st kompact.RevisionStore, id string, rev int64) *kompact.Revision {
	t.Helper()
	out, err := Revision(t.Context(), st, id, rev)
	if err != nil {
		t.Fatalf("revision %d: %v", rev, err)
	}
	return out
}

// checkIDHistory fails when an id names two different messages anywhere
// in the session's history: its messages and those of its revisions. The
// store never assigns an id twice in a session.
func checkIDHistory(t *testing.T, st kompact.Store, id string) {
	t.Helper()
	seen := map[string]string{}
	check := func(where string, msgs []kompact.Message) {
		t.Helper()
		for i := range msgs {
			j := jsonOf(&msgs[i])
			if prev, ok := seen[msgs[i].ID]; ok && prev != j {
				t.Fatalf("the id %q names two messages in the session's history (%s):\n%s\n%s", msgs[i].ID, where, prev, j)
			}
			seen[msgs[i].ID] = j
		}
	}
	check("its messages", get(t, st, id).Messages)
	for _, info := range revisions(t, st, id) {
		check(fmt.Sprint("revision ", info.Rev), revision(t, st, id, info.Rev).Before)
	}
}

func ts(tm time.Time) string { return tm.UTC().Format(time.RFC3339Nano) }

// snapshot describes everything the store holds about one session,
// including every revision's messages, as text.
func snapshot(t *testing.T, st kompact.Store, id string) string {
	t.Helper()
	ctx := t.Context()
	s, err := st.GetSession(ctx, id)
	if err != nil {
		t.Fatalf("snapshot of %s: %v", id, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "version %d created %s updated %s\n", s.Version, ts(s.CreatedAt), ts(s.UpdatedAt))
	b.Write(s.Session.AppendJSON(nil))
	revs, err := st.ListRevisions(ctx, id)
	if err != nil {
		t.Fatalf("snapshot of %s: %v", id, err)
	}
	for _, info := range revs {
		r, err := Revision(ctx, st, id, info.Rev)
		if err != nil {
			t.Fatalf("snapshot of %s: revision %d: %v", id, info.Rev, err)
		}
		fmt.Fprintf(&b, "\nrev %d %s %q created %s version %d messages %d:%s", r.Rev, r.Kind, r.Note, ts(r.CreatedAt), r.Version, r.Messages, listJSON(r.Before))
	}
	return b.String()
}

// storeSnapshot is snapshot for every session, in listing order.
func storeSnapshot(t *testing.T, st kompact.Store) string {
	t.Helper()
	list := listSessions(t, st)
	var b strings.Builder
	for _, info := range list {
		fmt.Fprintf(&b, "== %+v\n%s\n", info, snapshot(t, st, info.ID))
	}
	return b.String()
}

func unchanged(t *testing.T, what, before, after string) {
	t.Helper()
	if before != after {
		t.Fatalf("%s changed the store\nbefore:\n%s\nafter:\n%s", what, before, after)
	}
}

// compaction prepares a compaction of s, applies summary as the LLM's
// answer and returns the commit that stores it.
func compaction(t *testing.T, s *kompact.StoredSession, opt kimi.Options, summary string) kompact.Commit {
	t.Helper()
	p, err := kimi.Prepare(&s.Session, opt)
	if err != nil {
		t.Fatal(err)
	}
	if p.Noop {
		t.Fatalf("nothing to compact: %s", p.Reason)
	}
	res, err := p.Apply(kompact.Answer{Parts: []kompact.Part{kompact.TextPart(summary)}})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Commit()
	c.Version, c.Generation = s.Version, s.Generation
	return c
}

func sameInfo(t *testing.T, what string, got, want kompact.RevisionInfo) {
	t.Helper()
	if got.Rev != want.Rev || got.Kind != want.Kind || got.Note != want.Note || got.Version != want.Version ||
		got.Messages != want.Messages || !got.CreatedAt.Equal(want.CreatedAt) {
		t.Fatalf("%s: %+v, want %+v", what, got, want)
	}
}

func sameStored(t *testing.T, what string, got, want *kompact.StoredSession) {
	t.Helper()
	if got.ID != want.ID || got.Agent != want.Agent || got.CompactionModel != want.CompactionModel ||
		got.Version != want.Version || !got.CreatedAt.Equal(want.CreatedAt) || !got.UpdatedAt.Equal(want.UpdatedAt) {
		t.Fatalf("%s: id %q agent %q model %q version %d created %s updated %s, want id %q agent %q model %q version %d created %s updated %s",
			what, got.ID, got.Agent, got.CompactionModel, got.Version, ts(got.CreatedAt), ts(got.UpdatedAt),
			want.ID, want.Agent, want.CompactionModel, want.Version, ts(want.CreatedAt), ts(want.UpdatedAt))
	}
	sameMessages(t, what, got.Messages, want.Messages)
}

// checkGet fails unless GetSession returns what a write returned.
func checkGet(t *testing.T, st kompact.Store, want *kompact.StoredSession) {
	t.Helper()
	got := get(t, st, want.ID)
	sameStored(t, "GetSession after the write", got, want)
}

func checkUTC(t *testing.T, what string, tm time.Time) {
	t.Helper()
	if tm.IsZero() || tm.Location() != time.UTC {
		t.Fatalf("%s: %v, want a UTC time", what, tm)
	}
}

// ---- tests ----

func testCreate(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	msgs := conversation()[:4]
	msgs[2].ID = "given"
	in := &kompact.Session{Agent: "kimi", CompactionModel: "model-x", Messages: msgs}
	s := create(t, st, in)
	if s.ID == "" {
		t.Fatal("CreateSession assigned no session id")
	}
	if in.ID != "" || in.Messages[0].ID != "" {
		t.Fatalf("CreateSession changed its input: id %q, first message id %q", in.ID, in.Messages[0].ID)
	}
	if s.Agent != "kimi" || s.CompactionModel != "model-x" || s.Version != 1 {
		t.Fatalf("agent %q model %q version %d, want kimi model-x 1", s.Agent, s.CompactionModel, s.Version)
	}
	checkUTC(t, "CreatedAt", s.CreatedAt)
	if !s.UpdatedAt.Equal(s.CreatedAt) {
		t.Fatalf("UpdatedAt %s differs from CreatedAt %s on a new session", ts(s.UpdatedAt), ts(s.CreatedAt))
	}
	checkIDs(t, "created session", s.Messages)
	if s.Messages[2].ID != "given" {
		t.Fatalf("the given message id became %q", s.Messages[2].ID)
	}
	sameMessages(t, "created messages", s.Messages, withIDs(msgs, s.Messages))
	checkGet(t, st, s)

	empty := create(t, st, &kompact.Session{})
	if empty.ID == "" || empty.ID == s.ID {
		t.Fatalf("second assigned id %q (first %q)", empty.ID, s.ID)
	}
	if len(empty.Messages) != 0 || empty.Version != 1 {
		t.Fatalf("empty session: %d messages, version %d", len(empty.Messages), empty.Version)
	}
	checkGet(t, st, empty)

	// Given ids that look like assigned ones do not collide with them.
	mixed := []kompact.Message{
		msg(kompact.RoleUser, "", "a"), msg(kompact.RoleUser, "m_1", "b"), msg(kompact.RoleUser, "", "c"),
		msg(kompact.RoleUser, "m_2", "d"), msg(kompact.RoleUser, "", "e"), msg(kompact.RoleUser, "m_3", "f"),
	}
	ms := create(t, st, &kompact.Session{ID: "chosen", Messages: mixed})
	if ms.ID != "chosen" {
		t.Fatalf("the given session id became %q", ms.ID)
	}
	checkIDs(t, "mixed ids", ms.Messages)
	sameMessages(t, "mixed ids", ms.Messages, withIDs(mixed, ms.Messages))

	// A taken session id is a conflict, and the session stays as it was.
	before := snapshot(t, st, "chosen")
	_, err := st.CreateSession(ctx, &kompact.Session{ID: "chosen", Messages: conversation()})
	wantCode(t, err, kompact.EConflict, "CreateSession with a taken id")
	unchanged(t, "CreateSession with a taken id", before, snapshot(t, st, "chosen"))
}

func testCreateRejects(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	create(t, st, &kompact.Session{ID: "keep", Messages: conversation()})
	before := storeSnapshot(t, st)
	bad := map[string][]kompact.Message{
		"duplicate message id": {msg(kompact.RoleUser, "x", "a"), msg(kompact.RoleAssistant, "y", "b"), msg(kompact.RoleUser, "x", "c")},
		"unknown role":         {msg(kompact.Role("robot"), "", "beep")},
		"unknown part type":    {{Role: kompact.RoleUser, Content: []kompact.Part{{Type: "file", Text: "a"}}}},
		"data that is not JSON": {{Role: kompact.RoleTool, Content: []kompact.Part{
			{Type: kompact.PartData, Data: []byte(`{"a":`)}}}},
	}
	for name, msgs := range bad {
		for _, id := range []string{"", "new"} {
			_, err := st.CreateSession(ctx, &kompact.Session{ID: id, Messages: msgs})
			wantCode(t, err, kompact.EInvalid, "CreateSession with "+name)
		}
		_, err := st.GetSession(ctx, "new")
		wantCode(t, err, kompact.ENotFound, "GetSession after a rejected CreateSession ("+name+")")
		unchanged(t, "CreateSession with "+name, before, storeSnapshot(t, st))
	}
}

func testRoundTrip(t *testing.T, st kompact.Store) {
	in := richMessages()
	created := create(t, st, &kompact.Session{ID: "rich", Agent: "a", Messages: in})
	want := withIDs(in, created.Messages)
	sameMessages(t, "CreateSession's result", created.Messages, want)
	got := get(t, st, "rich")
	sameMessages(t, "GetSession", got.Messages, want)
	sameStored(t, "GetSession", got, created)

	// The distinctions the JSON form keeps, checked on the values too.
	m := got.Messages
	if m[1].Name != "alice" || m[1].Content[1].MediaID == nil || *m[1].Content[1].MediaID != "img-1" ||
		m[1].Content[2].MediaID != nil || m[1].Content[3].MediaID == nil || *m[1].Content[3].MediaID != "" {
		t.Fatalf("media parts or name lost: %s", jsonOf(&m[1]))
	}
	if m[2].Content[0].Encrypted == nil || *m[2].Content[0].Encrypted != "c2lnbmF0dXJl" ||
		m[2].Content[1].Encrypted != nil || m[2].Content[2].Encrypted == nil {
		t.Fatalf("think parts lost their signatures: %s", jsonOf(&m[2]))
	}
	calls := m[2].ToolCalls
	if len(calls) != 3 || calls[0].Arguments == nil || *calls[0].Arguments != `{"path": "a.go"}` ||
		string(calls[0].Extras) != `{"k":[1,2.50,"x\u00e9"],"n":null}` ||
		calls[1].Arguments != nil || calls[2].Arguments == nil || *calls[2].Arguments != "" {
		t.Fatalf("tool calls changed: %s", jsonOf(&m[2]))
	}
	for i, p := range in[3].Content {
		if !bytes.Equal(m[3].Content[i].Data, p.Data) {
			t.Fatalf("data part %d: %s, want %s byte for byte", i, m[3].Content[i].Data, p.Data)
		}
	}
	for i, p := range in[4].Content {
		if !bytes.Equal(m[4].Content[i].Data, p.Data) {
			t.Fatalf("data part %d: %s, want %s byte for byte", i, m[4].Content[i].Data, p.Data)
		}
	}
	if !m[4].HasToolCallID || m[4].ToolCallID != "" || !m[3].HasToolCallID || m[3].ToolCallID != "call_1" {
		t.Fatalf("tool_call_id lost: %s / %s", jsonOf(&m[3]), jsonOf(&m[4]))
	}
	if m[6].ToolCalls == nil || len(m[6].ToolCalls) != 0 || m[0].ToolCalls != nil {
		t.Fatalf("an empty tool_calls list and a missing one must stay apart: %s / %s", jsonOf(&m[6]), jsonOf(&m[0]))
	}
	if m[7].ID != "custom-id" || m[7].Name != "bob" {
		t.Fatalf("message 7: %s", jsonOf(&m[7]))
	}

	// The same messages survive an append and a revision.
	app := appendMsgs(t, st, "rich", richMessages()[:7])
	sameMessages(t, "appended rich messages", app.Messages[len(in):], withIDs(richMessages()[:7], app.Messages[len(in):]))
	sameMessages(t, "GetSession after the append", get(t, st, "rich").Messages, app.Messages)
	c := kompact.Commit{Base: app.Messages, End: 2, Replacement: []kompact.Message{msg(kompact.RoleUser, "", "summary")}, Kind: kompact.RevisionCompaction, Note: "n"}
	_, info := commit(t, st, "rich", c)
	rev := revision(t, st, "rich", info.Rev)
	sameMessages(t, "a revision of rich messages", rev.Before, app.Messages)
}

func testNotFound(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	const missing = "no-such-session"
	one := []kompact.Message{msg(kompact.RoleUser, "", "hi")}
	bare := kompact.Commit{Replacement: one, Kind: kompact.RevisionCompaction}
	calls := map[string]func() error{
		"GetSession":       func() error { _, err := st.GetSession(ctx, missing); return err },
		"GetSessionHead":   func() error { _, err := st.GetSessionHead(ctx, missing); return err },
		"DeleteSession":    func() error { return st.DeleteSession(ctx, missing) },
		"AppendMessages":   func() error { _, err := st.AppendMessages(ctx, missing, one); return err },
		"UpdateSettings":   func() error { _, err := st.UpdateSettings(ctx, missing, Model("m")); return err },
		"CommitCompaction": func() error { _, _, err := st.CommitCompaction(ctx, missing, bare); return err },
		"ListRevisions":    func() error { _, err := st.ListRevisions(ctx, missing); return err },
		"StreamRevision":   func() error { _, err := Revision(ctx, st, missing, 1); return err },
		"RestoreRevision":  func() error { _, _, err := st.RestoreRevision(ctx, missing, 1); return err },
	}
	for name, call := range calls {
		wantCode(t, call(), kompact.ENotFound, name+" on a missing session")
	}
	if list := listSessions(t, st); len(list) != 0 {
		t.Fatalf("calls on a missing session created %+v", list)
	}

	s := create(t, st, &kompact.Session{ID: "here", Messages: conversation()})
	before := snapshot(t, st, "here")
	for _, rev := range []int64{0, 1, -1} {
		_, err := Revision(ctx, st, "here", rev)
		wantCode(t, err, kompact.ENotFound, fmt.Sprintf("revision %d without revisions", rev))
		_, _, err = st.RestoreRevision(ctx, "here", rev)
		wantCode(t, err, kompact.ENotFound, fmt.Sprintf("RestoreRevision(%d) without revisions", rev))
	}
	unchanged(t, "a missing revision", before, snapshot(t, st, "here"))

	commit(t, st, "here", compaction(t, s, kimi.Options{MaxPreserved: 2}, "S"))
	before = snapshot(t, st, "here")
	_, err := Revision(ctx, st, "here", 2)
	wantCode(t, err, kompact.ENotFound, "revision 2 with one revision")
	_, _, err = st.RestoreRevision(ctx, "here", 2)
	wantCode(t, err, kompact.ENotFound, "RestoreRevision(2) with one revision")
	unchanged(t, "a missing revision", before, snapshot(t, st, "here"))
}

func testList(t *testing.T, st kompact.Store) {
	if list := listSessions(t, st); len(list) != 0 {
		t.Fatalf("a new store lists %+v", list)
	}
	create(t, st, &kompact.Session{ID: "a", Agent: "kimi", Messages: conversation()[:2]})
	create(t, st, &kompact.Session{ID: "b", Agent: "local"})
	create(t, st, &kompact.Session{ID: "c", CompactionModel: "small", Messages: conversation()[:3]})
	appendMsgs(t, st, "a", []kompact.Message{msg(kompact.RoleAssistant, "", "late")})

	check := func(order string, counts []int, versions []int64) {
		t.Helper()
		list := listSessions(t, st)
		var ids []string
		for _, info := range list {
			ids = append(ids, info.ID)
		}
		if strings.Join(ids, ",") != order {
			t.Fatalf("listed %v, want %s (the most recently updated first)", ids, order)
		}
		for i, info := range list {
			s := get(t, st, info.ID)
			if info.Messages != counts[i] || info.Version != versions[i] || info.Messages != len(s.Messages) || info.Version != s.Version ||
				info.Agent != s.Agent || info.CompactionModel != s.CompactionModel ||
				!info.CreatedAt.Equal(s.CreatedAt) || !info.UpdatedAt.Equal(s.UpdatedAt) {
				t.Fatalf("listed %+v; want %d messages, version %d, and the stored session's fields (%q %q %s %s)",
					info, counts[i], versions[i], s.Agent, s.CompactionModel, ts(s.CreatedAt), ts(s.UpdatedAt))
			}
			if i > 0 && info.UpdatedAt.After(list[i-1].UpdatedAt) {
				t.Fatalf("%s was updated after %s but listed later", info.ID, list[i-1].ID)
			}
		}
	}
	check("a,c,b", []int{3, 3, 0}, []int64{2, 1, 1})
	setModel(t, st, "b", "big")
	check("b,a,c", []int{0, 3, 3}, []int64{2, 2, 1})
	if info := listSessions(t, st)[0]; info.CompactionModel != "big" || info.Agent != "local" {
		t.Fatalf("listed %+v, want agent local and model big", info)
	}
}

func testDelete(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	s := create(t, st, &kompact.Session{ID: "d", Messages: conversation()})
	create(t, st, &kompact.Session{ID: "other", Messages: conversation()})
	commit(t, st, "d", compaction(t, s, kimi.Options{MaxPreserved: 2}, "S"))
	other := snapshot(t, st, "other")

	if err := st.DeleteSession(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	_, err := st.GetSession(ctx, "d")
	wantCode(t, err, kompact.ENotFound, "GetSession after DeleteSession")
	_, err = st.ListRevisions(ctx, "d")
	wantCode(t, err, kompact.ENotFound, "ListRevisions after DeleteSession")
	_, err = Revision(ctx, st, "d", 1)
	wantCode(t, err, kompact.ENotFound, "a revision after DeleteSession")
	wantCode(t, st.DeleteSession(ctx, "d"), kompact.ENotFound, "DeleteSession twice")
	if list := listSessions(t, st); len(list) != 1 || list[0].ID != "other" {
		t.Fatalf("listed %+v after the delete, want only other", list)
	}
	unchanged(t, "deleting another session", other, snapshot(t, st, "other"))

	// A new session with the same id starts afresh: the old messages and
	// revisions went with the old one.
	fresh := []kompact.Message{msg(kompact.RoleUser, "", "new start")}
	ns := create(t, st, &kompact.Session{ID: "d", Messages: fresh})
	if ns.Version != 1 {
		t.Fatalf("recreated session has version %d", ns.Version)
	}
	sameMessages(t, "recreated session", get(t, st, "d").Messages, withIDs(fresh, ns.Messages))
	if revs := revisions(t, st, "d"); len(revs) != 0 {
		t.Fatalf("the recreated session has the old revisions %+v", revs)
	}
	_, err = Revision(ctx, st, "d", 1)
	wantCode(t, err, kompact.ENotFound, "a deleted session's revision")
}

func testAppend(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	s := create(t, st, &kompact.Session{ID: "s", Messages: []kompact.Message{
		msg(kompact.RoleUser, "u1", "hello"), msg(kompact.RoleAssistant, "", "hi"),
	}})
	add := []kompact.Message{msg(kompact.RoleUser, "", "more"), msg(kompact.RoleAssistant, "x", "sure")}
	a := appendMsgs(t, st, "s", add)
	if len(a.Messages) != 4 {
		t.Fatalf("%d messages after appending 2 to 2", len(a.Messages))
	}
	sameMessages(t, "messages before the append", a.Messages[:2], s.Messages)
	sameMessages(t, "appended messages", a.Messages[2:], withIDs(add, a.Messages[2:]))
	checkIDs(t, "after the append", a.Messages)
	if a.Messages[3].ID != "x" || add[0].ID != "" {
		t.Fatalf("ids: given one became %q, input changed to %q", a.Messages[3].ID, add[0].ID)
	}
	if a.Version != s.Version+1 || !a.UpdatedAt.After(s.UpdatedAt) || !a.CreatedAt.Equal(s.CreatedAt) {
		t.Fatalf("after an append: version %d (was %d), updated %s (was %s), created %s (was %s)",
			a.Version, s.Version, ts(a.UpdatedAt), ts(s.UpdatedAt), ts(a.CreatedAt), ts(s.CreatedAt))
	}
	checkUTC(t, "UpdatedAt", a.UpdatedAt)
	checkGet(t, st, a)

	prev := a
	for i := range 3 {
		batch := []kompact.Message{msg(kompact.RoleUser, "", fmt.Sprint("u", i))}
		if i == 1 {
			batch = append(batch, msg(kompact.RoleAssistant, "", "a"), msg(kompact.RoleUser, "", "b"))
		}
		next := appendMsgs(t, st, "s", batch)
		if next.Version != prev.Version+1 || !next.UpdatedAt.After(prev.UpdatedAt) || len(next.Messages) != len(prev.Messages)+len(batch) {
			t.Fatalf("append %d: version %d after %d, updated %s after %s, %d messages after %d",
				i, next.Version, prev.Version, ts(next.UpdatedAt), ts(prev.UpdatedAt), len(next.Messages), len(prev.Messages))
		}
		checkIDs(t, "after appends", next.Messages)
		prev = next
	}
	checkGet(t, st, prev)

	before := snapshot(t, st, "s")
	_, err := st.AppendMessages(ctx, "s", []kompact.Message{msg(kompact.RoleUser, "y", "a"), msg(kompact.RoleUser, "y", "b")})
	wantCode(t, err, kompact.EInvalid, "appending two messages with one id")
	_, err = st.AppendMessages(ctx, "s", []kompact.Message{msg(kompact.RoleUser, "", "a"), msg(kompact.RoleUser, "x", "b")})
	wantCode(t, err, kompact.EConflict, "appending an id the session has")
	_, err = st.AppendMessages(ctx, "s", []kompact.Message{msg(kompact.RoleUser, "", "a"), msg(kompact.Role("robot"), "", "b")})
	wantCode(t, err, kompact.EInvalid, "appending a message with an unknown role")
	unchanged(t, "a failed append", before, snapshot(t, st, "s"))

	// Assigned ids never take one a message was given.
	create(t, st, &kompact.Session{ID: "g", Messages: []kompact.Message{
		msg(kompact.RoleUser, "m_1", "a"), msg(kompact.RoleUser, "m_2", "b"), msg(kompact.RoleUser, "m_4", "c"), msg(kompact.RoleUser, "m_9", "d"),
	}})
	for i := range 3 {
		var batch []kompact.Message
		for j := range 4 {
			batch = append(batch, msg(kompact.RoleUser, "", fmt.Sprint(i, j)))
		}
		g := appendMsgs(t, st, "g", batch)
		checkIDs(t, "assigned next to given ids", g.Messages)
	}
}

func testCompactionModel(t *testing.T, st kompact.Store) {
	s := create(t, st, &kompact.Session{ID: "s", Agent: "kimi", Messages: conversation()})
	set := setModel(t, st, "s", "kimi-k2-turbo-preview")
	if set.CompactionModel != "kimi-k2-turbo-preview" || set.Version != s.Version+1 || !set.UpdatedAt.After(s.UpdatedAt) || set.Agent != "kimi" {
		t.Fatalf("after setting: model %q version %d updated %s agent %q", set.CompactionModel, set.Version, ts(set.UpdatedAt), set.Agent)
	}
	sameMessages(t, "messages after setting the model", set.Messages, s.Messages)
	checkGet(t, st, set)
	if info := listSessions(t, st)[0]; info.CompactionModel != "kimi-k2-turbo-preview" {
		t.Fatalf("listed model %q", info.CompactionModel)
	}
	cleared := setModel(t, st, "s", "")
	if cleared.CompactionModel != "" || cleared.Version != set.Version+1 || !cleared.UpdatedAt.After(set.UpdatedAt) {
		t.Fatalf("after clearing: model %q version %d", cleared.CompactionModel, cleared.Version)
	}
	checkGet(t, st, cleared)
}

func testCommitCompaction(t *testing.T, st kompact.Store) {
	s0 := create(t, st, &kompact.Session{ID: "s", Messages: conversation()})
	c1 := compaction(t, s0, kimi.Options{MaxPreserved: 2}, "first summary")
	s1, info := commit(t, st, "s", c1)
	want := append(append([]kompact.Message(nil), c1.Replacement...), s0.Messages[c1.End:]...)
	sameMessages(t, "compacted session", s1.Messages, withIDs(want, s1.Messages))
	checkIDs(t, "compacted session", s1.Messages)
	if got := s1.Messages[1].Content[0].Text; !strings.HasPrefix(got, kompact.SummaryPrefix) || !strings.HasSuffix(got, "first summary") {
		t.Fatalf("the second message is not the summary: %q", got)
	}
	if s1.Version != s0.Version+1 || !s1.UpdatedAt.After(s0.UpdatedAt) || !s1.CreatedAt.Equal(s0.CreatedAt) {
		t.Fatalf("after the commit: version %d (was %d), updated %s (was %s)", s1.Version, s0.Version, ts(s1.UpdatedAt), ts(s0.UpdatedAt))
	}
	checkUTC(t, "revision CreatedAt", info.CreatedAt)
	sameInfo(t, "first revision", *info, kompact.RevisionInfo{
		Rev: 1, Kind: kompact.RevisionCompaction, Note: c1.Note, CreatedAt: info.CreatedAt, Version: s1.Version, Messages: len(s0.Messages)})
	checkGet(t, st, s1)
	r1 := revision(t, st, "s", 1)
	sameInfo(t, "revision 1", r1.RevisionInfo, *info)
	sameMessages(t, "revision 1's messages", r1.Before, s0.Messages)

	// Second compaction, after more turns. The ids assigned to them are new
	// even to the revision: an assigned id is never used twice in a session.
	s1b := appendMsgs(t, st, "s", []kompact.Message{msg(kompact.RoleUser, "", "next"), msg(kompact.RoleAssistant, "", "done")})
	checkIDs(t, "appended after a compaction and its revision", append(append([]kompact.Message(nil), r1.Before...), s1b.Messages[len(s1.Messages):]...))
	c2 := compaction(t, s1b, kimi.Options{MaxPreserved: 2}, "second summary")
	s2, info2 := commit(t, st, "s", c2)
	if info2.Rev != 2 || info2.Version != s2.Version || s2.Version != s1b.Version+1 || info2.Messages != len(s1b.Messages) {
		t.Fatalf("second revision %+v, session version %d (was %d)", *info2, s2.Version, s1b.Version)
	}
	sameMessages(t, "revision 2's messages", revision(t, st, "s", 2).Before, s1b.Messages)

	// Third: messages appended while the compaction ran follow the summary.
	c3 := compaction(t, s2, kimi.Options{MaxPreserved: 1}, "third summary")
	late := []kompact.Message{msg(kompact.RoleUser, "late-1", "arrived during the compaction"), msg(kompact.RoleAssistant, "", "noted")}
	s2b := appendMsgs(t, st, "s", late)
	s3, info3 := commit(t, st, "s", c3)
	want = append(append([]kompact.Message(nil), c3.Replacement...), s2b.Messages[c3.End:]...)
	sameMessages(t, "compaction with late messages", s3.Messages, withIDs(want, s3.Messages))
	checkIDs(t, "compaction with late messages", s3.Messages)
	if info3.Rev != 3 || info3.Messages != len(s2b.Messages) || s3.Version != s2b.Version+1 {
		t.Fatalf("third revision %+v, version %d (was %d)", *info3, s3.Version, s2b.Version)
	}
	sameMessages(t, "revision 3's messages (the list just before, late messages included)", revision(t, st, "s", 3).Before, s2b.Messages)
	checkGet(t, st, s3)

	revs := revisions(t, st, "s")
	if len(revs) != 3 {
		t.Fatalf("%d revisions, want 3", len(revs))
	}
	for i, want := range []*kompact.RevisionInfo{info3, info2, info} {
		sameInfo(t, fmt.Sprintf("ListRevisions[%d] (newest first)", i), revs[i], *want)
	}
	checkIDHistory(t, st, "s")
}

func testConflict(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	s0 := create(t, st, &kompact.Session{ID: "s", Messages: conversation()})
	cA := compaction(t, s0, kimi.Options{MaxPreserved: 2}, "A")
	cB := compaction(t, s0, kimi.Options{MaxPreserved: 2}, "B")
	commit(t, st, "s", cA)

	// cB's base is gone: the session now has fewer messages than it replaces.
	before := snapshot(t, st, "s")
	_, _, err := st.CommitCompaction(ctx, "s", cB)
	wantCode(t, err, kompact.EConflict, "a commit over a shorter session")
	unchanged(t, "a conflicting commit", before, snapshot(t, st, "s"))

	// With enough messages again, the replaced range itself differs.
	var more []kompact.Message
	for i := range 8 {
		more = append(more, msg(kompact.RoleUser, "", fmt.Sprint("more ", i)))
	}
	appendMsgs(t, st, "s", more)
	before = snapshot(t, st, "s")
	_, _, err = st.CommitCompaction(ctx, "s", cB)
	wantCode(t, err, kompact.EConflict, "a commit whose compacted messages changed")
	unchanged(t, "a conflicting commit", before, snapshot(t, st, "s"))

	// A change inside the kept messages is a conflict too.
	cur := get(t, st, "s")
	c := kompact.Commit{Base: append([]kompact.Message(nil), cur.Messages...), End: 3,
		Replacement: []kompact.Message{msg(kompact.RoleUser, "", "S")}, Kind: kompact.RevisionCompaction}
	c.Base[2] = msg(kompact.RoleUser, c.Base[2].ID, "edited")
	_, _, err = st.CommitCompaction(ctx, "s", c)
	wantCode(t, err, kompact.EConflict, "a commit whose base differs in one message")
	unchanged(t, "a conflicting commit", before, snapshot(t, st, "s"))
	// Even when the difference is one character, the JSON as long as before.
	c.Base[2] = cur.Messages[2]
	edited := []byte(cur.Messages[2].Content[0].Text)
	edited[0] ^= 0x20 // "Run" becomes "run"
	c.Base[2].Content = []kompact.Part{kompact.TextPart(string(edited))}
	if jsonOf(&c.Base[2]) == jsonOf(&cur.Messages[2]) || len(jsonOf(&c.Base[2])) != len(jsonOf(&cur.Messages[2])) {
		t.Fatalf("the test's edit failed: %s", jsonOf(&c.Base[2]))
	}
	_, _, err = st.CommitCompaction(ctx, "s", c)
	wantCode(t, err, kompact.EConflict, "a commit whose base differs in one character")
	unchanged(t, "a conflicting commit", before, snapshot(t, st, "s"))

	// A commit whose end lies outside its base is invalid.
	for _, end := range []int{-1, len(cur.Messages) + 1} {
		_, _, err = st.CommitCompaction(ctx, "s", kompact.Commit{Base: cur.Messages, End: end, Replacement: c.Replacement, Kind: kompact.RevisionCompaction})
		wantCode(t, err, kompact.EInvalid, fmt.Sprintf("a commit with end %d", end))
	}
	unchanged(t, "an invalid commit", before, snapshot(t, st, "s"))

	// So is a replacement that repeats an id, or one a kept message has.
	dup := kompact.Commit{Base: cur.Messages, End: 2, Kind: kompact.RevisionCompaction,
		Replacement: []kompact.Message{msg(kompact.RoleUser, "r", "a"), msg(kompact.RoleUser, "r", "b")}}
	_, _, err = st.CommitCompaction(ctx, "s", dup)
	wantCode(t, err, kompact.EInvalid, "a replacement with one id twice")
	dup.Replacement = []kompact.Message{msg(kompact.RoleUser, cur.Messages[5].ID, "a")}
	_, _, err = st.CommitCompaction(ctx, "s", dup)
	if code := kompact.ErrorCodeOf(err); code != kompact.EConflict && code != kompact.EInvalid {
		t.Fatalf("a replacement taking a kept message's id: %v, want a conflict or an invalid request", err)
	}
	unchanged(t, "an invalid commit", before, snapshot(t, st, "s"))
}

func testRestore(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	s0 := create(t, st, &kompact.Session{ID: "s", Messages: append(conversation(), richMessages()[1:5]...)})
	c1 := compaction(t, s0, kimi.Options{End: s0.Messages[6].ID}, "summary")
	s1, _ := commit(t, st, "s", c1)

	r, info := restore(t, st, "s", 1)
	sameMessages(t, "restored session", r.Messages, s0.Messages)
	if r.Version != s1.Version+1 || !r.UpdatedAt.After(s1.UpdatedAt) {
		t.Fatalf("after the restore: version %d (was %d)", r.Version, s1.Version)
	}
	sameInfo(t, "restore revision", *info, kompact.RevisionInfo{
		Rev: 2, Kind: kompact.RevisionRestore, Note: info.Note, CreatedAt: info.CreatedAt, Version: r.Version, Messages: len(s1.Messages)})
	checkUTC(t, "restore revision CreatedAt", info.CreatedAt)
	checkGet(t, st, r)
	rev2 := revision(t, st, "s", 2)
	sameMessages(t, "the restore's own revision", rev2.Before, s1.Messages)
	sameInfo(t, "revision 2", rev2.RevisionInfo, *info)

	// Restoring the restore returns to the compacted state.
	r2, info2 := restore(t, st, "s", 2)
	sameMessages(t, "restore of the restore", r2.Messages, s1.Messages)
	if info2.Rev != 3 || info2.Kind != kompact.RevisionRestore || r2.Version != r.Version+1 {
		t.Fatalf("second restore: %+v, version %d", *info2, r2.Version)
	}
	sameMessages(t, "the second restore's revision", revision(t, st, "s", 3).Before, s0.Messages)
	checkGet(t, st, r2)

	before := snapshot(t, st, "s")
	_, _, err := st.RestoreRevision(ctx, "s", 99)
	wantCode(t, err, kompact.ENotFound, "restoring a missing revision")
	unchanged(t, "restoring a missing revision", before, snapshot(t, st, "s"))

	// The session goes on: new ids stay unique, and the old compaction's
	// base matches again after restoring it.
	r3, _ := restore(t, st, "s", 1)
	a := appendMsgs(t, st, "s", []kompact.Message{msg(kompact.RoleUser, "", "x"), msg(kompact.RoleAssistant, "", "y")})
	checkIDs(t, "appended after restores", a.Messages)
	sameMessages(t, "restored prefix", a.Messages[:len(r3.Messages)], s0.Messages)
	s4, info4 := commit(t, st, "s", c1)
	if info4.Rev != 5 {
		t.Fatalf("revision numbers: %d after 4", info4.Rev)
	}
	want := append(append([]kompact.Message(nil), c1.Replacement...), a.Messages[c1.End:]...)
	sameMessages(t, "recompacted after the restore", s4.Messages, withIDs(want, s4.Messages))
	checkIDs(t, "recompacted", s4.Messages)
	checkIDHistory(t, st, "s")
}

// testConcurrency appends from several goroutines while another compacts
// the session and others read it. Every appended message must end up in the
// session exactly once, in its writer's order, after the summary.
func testConcurrency(t *testing.T, st kompact.Store) {
	seed := []kompact.Message{
		msg(kompact.RoleSystem, "sys", "system"),
		msg(kompact.RoleUser, "u1", "one"), msg(kompact.RoleAssistant, "a1", "one"),
		msg(kompact.RoleUser, "u2", "two"), msg(kompact.RoleAssistant, "a2", "two"),
		msg(kompact.RoleUser, "u3", "three"), msg(kompact.RoleAssistant, "a3", "three"),
	}
	create(t, st, &kompact.Session{ID: "s", Messages: seed})
	r := &concurrentRun{st: st, writers: 4, perWriter: 12, loaded: make(chan struct{})}
	var wg sync.WaitGroup
	for w := range r.writers {
		wg.Go(func() { r.write(t, w) })
	}
	wg.Go(func() { r.compact(t) })
	done := make(chan struct{})
	var readers sync.WaitGroup
	for range 2 {
		readers.Go(func() { r.read(t, done) })
	}
	wg.Wait()
	close(done)
	readers.Wait()
	if t.Failed() {
		return
	}
	if r.commitErr != nil {
		t.Fatalf("the compaction failed while messages were appended: %v", r.commitErr)
	}
	r.checkSession(t)
	r.checkRevision(t, seed)
}

// concurrentRun is the shared state of testConcurrency's goroutines.
type concurrentRun struct {
	st                 kompact.Store
	writers, perWriter int
	appended, calls    atomic.Int64
	// loaded is closed once the compaction has read the session: each
	// writer appends one message before, the rest while it runs.
	loaded     chan struct{}
	commitErr  error
	commitBase int // the messages the compaction read
}

// waitFor waits (10s at most) until n messages were appended.
func (r *concurrentRun) waitFor(n int64) {
	deadline := time.Now().Add(10 * time.Second)
	for r.appended.Load() < n && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
}

// write appends writer w's messages "wN-KK", sometimes two at once.
func (r *concurrentRun) write(t *testing.T, w int) {
	for k := 0; k < r.perWriter; {
		batch := []kompact.Message{msg(kompact.RoleUser, "", fmt.Sprintf("w%d-%02d", w, k))}
		if k%3 == 1 && k+1 < r.perWriter { // sometimes two at once
			batch = append(batch, msg(kompact.RoleAssistant, "", fmt.Sprintf("w%d-%02d", w, k+1)))
		}
		if _, err := r.st.AppendMessages(t.Context(), "s", batch); err != nil {
			t.Errorf("writer %d: %v", w, err)
			return
		}
		r.calls.Add(1)
		r.appended.Add(int64(len(batch)))
		if k == 0 {
			<-r.loaded
		}
		k += len(batch)
	}
}

// compact reads the session once every writer has appended, prepares a
// compaction up to a2 and commits it once half the messages arrived (the
// LLM takes a while).
func (r *concurrentRun) compact(t *testing.T) {
	ctx := t.Context()
	r.waitFor(int64(r.writers))
	s, err := r.st.GetSession(ctx, "s")
	close(r.loaded)
	if err != nil {
		r.commitErr = err
		return
	}
	p, err := kimi.Prepare(&s.Session, kimi.Options{End: "a2"})
	if err != nil {
		r.commitErr = err
		return
	}
	res, err := p.Apply(kompact.Answer{Parts: []kompact.Part{kompact.TextPart("the summary")}})
	if err != nil {
		r.commitErr = err
		return
	}
	r.waitFor(int64(r.writers * r.perWriter / 2))
	r.commitBase = len(s.Messages)
	_, _, r.commitErr = r.st.CommitCompaction(ctx, "s", res.Commit())
}

// read reads until done: readers always see a whole session (ids unique,
// each writer's messages in order).
func (r *concurrentRun) read(t *testing.T, done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		default:
		}
		s, err := r.st.GetSession(t.Context(), "s")
		if err != nil {
			t.Errorf("reader: %v", err)
			return
		}
		if err := checkWriters(s.Messages, r.writers, -1); err != nil {
			t.Errorf("reader saw a torn session: %v", err)
			return
		}
		if _, err := r.st.ListSessions(t.Context(), kompact.SessionFilter{}); err != nil {
			t.Errorf("reader: %v", err)
			return
		}
	}
}

// checkSession checks the session after the run: every message once, in
// order, after the system message, the summary and the kept u3 and a3.
func (r *concurrentRun) checkSession(t *testing.T) {
	s := get(t, r.st, "s")
	if err := checkWriters(s.Messages, r.writers, r.perWriter); err != nil {
		t.Fatal(err)
	}
	checkIDs(t, "after the concurrent writes", s.Messages)
	if want := 4 + r.writers*r.perWriter; len(s.Messages) != want {
		t.Fatalf("%d messages, want %d", len(s.Messages), want)
	}
	if s.Messages[0].ID != "sys" || !strings.HasSuffix(s.Messages[1].Content[0].Text, "the summary") ||
		s.Messages[2].ID != "u3" || s.Messages[3].ID != "a3" {
		t.Fatalf("the session does not start with the system message, the summary, u3 and a3:%s", listJSON(s.Messages[:4]))
	}
	if want := 1 + r.calls.Load() + 1; s.Version != want {
		t.Fatalf("version %d after %d appends and one commit, want %d", s.Version, r.calls.Load(), want)
	}
}

// checkRevision checks the one revision: it holds the seed and the
// messages that arrived while the compaction ran.
func (r *concurrentRun) checkRevision(t *testing.T, seed []kompact.Message) {
	revs := revisions(t, r.st, "s")
	if len(revs) != 1 {
		t.Fatalf("%d revisions, want 1", len(revs))
	}
	rev := revision(t, r.st, "s", revs[0].Rev)
	if len(rev.Before) <= r.commitBase {
		t.Fatalf("the revision holds %d messages, the compaction read %d: none arrived while it ran", len(rev.Before), r.commitBase)
	}
	sameMessages(t, "the revision's seed", rev.Before[:len(seed)], seed)
	if err := checkWriters(rev.Before, r.writers, -1); err != nil {
		t.Fatalf("the revision: %v", err)
	}
}

// checkWriters checks the messages texted "wN-KK": every writer's appear in
// order with none missing in between (counting from 0) and none twice. With
// perWriter >= 0, each writer must have exactly that many, all after the
// summary (the first message whose text starts with the summary prefix, if
// any, must come before them).
func checkWriters(msgs []kompact.Message, writers, perWriter int) error {
	next := make([]int, writers)
	summaryAt := -1
	for i := range msgs {
		if len(msgs[i].Content) != 1 {
			continue
		}
		text := msgs[i].Content[0].Text
		if strings.HasPrefix(text, kompact.SummaryPrefix) {
			summaryAt = i
			continue
		}
		var w, k int
		if n, _ := fmt.Sscanf(text, "w%d-%d", &w, &k); n != 2 {
			continue
		}
		if w < 0 || w >= writers || k != next[w] {
			return fmt.Errorf("message %d is %q, want w%d-%02d next", i, text, w, next[w])
		}
		if perWriter >= 0 && summaryAt < 0 {
			return fmt.Errorf("message %d (%q) comes before the summary", i, text)
		}
		next[w]++
	}
	if perWriter >= 0 {
		for w, n := range next {
			if n != perWriter {
				return fmt.Errorf("writer %d has %d messages in the session, want %d", w, n, perWriter)
			}
		}
	}
	return nil
}

func testReopen(t *testing.T, open, reopen func(t *testing.T) kompact.Store) {
	ctx := t.Context()
	st := open(t)
	closed := false
	t.Cleanup(func() {
		if !closed {
			if err := st.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		}
	})
	s0 := create(t, st, &kompact.Session{ID: "a", Agent: "kimi", Messages: append(conversation(), richMessages()...)})
	appendMsgs(t, st, "a", []kompact.Message{msg(kompact.RoleUser, "", "more"), msg(kompact.RoleAssistant, "", "ok")})
	s1 := get(t, st, "a")
	commit(t, st, "a", compaction(t, s1, kimi.Options{End: s0.Messages[6].ID}, "S"))
	restore(t, st, "a", 1)
	setModel(t, st, "a", "small")
	create(t, st, &kompact.Session{Messages: conversation()})
	create(t, st, &kompact.Session{ID: "gone"})
	if err := st.DeleteSession(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	pvNow := time.Now().UTC()
	pv := previewAt("pv_kept", "a", 7, 300, pvNow.Add(kompact.PreviewTTL).Truncate(time.Microsecond))
	putPreview(t, st, pv, pvNow, kompact.DefaultPreviewLimits)
	before := storeSnapshot(t, st)
	if n := len(listSessions(t, st)); n != 2 {
		t.Fatalf("%d sessions before closing, want 2", n)
	}
	closed = true
	if err := st.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	st2 := reopen(t)
	t.Cleanup(func() {
		if err := st2.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	unchanged(t, "closing and reopening", before, storeSnapshot(t, st2))
	_, err := st2.GetSession(ctx, "gone")
	wantCode(t, err, kompact.ENotFound, "a deleted session after reopening")
	if got, err := st2.TakePreview(ctx, "a", pv.ID, pvNow); err != nil || got.Version != pv.Version || !bytes.Equal(got.Body, pv.Body) {
		t.Fatalf("a preview after reopening: %v, %v; want it whole", got, err)
	}

	// The reopened store carries on: new ids stay unique, versions and
	// revision numbers continue.
	prev := get(t, st2, "a")
	a := appendMsgs(t, st2, "a", []kompact.Message{msg(kompact.RoleUser, "", "after"), msg(kompact.RoleAssistant, "", "reopen")})
	checkIDs(t, "appended after reopening", a.Messages)
	for _, info := range revisions(t, st2, "a") {
		checkIDs(t, "appended after reopening, with the messages of a revision",
			append(append([]kompact.Message(nil), revision(t, st2, "a", info.Rev).Before...), a.Messages[len(prev.Messages):]...))
	}
	if a.Version != prev.Version+1 || !a.UpdatedAt.After(prev.UpdatedAt) {
		t.Fatalf("after reopening: version %d (was %d), updated %s (was %s)", a.Version, prev.Version, ts(a.UpdatedAt), ts(prev.UpdatedAt))
	}
	_, info := commit(t, st2, "a", compaction(t, a, kimi.Options{MaxPreserved: 2}, "S2"))
	if info.Rev != 3 {
		t.Fatalf("the first revision after reopening is %d, want 3", info.Rev)
	}
	checkIDHistory(t, st2, "a")
	if _, err := st2.CreateSession(ctx, &kompact.Session{ID: "a"}); kompact.ErrorCodeOf(err) != kompact.EConflict {
		t.Fatalf("creating a taken id after reopening: %v, want a conflict", err)
	}
}

// testCommitAfterRewrite commits compactions that carry the version they
// read, after the session was rewritten since: by another compaction (a
// conflict, even though the commit names a version), and by a restore that
// put the very messages back (no conflict, as storeutil.Rebase decides).
func testCommitAfterRewrite(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	s0 := create(t, st, &kompact.Session{ID: "s", Messages: conversation()})
	cA := compaction(t, s0, kimi.Options{MaxPreserved: 2}, "A")
	cB := compaction(t, s0, kimi.Options{MaxPreserved: 2}, "B")
	if cB.Version != s0.Version {
		t.Fatalf("the commit carries version %d, want %d", cB.Version, s0.Version)
	}
	_, infoA := commit(t, st, "s", cA)
	var more []kompact.Message
	for i := range len(s0.Messages) {
		more = append(more, msg(kompact.RoleUser, "", fmt.Sprint("more ", i)))
	}
	appendMsgs(t, st, "s", more)
	before := snapshot(t, st, "s")
	_, _, err := st.CommitCompaction(ctx, "s", cB)
	wantCode(t, err, kompact.EConflict, "a commit with a version, over a session compacted since")
	unchanged(t, "a conflicting commit", before, snapshot(t, st, "s"))

	// Restoring puts s0's messages back; appends follow. cB applies now.
	restore(t, st, "s", infoA.Rev)
	late := appendMsgs(t, st, "s", []kompact.Message{msg(kompact.RoleUser, "", "late")})
	got, _ := commit(t, st, "s", cB)
	want := append(append([]kompact.Message(nil), cB.Replacement...), late.Messages[cB.End:]...)
	sameMessages(t, "a commit after a restore", got.Messages, withIDs(want, got.Messages))
	checkIDs(t, "a commit after a restore", got.Messages)
	checkGet(t, st, got)

	// A restore that keeps the replaced range's ids but changes what
	// follows: the commit takes the session's messages, not its base's.
	t2 := create(t, st, &kompact.Session{ID: "t", Messages: conversation()})
	_, info1 := commit(t, st, "t", compaction(t, t2, kimi.Options{MaxPreserved: 2}, "t1"))
	restore(t, st, "t", info1.Rev)
	read := appendMsgs(t, st, "t", []kompact.Message{msg(kompact.RoleUser, "", "x"), msg(kompact.RoleUser, "", "y")})
	cT := compaction(t, read, kimi.Options{MaxPreserved: 2}, "t2")
	restore(t, st, "t", info1.Rev) // x and y are gone again
	var zs []kompact.Message
	for i := range 3 {
		zs = append(zs, msg(kompact.RoleUser, "", fmt.Sprint("z", i)))
	}
	now := appendMsgs(t, st, "t", zs)
	if len(now.Messages) < len(read.Messages) {
		t.Fatalf("the test needs the session at least as long as the base: %d < %d", len(now.Messages), len(read.Messages))
	}
	gotT, _ := commit(t, st, "t", cT)
	wantT := append(append([]kompact.Message(nil), cT.Replacement...), now.Messages[cT.End:]...)
	sameMessages(t, "a commit after a restore that changed the messages after the range", gotT.Messages, withIDs(wantT, gotT.Messages))
	checkGet(t, st, gotT)

	// A commit with a version and appends since keeps them, in order.
	cC := compaction(t, got, kimi.Options{MaxPreserved: 1}, "C")
	var late2 []kompact.Message
	for i := range 3 {
		late2 = append(late2, msg(kompact.RoleUser, "", fmt.Sprint("late ", i)))
		appendMsgs(t, st, "s", late2[i:])
	}
	cur := get(t, st, "s")
	got, _ = commit(t, st, "s", cC)
	want = append(append([]kompact.Message(nil), cC.Replacement...), cur.Messages[cC.End:]...)
	sameMessages(t, "a commit with appends since", got.Messages, withIDs(want, got.Messages))
	checkGet(t, st, got)
}
