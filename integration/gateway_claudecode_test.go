package integration

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakeanthropic"
	"kompact/internal/testing/testenv"
)

// Issue 32 §3: the real Claude Code 2.1.332 (bash .ci/claude-code.sh),
// headless, through the gateway against the fake Messages server.

// ccFileText is what the test's file holds, for the tool round trip.
const ccFileText = "HELLO-KOMPACT-32"

// ccModelFake plays the model for Claude Code: a READ_FILE:PATH prompt
// gets a Read tool call, a tool result an answer quoting it, anything else
// "hi"; Claude Code's own compaction request (when it reaches the fake)
// an upstream summary; kompact's compaction request ccSummary. Turns of
// the tool round trip report 3000 input tokens, past the agent's
// precompute; of a FILL_CONTEXT prompt 990,000, past Claude Code's own
// automatic compaction; the others 1000.
func ccModelFake(t *testing.T) *fakeanthropic.Server {
	return fakeanthropic.New(t, func(r fakeanthropic.Request) fakeanthropic.Answer {
		body := string(r.Body)
		if r.Header.Get("X-Claude-Code-Session-Id") == "" {
			return fakeanthropic.Answer{Events: fakeanthropic.TextStream(apitest.CCModel, apitest.CCSummary, fakeanthropic.Usage{Input: 2000, Output: 40})}
		}
		usage := fakeanthropic.Usage{Input: 1000, Output: 20}
		if strings.Contains(body, "READ_FILE:") {
			usage.Input = 3000
		}
		if strings.Contains(body, "FILL_CONTEXT") { // past Claude Code's own auto-compact threshold
			usage.Input = 990000
		}
		if strings.Contains(body, "CRITICAL: Respond with TEXT ONLY") {
			return fakeanthropic.Answer{Events: fakeanthropic.TextStream(apitest.CCModel, "<analysis>a</analysis><summary>the upstream's summary</summary>", fakeanthropic.Usage{Input: 500, Output: 20})}
		}
		var req struct {
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		_ = json.Unmarshal(r.Body, &req)
		last := string(req.Messages[len(req.Messages)-1].Content)
		switch {
		case strings.Contains(last, `"tool_result"`):
			return fakeanthropic.Answer{Events: fakeanthropic.TextStream(apitest.CCModel, "The file says "+ccFileText+".", usage)}
		case strings.Contains(last, "READ_FILE:"):
			path := strings.TrimSpace(strings.Fields(last[strings.Index(last, "READ_FILE:")+len("READ_FILE:"):])[0])
			evs := fakeanthropic.Start(apitest.CCModel, usage)
			evs = append(evs, fakeanthropic.ToolUseBlock(0, "toolu_kompact_1", "Read", `{"file_path":`+apitest.JSONString(path)+`}`)...)
			return fakeanthropic.Answer{Events: append(evs, fakeanthropic.Stop("tool_use", usage)...)}
		}
		return fakeanthropic.Answer{Events: fakeanthropic.TextStream(apitest.CCModel, "hi", usage)}
	})
}

// claudeRun is one headless Claude Code run and what it printed.
type claudeRun struct {
	SessionID string `json:"session_id"`
	Result    string `json:"result"`
	IsError   bool   `json:"is_error"`
	took      time.Duration
}

// claude runs Claude Code headless in dir against baseURL with args.
func claude(t *testing.T, bin, dir, home, baseURL string, args ...string) claudeRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(args, "--output-format", "json")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "ANTHROPIC_BASE_URL="+baseURL, "ANTHROPIC_API_KEY=sk-ant-anything",
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_ERROR_REPORTING=1")
	start := time.Now()
	out, err := cmd.Output()
	var run claudeRun
	run.took = time.Since(start)
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("claude %v: %v: %s %s", args, err, out, stderr)
	}
	if err := json.Unmarshal(out, &run); err != nil || run.IsError {
		t.Fatalf("claude %v: %v: %s", args, err, out)
	}
	return run
}

// claudeRig is what a real-client test runs: Claude Code's binary, the
// fake model, a gateway over it (compaction: wait), a project folder with
// the file the tool round trip reads, a home, the gateway's base URL.
type claudeRig struct {
	bin, dir, home, file, gw string
	fake                     *fakeanthropic.Server
	srv                      *httptest.Server
}

// newClaudeRig sets a rig up; without CLAUDE_CODE_BIN the test skips
// (fails under CI=true).
func newClaudeRig(t *testing.T) *claudeRig {
	c := &claudeRig{bin: os.Getenv("CLAUDE_CODE_BIN")}
	testenv.Require(t, c.bin != "", "CLAUDE_CODE_BIN is not set", "install Claude Code 2.1.332 (bash .ci/claude-code.sh) and set CLAUDE_CODE_BIN to the claude it prints")
	c.fake = ccModelFake(t)
	c.srv = apitest.CompactingServer(t, apitest.CompactingCC(c.fake.URL, ", compaction: wait"))
	c.dir, c.home = t.TempDir(), t.TempDir()
	c.file = filepath.Join(c.dir, "hello.txt")
	if err := os.WriteFile(c.file, []byte(ccFileText+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.gw = c.srv.URL + "/gateway/cc"
	return c
}

// TestClaudeCodeThroughGateway (issue 32 §3): Claude Code 2.1.332 through
// the gateway: a turn, a tool round trip (Read), a /compact that the
// gateway answers from kompact's precomputed summary with no upstream
// call, and a next turn that carries kompact's summary. The /compact is
// timed through the gateway and straight to the fake, for the note.
func TestClaudeCodeThroughGateway(t *testing.T) {
	c := newClaudeRig(t)
	bin, fake, srv, dir, home, file, gw := c.bin, c.fake, c.srv, c.dir, c.home, c.file, c.gw
	first := claude(t, bin, dir, home, gw, "-p", "say hi")
	if first.Result != "hi" || first.SessionID == "" {
		t.Fatalf("first turn: %+v", first)
	}
	tool := claude(t, bin, dir, home, gw, "-p", "READ_FILE:"+file+" please", "--allowedTools", "Read", "-c")
	if !strings.Contains(tool.Result, ccFileText) {
		t.Fatalf("tool round trip: %+v", tool)
	}
	sawToolResult := false
	for _, r := range fake.Requests() {
		sawToolResult = sawToolResult || (strings.Contains(string(r.Body), `"tool_result"`) && strings.Contains(string(r.Body), ccFileText))
	}
	if !sawToolResult {
		t.Errorf("no request carried the Read tool's result")
	}
	apitest.WaitGatewayPreview(t, srv.URL, first.SessionID)
	before := len(fake.Requests())
	compact := claude(t, bin, dir, home, gw, "-p", "/compact", "-c")
	for _, r := range fake.Requests()[before:] {
		if strings.Contains(string(r.Body), "CRITICAL: Respond with TEXT ONLY") {
			t.Errorf("Claude Code's /compact reached the upstream")
		}
	}
	next := claude(t, bin, dir, home, gw, "-p", "what now?", "-c")
	last := "" // Claude Code's last request: a precompute kompact started after it may have come later
	for _, r := range fake.Requests() {
		if r.Header.Get("X-Claude-Code-Session-Id") != "" {
			last = string(r.Body)
		}
	}
	if !strings.Contains(last, apitest.CCSummary) || next.Result != "hi" {
		t.Errorf("the turn after /compact does not carry kompact's summary: %.600s", last)
	}
	// Issue 39 §2: the turn after the answered compaction continues the
	// same session, and the title is the user's first prompt.
	ccOneSession(t, srv.URL, first.SessionID, "say hi", "what now?")
	// The same /compact straight to the fake, for the note's timings.
	direct, dhome := t.TempDir(), t.TempDir()
	claude(t, bin, direct, dhome, fake.URL, "-p", "READ_FILE:"+file+" please", "--allowedTools", "Read")
	straight := claude(t, bin, direct, dhome, fake.URL, "-p", "/compact", "-c")
	t.Logf("/compact through the gateway (answered from the precomputed summary): %s; straight to the fake (which answers at once): %s", compact.took, straight.took)
}

// TestClaudeCodeAutoCompactThroughGateway (issue 32 §2 and §3): Claude
// Code's automatic compaction (its run after a turn that reported 990,000
// input tokens begins with a compaction request) is answered by the
// gateway from kompact's precomputed summary too: nothing of it reaches
// the upstream, the summary is a revision of the session, and the run's
// turn carries kompact's summary.
func TestClaudeCodeAutoCompactThroughGateway(t *testing.T) {
	c := newClaudeRig(t)
	bin, fake, srv, dir, home, file, gw := c.bin, c.fake, c.srv, c.dir, c.home, c.file, c.gw
	first := claude(t, bin, dir, home, gw, "-p", "READ_FILE:"+file+" please", "--allowedTools", "Read")
	claude(t, bin, dir, home, gw, "-p", "now FILL_CONTEXT", "-c")
	apitest.WaitGatewayPreview(t, srv.URL, first.SessionID)
	before := len(fake.Requests())
	claude(t, bin, dir, home, gw, "-p", "go on", "-c")
	after := fake.Requests()[before:]
	for _, r := range after {
		if strings.Contains(string(r.Body), "CRITICAL: Respond with TEXT ONLY") {
			t.Errorf("Claude Code's automatic compaction reached the upstream")
		}
	}
	turn := "" // Claude Code's last request: a precompute kompact started after it may have come later
	for _, r := range after {
		if r.Header.Get("X-Claude-Code-Session-Id") != "" {
			turn = string(r.Body)
		}
	}
	if !strings.Contains(turn, apitest.CCSummary) {
		t.Errorf("the run's turn does not carry kompact's summary: %.600s", turn)
	}
	var revs struct {
		Revisions []struct {
			Kind string `json:"kind"`
		} `json:"revisions"`
	}
	apitest.GetJSON(t, srv.URL, "/v1/sessions/"+first.SessionID+"/revisions", &revs)
	if len(revs.Revisions) != 1 || revs.Revisions[0].Kind != "auto_compaction" {
		t.Errorf("revisions %+v, want the answered summary", revs.Revisions)
	}
	// Issue 39 §2: the run's turn after the answered compaction continues
	// the same session.
	ccOneSession(t, srv.URL, first.SessionID, "READ_FILE:"+file+" please", "go on")
}

// ccOneSession checks that the gateway keeps one session, id, titled
// title (cut as a title is), whose last user message holds last (issue
// 39 §2).
func ccOneSession(t *testing.T, base, id, title, last string) {
	t.Helper()
	var list struct {
		Sessions []struct {
			ID    string `json:"id"`
			Title string `json:"title"`
		} `json:"sessions"`
	}
	apitest.GetJSON(t, base, "/v1/sessions", &list)
	if len(list.Sessions) != 1 || list.Sessions[0].ID != id || !strings.HasPrefix(title, strings.TrimSuffix(list.Sessions[0].Title, "…")) || len(list.Sessions[0].Title) < 5 {
		t.Errorf("sessions %+v, want only %s titled %q", list.Sessions, id, title)
	}
	var doc struct {
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
	}
	apitest.GetJSON(t, base, "/v1/sessions/"+id, &doc)
	for i := len(doc.Messages) - 1; i >= 0; i-- {
		if doc.Messages[i].Role != "user" {
			continue
		}
		text := ""
		for _, p := range doc.Messages[i].Content {
			text += p.Text
		}
		if !strings.Contains(text, last) {
			t.Errorf("the session's last user message %.200q does not hold %q", text, last)
		}
		return
	}
	t.Errorf("session %s has no user message", id)
}

// TestClaudeCodeCompactRightAfterCrossingTurn (issue 39 §1): a /compact
// typed right after the turn that crossed gateway.precompute_ratio (the
// tool round trip's 3000 tokens) is answered from the precompute that
// turn started: nothing reaches the upstream, the revision is a manual
// compaction, and the summary Claude Code keeps carries no kimi-cli
// framing and does not list the Read call Claude Code re-attaches itself.
func TestClaudeCodeCompactRightAfterCrossingTurn(t *testing.T) {
	c := newClaudeRig(t)
	first := claude(t, c.bin, c.dir, c.home, c.gw, "-p", "say hi")
	claude(t, c.bin, c.dir, c.home, c.gw, "-p", "READ_FILE:"+c.file+" please", "--allowedTools", "Read", "-c")
	before := len(c.fake.Requests())
	claude(t, c.bin, c.dir, c.home, c.gw, "-p", "/compact", "-c")
	for _, r := range c.fake.Requests()[before:] {
		if strings.Contains(string(r.Body), "CRITICAL: Respond with TEXT ONLY") {
			t.Errorf("Claude Code's /compact reached the upstream")
		}
	}
	claude(t, c.bin, c.dir, c.home, c.gw, "-p", "what now?", "-c")
	last := "" // Claude Code's last turn: a precompute kompact started after it may have come later
	for _, r := range c.fake.Requests() {
		if r.Header.Get("X-Claude-Code-Session-Id") != "" {
			last = string(r.Body)
		}
	}
	if !strings.Contains(last, apitest.CCSummary) {
		t.Fatalf("the turn after /compact does not carry kompact's summary: %.600s", last)
	}
	if strings.Contains(last, "Previous context has been compacted") || strings.Contains(last, "(tool call Read") {
		kept := last
		if i := strings.Index(last, "Summary:"); i >= 0 { // the summary Claude Code kept; without one, the whole request
			kept = last[i:]
		}
		t.Errorf("the summary Claude Code kept carries kimi-cli's framing or the Read call it re-attaches: %.1500s", kept)
	}
	if revs := apitest.RevisionList(t, c.srv.URL, first.SessionID); len(revs) != 1 || revs[0].Kind != "compaction" {
		t.Errorf("revisions %+v, want the /compact as one manual compaction", revs)
	}
}

// TestClaudeCodeCompactWithInstructions (issue 39 §1): /compact TEXT after
// a ready precompute is compacted now with TEXT (kompact's compaction
// request carries it), not answered from the summary made without it; the
// manual revision names TEXT; Claude Code's request never reaches the
// upstream.
func TestClaudeCodeCompactWithInstructions(t *testing.T) {
	c := newClaudeRig(t)
	first := claude(t, c.bin, c.dir, c.home, c.gw, "-p", "say hi")
	claude(t, c.bin, c.dir, c.home, c.gw, "-p", "READ_FILE:"+c.file+" please", "--allowedTools", "Read", "-c")
	apitest.WaitGatewayPreview(t, c.srv.URL, first.SessionID)
	before := len(c.fake.Requests())
	claude(t, c.bin, c.dir, c.home, c.gw, "-p", "/compact keep the fruit names", "-c")
	withText := false
	for _, r := range c.fake.Requests()[before:] {
		body := string(r.Body)
		if strings.Contains(body, "CRITICAL: Respond with TEXT ONLY") {
			t.Errorf("Claude Code's /compact reached the upstream")
		}
		withText = withText || (r.Header.Get("X-Claude-Code-Session-Id") == "" && strings.Contains(body, "keep the fruit names"))
	}
	if !withText {
		t.Errorf("no compaction request of kompact's carried the /compact's instructions")
	}
	if revs := apitest.RevisionList(t, c.srv.URL, first.SessionID); len(revs) != 1 || revs[0].Kind != "compaction" || !strings.Contains(revs[0].Note, "keep the fruit names") {
		t.Errorf("revisions %+v, want one manual compaction naming the instructions", revs)
	}
}
