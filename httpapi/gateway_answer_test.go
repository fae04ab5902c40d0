package httpapi_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kompact"
	"kompact/anthropic"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/llmclient"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakeanthropic"
	"kompact/internal/testing/testserver"
	"kompact/openai"
	"kompact/sqlite"
)

// Issue 39 §1: Claude Code's compaction request answered with what the
// user asked, when they ask, from the committed result.

// recordingCC is a fake that answers Claude Code's turns with 3000 input
// tokens (past the precompute's 2500) and kompact's own compaction
// requests with ccSummary, after hold when it is not nil; it keeps
// kompact's compaction requests' bodies.
type recordingCC struct {
	*fakeanthropic.Server
	mu        sync.Mutex
	compacts  []string
	hold      func(body string)
	turnUsage atomic.Int64
}

func newRecordingCC(t *testing.T) *recordingCC {
	f := &recordingCC{}
	f.turnUsage.Store(3000)
	f.Server = fakeanthropic.New(t, func(r fakeanthropic.Request) fakeanthropic.Answer {
		if r.Header.Get("X-Claude-Code-Session-Id") == "" {
			f.mu.Lock()
			f.compacts = append(f.compacts, string(r.Body))
			hold := f.hold
			f.mu.Unlock()
			if hold != nil {
				hold(string(r.Body))
			}
			return fakeanthropic.Answer{Events: fakeanthropic.TextStream(apitest.CCModel, "<summary>"+apitest.CCSummary+"</summary>", fakeanthropic.Usage{Input: 2000, Output: 40})}
		}
		return fakeanthropic.Answer{Events: fakeanthropic.TextStream(apitest.CCModel, "ok", fakeanthropic.Usage{Input: f.turnUsage.Load(), Output: 5})}
	})
	return f
}

// compactions returns kompact's compaction requests so far.
func (f *recordingCC) compactions() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.compacts...)
}

// ccTurn sends one Claude Code turn of messages and reads its answer.
func ccTurn(t *testing.T, base, sid string, messages []string) {
	t.Helper()
	resp := apitest.PostMessages(t, context.Background(), base+"/gateway/cc/v1/messages?beta=true", apitest.CCHeaders(sid), apitest.CCBody("["+strings.Join(messages, ",")+"]"))
	_, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("turn: %d", resp.StatusCode)
	}
}

// ccPrompt is a compaction request's prompt message in Claude Code's
// shape (only its opening and the line that labels the user's
// instructions are Claude Code's; the rest stands in for it), with the
// user's instructions when not "".
func ccPrompt(instructions string) string {
	text := "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\n(the rest of Claude Code's instruction)"
	if instructions != "" {
		text += "\n\nAdditional Instructions:\n" + instructions
	}
	text += "\n\n(Claude Code's closing reminder)"
	return `{"role":"user","content":` + apitest.JSONString(text) + `}`
}

// TestMessagesPrecomputeAfterCrossingTurn (issue 39 §1): the precompute
// starts as soon as the turn whose usage crosses gateway.precompute_ratio
// has been relayed, not at the next request: with no request after it,
// the summary becomes ready; a /compact then is answered from it, and
// recorded as a manual compaction (the session is far below the size at
// which Claude Code compacts by itself). On main the summary waited for
// the next request, and the answer was recorded as auto_compaction.
func TestMessagesPrecomputeAfterCrossingTurn(t *testing.T) {
	fake := newRecordingCC(t)
	srv := apitest.CompactingServer(t, apitest.CompactingCC(fake.URL, ""))
	const sid = "c0ffee00-0000-4000-8000-000000000391"
	history := ccHistory(3)
	ccTurn(t, srv.URL, sid, history[:5]) // answered with 3000 input tokens: the crossing turn
	apitest.WaitGatewayPreview(t, srv.URL, sid)
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages?beta=true", apitest.CCHeaders(sid),
		apitest.CCBody("["+strings.Join(append(history[:5:5], `{"role":"assistant","content":[{"type":"text","text":"ok"}]}`, ccPrompt("")), ",")+"]"))
	body, _ := io.ReadAll(resp.Body)
	if resp.Header.Get("X-Kompact-Forwarded") != "answered" {
		t.Fatalf("not answered: %d %q %s", resp.StatusCode, resp.Header.Get("X-Kompact-Forwarded"), body)
	}
	if revs := apitest.RevisionList(t, srv.URL, sid); len(revs) != 1 || revs[0].Kind != "compaction" || revs[0].Note != "compacted 3 messages (precomputed)" {
		t.Errorf("revisions %+v, want the /compact as one manual compaction", revs)
	}
}

// TestMessagesAutoCompactionRecorded (issue 39 §1): a compaction request
// that comes when the session is at the size where Claude Code compacts
// by itself is recorded as auto_compaction.
func TestMessagesAutoCompactionRecorded(t *testing.T) {
	fake := newRecordingCC(t)
	fake.turnUsage.Store(9900) // of the agent's 10000: Claude Code's own compaction is due
	srv := apitest.CompactingServer(t, apitest.CompactingCC(fake.URL, ", compaction: wait"))
	const sid = "c0ffee00-0000-4000-8000-000000000392"
	history := ccHistory(3)
	ccTurn(t, srv.URL, sid, history[:5])
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages?beta=true", apitest.CCHeaders(sid),
		apitest.CCBody("["+strings.Join(append(history[:5:5], `{"role":"assistant","content":[{"type":"text","text":"ok"}]}`, ccPrompt("")), ",")+"]"))
	_, _ = io.ReadAll(resp.Body)
	if resp.Header.Get("X-Kompact-Forwarded") != "answered" {
		t.Fatalf("not answered: %d %q", resp.StatusCode, resp.Header.Get("X-Kompact-Forwarded"))
	}
	if revs := apitest.RevisionList(t, srv.URL, sid); len(revs) != 1 || revs[0].Kind != "auto_compaction" {
		t.Errorf("revisions %+v, want Claude Code's own compaction as auto_compaction", revs)
	}
}

// TestMessagesCompactionInstructions (issue 39 §1, KCP-011): a /compact
// TEXT after a ready precompute is not answered from the summary made
// without TEXT: kompact compacts now with TEXT after the standing
// instructions (agent, then session), answers from that, and names TEXT
// on the manual revision; the precompute made without them is dropped.
func TestMessagesCompactionInstructions(t *testing.T) {
	fake := newRecordingCC(t)
	srv := apitest.CompactingServer(t, strings.Replace(apitest.CompactingCC(fake.URL, ""), "max_preserved_messages: 2", "max_preserved_messages: 2\n      instructions: AGENT-STANDING", 1))
	const sid = "c0ffee00-0000-4000-8000-000000000393"
	history := ccHistory(3)
	ccTurn(t, srv.URL, sid, history[:3])
	ccTurn(t, srv.URL, sid, history[:5])
	apitest.WaitGatewayPreview(t, srv.URL, sid)
	before := len(fake.compactions())
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages?beta=true", apitest.CCHeaders(sid),
		apitest.CCBody("["+strings.Join(append(history[:5:5], `{"role":"assistant","content":[{"type":"text","text":"ok"}]}`, ccPrompt("keep the fruit names")), ",")+"]"))
	body, _ := io.ReadAll(resp.Body)
	if resp.Header.Get("X-Kompact-Forwarded") != "answered" {
		t.Fatalf("not answered: %d %q %s", resp.StatusCode, resp.Header.Get("X-Kompact-Forwarded"), body)
	}
	after := fake.compactions()[before:]
	if len(after) != 1 {
		t.Fatalf("%d compaction requests after the /compact TEXT, want 1 made with TEXT", len(after))
	}
	agent, user := strings.Index(after[0], "AGENT-STANDING"), strings.Index(after[0], "keep the fruit names")
	if agent < 0 || user < agent {
		t.Errorf("the compaction request does not carry the standing instructions, then TEXT (%d, %d)", agent, user)
	}
	revs := apitest.RevisionList(t, srv.URL, sid)
	if len(revs) != 1 || revs[0].Kind != "compaction" || !strings.Contains(revs[0].Note, `"keep the fruit names"`) {
		t.Errorf("revisions %+v, want one manual compaction naming the instructions", revs)
	}
	if n := gatewayPreviews(t, srv.URL, sid); n != 0 {
		t.Errorf("%d precomputed summaries left, want the one made without TEXT dropped", n)
	}
}

// gatewayPreviews is session id's gateway_previews in the session list.
func gatewayPreviews(t *testing.T, base, id string) int {
	t.Helper()
	var list struct {
		Sessions []struct {
			ID              string `json:"id"`
			GatewayPreviews int    `json:"gateway_previews"`
		} `json:"sessions"`
	}
	apitest.GetJSON(t, base, "/v1/sessions", &list)
	for _, s := range list.Sessions {
		if s.ID == id {
			return s.GatewayPreviews
		}
	}
	return -1
}

// TestMessagesCompactionInstructionsForwarded (issue 39 §1): when the
// compaction with TEXT does not finish within compaction.timeout, the
// request goes upstream as it came (X-Kompact-Forwarded: as-sent), and the
// session has no revision.
func TestMessagesCompactionInstructionsForwarded(t *testing.T) {
	fake := newRecordingCC(t)
	release := make(chan struct{})
	defer close(release)
	fake.hold = func(body string) {
		if strings.Contains(body, "keep the fruit names") {
			<-release
		}
	}
	srv := apitest.CompactingServer(t, strings.Replace(apitest.CompactingCC(fake.URL, ""), "max_preserved_messages: 2", "max_preserved_messages: 2\n      timeout: 1s", 1))
	const sid = "c0ffee00-0000-4000-8000-000000000394"
	history := ccHistory(3)
	ccTurn(t, srv.URL, sid, history[:3])
	ccTurn(t, srv.URL, sid, history[:5])
	apitest.WaitGatewayPreview(t, srv.URL, sid)
	body := apitest.CCBody("[" + strings.Join(append(history[:5:5], `{"role":"assistant","content":[{"type":"text","text":"ok"}]}`, ccPrompt("keep the fruit names")), ",") + "]")
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages?beta=true", apitest.CCHeaders(sid), body)
	_, _ = io.ReadAll(resp.Body)
	reqs := fake.Requests()
	if resp.Header.Get("X-Kompact-Forwarded") != "as-sent" || string(reqs[len(reqs)-1].Body) != body {
		t.Errorf("not forwarded as it came: %d %q", resp.StatusCode, resp.Header.Get("X-Kompact-Forwarded"))
	}
	if revs := apitest.RevisionList(t, srv.URL, sid); len(revs) != 0 {
		t.Errorf("revisions %+v, want none", revs)
	}
}

// failingReads is a SQLite store whose session reads fail once a
// compaction was committed.
type failingReads struct {
	*sqlite.Store
	committed atomic.Bool
}

func (f *failingReads) CommitCompaction(ctx context.Context, id string, c kompact.Commit) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	st, info, err := f.Store.CommitCompaction(ctx, id, c)
	if err == nil {
		f.committed.Store(true)
	}
	return st, info, err
}

func (f *failingReads) GetSession(ctx context.Context, id string) (*kompact.StoredSession, error) {
	if f.committed.Load() {
		return nil, kompact.Errorf(kompact.EUnavailable, "the store is down")
	}
	return f.Store.GetSession(ctx, id)
}

// TestMessagesAnswerFromCommit (issue 39 §1): the answer is built from the
// committed result and the request, never from a second read: with the
// store's reads failing after the commit, the answer still carries the
// summary (on main it was an empty <summary>). It reads as Claude Code's
// own: no kimi-cli framing, and the files Claude Code re-attaches by
// itself (a Read call and its result) are not listed again.
func TestMessagesAnswerFromCommit(t *testing.T) {
	fake := newRecordingCC(t)
	t.Setenv("KOMPACT_TEST_ANTHROPIC_KEY", "sk-agent")
	cfg, err := config.Parse([]byte(apitest.CompactingCC(fake.URL, "")), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	store := &failingReads{Store: testserver.SQLite(t)}
	s := httpapi.New(httpapi.Config{Store: store, Agents: cfg, LLM: llmclient.Router{By: map[string]kompact.LLM{anthropic.API: &anthropic.Client{MaxRetries: -1}}, Default: &openai.Client{MaxRetries: -1}},
		Upstream: &openai.Upstream{}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	srv := httptest.NewServer(httpapi.CheckedHandler(t, s.Handler()))
	defer srv.Close()
	const sid = "c0ffee00-0000-4000-8000-000000000395"
	history := ccHistory(3)
	ccTurn(t, srv.URL, sid, history[:3])
	ccTurn(t, srv.URL, sid, history[:5])
	apitest.WaitGatewayPreview(t, srv.URL, sid)
	read := []string{
		`{"role":"assistant","content":[{"type":"text","text":"reading it"},{"type":"tool_use","id":"toolu_r1","name":"Read","input":{"file_path":"/src/a.go"}}]}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_r1","content":"FILE-BODY-39"}]}`,
	}
	msgs := append(append(history[:5:5], read...), ccPrompt(""))
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages?beta=true", apitest.CCHeaders(sid), apitest.CCBody("["+strings.Join(msgs, ",")+"]"))
	raw, _ := io.ReadAll(resp.Body)
	if resp.Header.Get("X-Kompact-Forwarded") != "answered" {
		t.Fatalf("not answered: %d %q %s", resp.StatusCode, resp.Header.Get("X-Kompact-Forwarded"), raw)
	}
	text, _ := readAnswerStream(t, string(raw))
	if !strings.Contains(text, apitest.CCSummary) {
		t.Errorf("the answer does not carry the committed summary: %q", text)
	}
	if strings.Contains(text, "<system>") || strings.Contains(text, "[system]") {
		t.Errorf("the answer carries kimi-cli's framing: %q", text)
	}
	if !strings.Contains(text, "reading it") || !strings.Contains(text, "step 2:") {
		t.Errorf("the messages after the summary are not in the answer: %q", text)
	}
	if strings.Contains(text, "FILE-BODY-39") || strings.Contains(text, "tool call Read") {
		t.Errorf("the answer lists the Read call Claude Code re-attaches by itself: %q", text)
	}
}

// TestMessagesGateRefusesAck (issue 39 §5): a precompute whose model
// answers only an acknowledgement ("ACK_21") is tried once more, then
// kept nowhere: no summary is ready, Claude Code's compaction request
// goes upstream as it came (its own compaction runs), the session has no
// revision, and the failure counts in its automatic-compaction breaker
// (auto_failures, which the page shows). On main the acknowledgement was
// kept as the precomputed summary and answered.
func TestMessagesGateRefusesAck(t *testing.T) {
	var kompactCalls atomic.Int64
	fake := fakeanthropic.New(t, func(r fakeanthropic.Request) fakeanthropic.Answer {
		if r.Header.Get("X-Claude-Code-Session-Id") == "" {
			kompactCalls.Add(1)
			return fakeanthropic.Answer{Events: fakeanthropic.TextStream(apitest.CCModel, "ACK_21", fakeanthropic.Usage{Input: 2000, Output: 3})}
		}
		return fakeanthropic.Answer{Events: fakeanthropic.TextStream(apitest.CCModel, "ok", fakeanthropic.Usage{Input: 3000, Output: 5})}
	})
	srv := apitest.CompactingServer(t, apitest.CompactingCC(fake.URL, ", compaction: wait"))
	const sid = "c0ffee00-0000-4000-8000-000000000396"
	history := ccHistory(3)
	ccTurn(t, srv.URL, sid, history[:5])
	deadline := time.Now().Add(15 * time.Second)
	for (kompactCalls.Load() < 2 || sessionRunning(t, srv.URL, sid)) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := kompactCalls.Load(); n != 2 {
		t.Errorf("the precompute made %d compaction calls, want the first and one retry", n)
	}
	if n := gatewayPreviews(t, srv.URL, sid); n != 0 {
		t.Errorf("%d precomputed summaries kept, want none", n)
	}
	body := apitest.CCBody("[" + strings.Join(append(history[:5:5], `{"role":"assistant","content":[{"type":"text","text":"ok"}]}`, ccPrompt("")), ",") + "]")
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages?beta=true", apitest.CCHeaders(sid), body)
	_, _ = io.ReadAll(resp.Body)
	if resp.Header.Get("X-Kompact-Forwarded") != "as-sent" {
		t.Errorf("answered from an acknowledgement: %q", resp.Header.Get("X-Kompact-Forwarded"))
	}
	if revs := apitest.RevisionList(t, srv.URL, sid); len(revs) != 0 {
		t.Errorf("revisions %+v, want none", revs)
	}
	var c struct {
		AutoFailures int `json:"auto_failures"`
	}
	apitest.GetJSON(t, srv.URL, "/v1/sessions/"+sid+"/context", &c)
	if c.AutoFailures < 1 {
		t.Errorf("auto_failures %d, want the refused summaries counted", c.AutoFailures)
	}
}

// sessionRunning is session id's running in the session list.
func sessionRunning(t *testing.T, base, id string) bool {
	t.Helper()
	var list struct {
		Sessions []struct {
			ID      string `json:"id"`
			Running bool   `json:"running"`
		} `json:"sessions"`
	}
	apitest.GetJSON(t, base, "/v1/sessions", &list)
	for _, s := range list.Sessions {
		if s.ID == id {
			return s.Running
		}
	}
	return false
}
