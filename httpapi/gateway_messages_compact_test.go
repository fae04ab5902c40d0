package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakeanthropic"
)

// Issue 32 §2: Claude Code's own compaction request answered at once from
// kompact's precomputed summary.

// ccFake answers Claude Code's turns with 3000 input tokens (past the
// precompute's 2500) and kompact's own compaction request (no Claude Code
// session header) with ccSummary.
func ccFake(t *testing.T) *fakeanthropic.Server {
	return fakeanthropic.New(t, func(r fakeanthropic.Request) fakeanthropic.Answer {
		if r.Header.Get("X-Claude-Code-Session-Id") == "" { // a summary with tags of its own
			return fakeanthropic.Answer{Events: fakeanthropic.TextStream(apitest.CCModel, "<summary>"+apitest.CCSummary+"</summary>", fakeanthropic.Usage{Input: 2000, Output: 40})}
		}
		return fakeanthropic.Answer{Events: fakeanthropic.TextStream(apitest.CCModel, "ok", fakeanthropic.Usage{Input: 2900, CacheRead: 100, Output: 5})}
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
	return apitest.CCBody("[" + strings.Join(append(append([]string{}, history...), prompt), ",") + "]")
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
	srv := apitest.CompactingServer(t, apitest.CompactingCC(fake.URL, ""))
	const sid = "c0ffee00-0000-4000-8000-000000000032"
	history := ccHistory(3)
	for _, n := range []int{3, 5} { // the second turn finds 3000 tokens: the precompute starts
		resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages?beta=true", apitest.CCHeaders(sid), apitest.CCBody("["+strings.Join(history[:n], ",")+"]"))
		_, _ = io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("turn: %d", resp.StatusCode)
		}
	}
	apitest.WaitGatewayPreview(t, srv.URL, sid)
	before := len(fake.Requests())
	start := time.Now()
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages?beta=true", apitest.CCHeaders(sid), ccCompactRequest(history))
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
	if !strings.HasPrefix(text, "<summary>\n") || !strings.Contains(text, "[summary]"+apitest.CCSummary+"[/summary]") || !strings.HasSuffix(text, "\n</summary>") || strings.Count(text, "summary>") != 2 {
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
	apitest.GetJSON(t, srv.URL, "/v1/sessions/"+sid+"/revisions", &revs)
	// At 3000 of the agent's 10000 tokens Claude Code does not compact by
	// itself: the request is a person's /compact (issue 39 §1).
	if len(revs.Revisions) == 0 || revs.Revisions[0].Kind != "compaction" || len(revs.Revisions[0].Fidelity) == 0 {
		t.Errorf("revisions %+v, want the summary as a manual compaction revision with its fidelity", revs.Revisions)
	}
	// Claude Code's next turn begins with the summary: a new history of
	// the conversation, in a session beside the first.
	next := `[{"role":"user","content":` + apitest.JSONString("This session is being continued from a previous conversation.\n\nSummary:\n"+apitest.CCSummary) + `},{"role":"user","content":"go on"}]`
	resp = apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages?beta=true", apitest.CCHeaders(sid), apitest.CCBody(next))
	_, _ = io.ReadAll(resp.Body)
	up := fake.Requests()
	if got := resp.Header.Get("X-Kompact-Session"); resp.StatusCode != 200 || !strings.HasPrefix(got, sid+"-") || !strings.Contains(string(up[len(up)-1].Body), apitest.JSONString(apitest.CCSummary)[1:len(apitest.JSONString(apitest.CCSummary))-1]) {
		t.Errorf("the turn after the compaction: %d, session %q", resp.StatusCode, got)
	}
}

// TestMessagesCompactionWaits (issue 32 §2): with gateway.compaction:
// wait, a compaction request that comes while the precompute runs waits
// for it and is answered from it; the upstream never sees it.
func TestMessagesCompactionWaits(t *testing.T) {
	release := make(chan struct{})
	fake := fakeanthropic.New(t, func(r fakeanthropic.Request) fakeanthropic.Answer {
		if r.Header.Get("X-Claude-Code-Session-Id") == "" {
			<-release
			return fakeanthropic.Answer{Events: fakeanthropic.TextStream(apitest.CCModel, "<summary>"+apitest.CCSummary+"</summary>", fakeanthropic.Usage{Input: 2000, Output: 40})}
		}
		return fakeanthropic.Answer{Events: fakeanthropic.TextStream(apitest.CCModel, "ok", fakeanthropic.Usage{Input: 3000, Output: 5})}
	})
	srv := apitest.CompactingServer(t, apitest.CompactingCC(fake.URL, ", compaction: wait"))
	const sid = "c0ffee00-0000-4000-8000-000000000034"
	history := ccHistory(3)
	for _, n := range []int{3, 5} {
		resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", apitest.CCHeaders(sid), apitest.CCBody("["+strings.Join(history[:n], ",")+"]"))
		_, _ = io.ReadAll(resp.Body)
	}
	time.AfterFunc(200*time.Millisecond, func() { close(release) })
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", apitest.CCHeaders(sid), ccCompactRequest(history))
	body, _ := io.ReadAll(resp.Body)
	if resp.Header.Get("X-Kompact-Forwarded") != "answered" || !strings.Contains(string(body), apitest.JSONString(apitest.CCSummary)[1:20]) {
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
	srv := apitest.CompactingServer(t, apitest.CompactingCC(fake.URL, ""))
	const sid = "c0ffee00-0000-4000-8000-000000000033"
	history := ccHistory(1)
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", apitest.CCHeaders(sid), apitest.CCBody("["+history[0]+"]"))
	_, _ = io.ReadAll(resp.Body)
	body := ccCompactRequest(history)
	resp = apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", apitest.CCHeaders(sid), body)
	_, _ = io.ReadAll(resp.Body)
	up := fake.Requests()
	if resp.StatusCode != 200 || resp.Header.Get("X-Kompact-Forwarded") != "as-sent" || string(up[len(up)-1].Body) != body {
		t.Errorf("not forwarded as sent: %d %q", resp.StatusCode, resp.Header.Get("X-Kompact-Forwarded"))
	}
	if _, n := sessionVersion(t, srv.URL, sid); n != 2 {
		t.Errorf("the session holds %d messages, want the history's 2 (the instruction is not stored)", n)
	}
}
