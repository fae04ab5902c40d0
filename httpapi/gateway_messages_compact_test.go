package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/anthropic"
	"kompact/internal/llmclient"
	"kompact/internal/testing/fakeanthropic"
	"kompact/openai"
)

// Issue 32 §2: Claude Code's own compaction request answered at once from
// kompact's precomputed summary.

// ccSummary is what the fake answers kompact's own compaction request:
// with every section the kimi type's prompt requires, so that the quality
// gate of the paths no person reviews lets it through (issue 39 §5).
const ccSummary = "The user asked to fix /src/a_test.go; the assistant ran go test ./a/ and fixed it. <current_focus>the tests of ./a/ pass</current_focus>" +
	"<environment>go</environment><completed_tasks>fixed /src/a_test.go</completed_tasks><active_issues>none</active_issues>" +
	"<code_state>/src/a_test.go</code_state><important_context>none</important_context>"

// compactingCC is the agents file of a compacting api: anthropic agent
// over the fake at url: a window of 10000 tokens, the trigger at half of
// it, the precompute at half of that (2500 tokens).
func compactingCC(url, gateway string) string {
	return fmt.Sprintf(`agents:
  cc:
    llm: {api: anthropic, base_url: %s, model: %s, api_key_env: KOMPACT_TEST_ANTHROPIC_KEY, max_context_size: 10000}
    compaction:
      enabled: true
      type: kimi
      max_preserved_messages: 2
      auto: {enabled: true, trigger_ratio: 0.5, reserved_context_size: 1000}
    gateway: {enabled: true, precompute_ratio: 0.5%s}
`, url, ccModel, gateway)
}

// compactingServer is messagesServer whose LLM sends api: anthropic
// requests through the Messages client.
func compactingServer(t *testing.T, yaml string) *httptest.Server {
	t.Helper()
	return messagesServerWith(t, yaml, "", llmclient.Router{By: map[string]kompact.LLM{anthropic.API: &anthropic.Client{MaxRetries: -1}}, Default: &openai.Client{MaxRetries: -1}})
}

// ccFake answers Claude Code's turns with 3000 input tokens (past the
// precompute's 2500) and kompact's own compaction request (no Claude Code
// session header) with ccSummary.
func ccFake(t *testing.T) *fakeanthropic.Server {
	return fakeanthropic.New(t, func(r fakeanthropic.Request) fakeanthropic.Answer {
		if r.Header.Get("X-Claude-Code-Session-Id") == "" { // a summary with tags of its own
			return fakeanthropic.Answer{Events: fakeanthropic.TextStream(ccModel, "<summary>"+ccSummary+"</summary>", fakeanthropic.Usage{Input: 2000, Output: 40})}
		}
		return fakeanthropic.Answer{Events: fakeanthropic.TextStream(ccModel, "ok", fakeanthropic.Usage{Input: 2900, CacheRead: 100, Output: 5})}
	})
}

// ccHistory is a Claude Code history of n user/assistant pairs, each
// message long enough that a summary reduces them.
func ccHistory(n int) []string {
	var msgs []string
	long := strings.Repeat("go test ./a/ fails in /src/a_test.go line 12; ", 40)
	for i := range n {
		msgs = append(msgs, fmt.Sprintf(`{"role":"user","content":"step %d: %s"}`, i, long))
		msgs = append(msgs, fmt.Sprintf(`{"role":"assistant","content":[{"type":"text","text":"done %d: %s"}]}`, i, long))
	}
	return msgs
}

// ccCompactRequest is Claude Code's automatic compaction request after
// history: the history, then the instruction as its own user message
// (only its opening is Claude Code's; the rest stands in for it).
func ccCompactRequest(history []string) string {
	prompt := `{"role":"user","content":"CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\n(the rest of Claude Code's instruction)"}`
	return ccBody("[" + strings.Join(append(append([]string{}, history...), prompt), ",") + "]")
}

// waitGatewayPreview waits until session id has the gateway's
// precomputed summary.
func waitGatewayPreview(t *testing.T, base, id string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		var list struct {
			Sessions []struct {
				ID              string `json:"id"`
				GatewayPreviews int    `json:"gateway_previews"`
				Running         bool   `json:"running"`
			} `json:"sessions"`
		}
		getJSON(t, base, "/v1/sessions", &list)
		for _, s := range list.Sessions {
			if s.ID == id && s.GatewayPreviews > 0 && !s.Running {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no precomputed summary for %s", id)
}

// TestMessagesCompactionAnswered (issue 32 §2): once the session reached
// gateway.precompute_ratio, kompact compacts it in the background through
// the agent's Messages API; Claude Code's compaction request is then
// answered by the gateway itself, streamed, in well under a second, with
// the summary in <summary> tags and usage that reflects it; the upstream
// never sees it; the summary is the session's revision (a manual one: the
// session is far below Claude Code's own trigger) with its fidelity
// report.
func TestMessagesCompactionAnswered(t *testing.T) {
	fake := ccFake(t)
	srv := compactingServer(t, compactingCC(fake.URL, ""))
	const sid = "c0ffee00-0000-4000-8000-000000000032"
	history := ccHistory(3)
	for _, n := range []int{3, 5} { // the second turn finds 3000 tokens: the precompute starts
		resp := postMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages?beta=true", ccHeaders(sid), ccBody("["+strings.Join(history[:n], ",")+"]"))
		_, _ = io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("turn: %d", resp.StatusCode)
		}
	}
	waitGatewayPreview(t, srv.URL, sid)
	before := len(fake.Requests())
	start := time.Now()
	resp := postMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages?beta=true", ccHeaders(sid), ccCompactRequest(history))
	body, _ := io.ReadAll(resp.Body)
	took := time.Since(start)
	if resp.StatusCode != 200 || resp.Header.Get("X-Kompact-Forwarded") != "answered" || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("answer %d %v: %s", resp.StatusCode, resp.Header, body)
	}
	if n := len(fake.Requests()); n != before {
		t.Errorf("the compaction request went upstream (%d requests, %d before)", n, before)
	}
	if took > time.Second {
		t.Errorf("the answer took %s, want well under a second", took)
	}
	t.Logf("/compact answered by the gateway in %s", took)
	text, usage := readAnswerStream(t, string(body))
	if !strings.HasPrefix(text, "<summary>\n") || !strings.Contains(text, "[summary]"+ccSummary+"[/summary]") || !strings.HasSuffix(text, "\n</summary>") || strings.Count(text, "summary>") != 2 {
		t.Errorf("answer text %q", text)
	}
	if !strings.Contains(text, "done 2:") {
		t.Errorf("the messages after the summary are not in the answer: %q", text)
	}
	if usage <= 0 || usage >= 3000 {
		t.Errorf("answer's input tokens %d, want the compacted context's (below the 3000 before)", usage)
	}
	var revs struct {
		Revisions []struct {
			Kind     string          `json:"kind"`
			Fidelity json.RawMessage `json:"fidelity"`
		} `json:"revisions"`
	}
	getJSON(t, srv.URL, "/v1/sessions/"+sid+"/revisions", &revs)
	// At 3000 of the agent's 10000 tokens Claude Code does not compact by
	// itself: the request is a person's /compact (issue 39 §1).
	if len(revs.Revisions) == 0 || revs.Revisions[0].Kind != "compaction" || len(revs.Revisions[0].Fidelity) == 0 {
		t.Errorf("revisions %+v, want the summary as a manual compaction revision with its fidelity", revs.Revisions)
	}
	// Claude Code's next turn begins with the summary: a new history of
	// the conversation, in a session beside the first.
	next := `[{"role":"user","content":` + jsonString("This session is being continued from a previous conversation.\n\nSummary:\n"+ccSummary) + `},{"role":"user","content":"go on"}]`
	resp = postMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages?beta=true", ccHeaders(sid), ccBody(next))
	_, _ = io.ReadAll(resp.Body)
	up := fake.Requests()
	if got := resp.Header.Get("X-Kompact-Session"); resp.StatusCode != 200 || !strings.HasPrefix(got, sid+"-") || !strings.Contains(string(up[len(up)-1].Body), jsonString(ccSummary)[1:len(jsonString(ccSummary))-1]) {
		t.Errorf("the turn after the compaction: %d, session %q", resp.StatusCode, got)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestMessagesCompactionWaits (issue 32 §2): with gateway.compaction:
// wait, a compaction request that comes while the precompute runs waits
// for it and is answered from it; the upstream never sees it.
func TestMessagesCompactionWaits(t *testing.T) {
	release := make(chan struct{})
	fake := fakeanthropic.New(t, func(r fakeanthropic.Request) fakeanthropic.Answer {
		if r.Header.Get("X-Claude-Code-Session-Id") == "" {
			<-release
			return fakeanthropic.Answer{Events: fakeanthropic.TextStream(ccModel, "<summary>"+ccSummary+"</summary>", fakeanthropic.Usage{Input: 2000, Output: 40})}
		}
		return fakeanthropic.Answer{Events: fakeanthropic.TextStream(ccModel, "ok", fakeanthropic.Usage{Input: 3000, Output: 5})}
	})
	srv := compactingServer(t, compactingCC(fake.URL, ", compaction: wait"))
	const sid = "c0ffee00-0000-4000-8000-000000000034"
	history := ccHistory(3)
	for _, n := range []int{3, 5} {
		resp := postMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", ccHeaders(sid), ccBody("["+strings.Join(history[:n], ",")+"]"))
		_, _ = io.ReadAll(resp.Body)
	}
	time.AfterFunc(200*time.Millisecond, func() { close(release) })
	resp := postMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", ccHeaders(sid), ccCompactRequest(history))
	body, _ := io.ReadAll(resp.Body)
	if resp.Header.Get("X-Kompact-Forwarded") != "answered" || !strings.Contains(string(body), jsonString(ccSummary)[1:20]) {
		t.Errorf("not answered from the precompute: %d %q %s", resp.StatusCode, resp.Header.Get("X-Kompact-Forwarded"), body)
	}
	for _, r := range fake.Requests() {
		if strings.Contains(string(r.Body), "CRITICAL: Respond") {
			t.Errorf("the compaction request went upstream")
		}
	}
}

// readAnswerStream reads a Messages stream's text and message_start's
// input tokens.
func readAnswerStream(t *testing.T, stream string) (string, int) {
	t.Helper()
	var text strings.Builder
	input := -1
	for _, ev := range strings.Split(stream, "\n\n") {
		_, data, ok := strings.Cut(ev, "data: ")
		if !ok {
			continue
		}
		var e struct {
			Type    string `json:"type"`
			Message struct {
				Usage struct {
					InputTokens int `json:"input_tokens"`
				} `json:"usage"`
			} `json:"message"`
			Delta struct {
				Text string `json:"text"`
			} `json:"delta"`
		}
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			t.Fatalf("event %q: %v", ev, err)
		}
		switch e.Type {
		case "message_start":
			input = e.Message.Usage.InputTokens
		case "content_block_delta":
			text.WriteString(e.Delta.Text)
		}
	}
	if !strings.HasSuffix(stream, "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n") {
		t.Errorf("the stream does not end with message_stop: %q", stream[max(0, len(stream)-200):])
	}
	return text.String(), input
}

// TestMessagesCompactionForwarded (issue 32 §2): without a ready summary
// the compaction request goes upstream as it came; the history before the
// instruction is stored, the instruction is not.
func TestMessagesCompactionForwarded(t *testing.T) {
	fake := ccFake(t)
	srv := compactingServer(t, compactingCC(fake.URL, ""))
	const sid = "c0ffee00-0000-4000-8000-000000000033"
	history := ccHistory(1)
	resp := postMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", ccHeaders(sid), ccBody("["+history[0]+"]"))
	_, _ = io.ReadAll(resp.Body)
	body := ccCompactRequest(history)
	resp = postMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", ccHeaders(sid), body)
	_, _ = io.ReadAll(resp.Body)
	up := fake.Requests()
	if resp.StatusCode != 200 || resp.Header.Get("X-Kompact-Forwarded") != "as-sent" || string(up[len(up)-1].Body) != body {
		t.Errorf("not forwarded as sent: %d %q", resp.StatusCode, resp.Header.Get("X-Kompact-Forwarded"))
	}
	if _, n := sessionVersion(t, srv.URL, sid); n != 2 {
		t.Errorf("the session holds %d messages, want the history's 2 (the instruction is not stored)", n)
	}
}
