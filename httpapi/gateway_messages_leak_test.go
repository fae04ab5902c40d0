package httpapi_test

import (
	"context"
	"io"
	"kompact/internal/testing/apitest"
	"strings"
	"testing"
)

// Issue 38 (High): the gateway answers a compaction request from a ready
// summary only for the session whose history the request continues.

// otherHistory is another client's history of n pairs whose first user
// message is ccHistory's (the same opening, the rest its own).
func otherHistory(n int) []string {
	msgs := ccHistory(n)
	for i := 1; i < len(msgs); i++ {
		msgs[i] = strings.Replace(msgs[i], "go test ./a/", "the other client's secret ", -1)
	}
	return msgs
}

// TestMessagesCompactionOnlyForItsHistory (issue 38, High): a victim's
// conversation has a ready summary; a compaction request that names the
// victim's session by each of the three ways a request is matched to a
// session (X-Kompact-Session, Claude Code's session id, and with neither
// the agent with the same system prompt and first user message) but
// whose history is not the victim's is forwarded as sent: no answer
// holds the victim's summary or messages, and the victim's summary stays
// ready for the victim's own compaction request, which is answered.
func TestMessagesCompactionOnlyForItsHistory(t *testing.T) {
	for _, by := range []string{"x-kompact-session", "claude-code-session", "key"} {
		t.Run(by, func(t *testing.T) {
			fake := apitest.LeakFake(t)
			srv := apitest.CompactingServer(t, apitest.CompactingCC(fake.URL, ""))
			url := srv.URL + "/gateway/cc/v1/messages?beta=true"
			victim := apitest.CCHeaders("c0ffee00-0000-4000-8000-000000000381")
			if by == "key" {
				victim.Del("X-Claude-Code-Session-Id")
			}
			history := ccHistory(3)
			id := ""
			for _, n := range []int{3, 5} {
				resp := apitest.PostMessages(t, context.Background(), url, victim, apitest.CCBody("["+strings.Join(history[:n], ",")+"]"))
				_, _ = io.ReadAll(resp.Body)
				if resp.StatusCode != 200 {
					t.Fatalf("victim's turn: %d", resp.StatusCode)
				}
				id = resp.Header.Get("X-Kompact-Session")
			}
			apitest.WaitGatewayPreview(t, srv.URL, id)

			attacker := victim.Clone()
			switch by {
			case "x-kompact-session":
				attacker.Del("X-Claude-Code-Session-Id")
				attacker.Set("X-Kompact-Session", id)
			case "claude-code-session": // two claude -c on one session id: the victim's is the other
			}
			before := len(fake.Requests())
			other := otherHistory(3)
			resp := apitest.PostMessages(t, context.Background(), url, attacker, ccCompactRequest(other))
			body, _ := io.ReadAll(resp.Body)
			if got := resp.Header.Get("X-Kompact-Forwarded"); got == "answered" || len(fake.Requests()) != before+1 {
				t.Errorf("another history's compaction request: X-Kompact-Forwarded %q, %d upstream requests (want it forwarded)", got, len(fake.Requests())-before)
			}
			if strings.Contains(string(body), apitest.CCSummary) || strings.Contains(string(body), "done 2:") {
				t.Errorf("another history's compaction request got the victim's summary or messages: %.300s", body)
			}

			resp = apitest.PostMessages(t, context.Background(), url, victim, ccCompactRequest(history))
			body, _ = io.ReadAll(resp.Body)
			text, _ := readAnswerStream(t, string(body))
			if resp.Header.Get("X-Kompact-Forwarded") != "answered" || !strings.Contains(text, apitest.CCSummary) || !strings.Contains(text, "done 2:") {
				t.Errorf("the victim's own compaction request: %q %.300s", resp.Header.Get("X-Kompact-Forwarded"), text)
			}
		})
	}
}

// TestMessagesKeyHasSystemPrompt (issue 38, High): two applications
// whose conversations open with the same user message but whose system
// prompts differ are two sessions, not one, when neither names its
// session.
func TestMessagesKeyHasSystemPrompt(t *testing.T) {
	fake := apitest.LeakFake(t)
	srv := apitest.CompactingServer(t, apitest.CompactingCC(fake.URL, ""))
	h := apitest.CCHeaders("")
	h.Del("X-Claude-Code-Session-Id")
	var ids []string
	for _, sys := range []string{"You are a coding agent.", "You are a travel planner."} {
		body := strings.Replace(apitest.CCBody(`[{"role":"user","content":"hello"}]`), "You are a coding agent.", sys, 1)
		resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", h, body)
		_, _ = io.ReadAll(resp.Body)
		ids = append(ids, resp.Header.Get("X-Kompact-Session"))
	}
	if ids[0] == "" || ids[0] == ids[1] {
		t.Errorf("sessions %q: want one per system prompt", ids)
	}
}

// TestMessagesClaudeCodeKeyHasAgent (issue 38, Low): a Claude Code
// session id sent to two api: anthropic agents makes a session for each;
// the second agent's turn is not appended to the first agent's session.
func TestMessagesClaudeCodeKeyHasAgent(t *testing.T) {
	fake := apitest.LeakFake(t)
	yaml := apitest.CompactingCC(fake.URL, "") + strings.Replace(strings.TrimPrefix(apitest.CompactingCC(fake.URL, ""), "agents:\n"), "  cc:\n", "  cc2:\n", 1)
	srv := apitest.CompactingServer(t, yaml)
	const sid = "c0ffee00-0000-4000-8000-000000000382"
	got := map[string]string{}
	for _, agent := range []string{"cc", "cc2"} {
		resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/"+agent+"/v1/messages", apitest.CCHeaders(sid), apitest.CCBody(`[{"role":"user","content":"hello"}]`))
		_, _ = io.ReadAll(resp.Body)
		got[agent] = resp.Header.Get("X-Kompact-Session")
	}
	// cc2's next turn continues cc2's session.
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc2/v1/messages", apitest.CCHeaders(sid),
		apitest.CCBody(`[{"role":"user","content":"hello"},{"role":"assistant","content":"ok"},{"role":"user","content":"more"}]`))
	_, _ = io.ReadAll(resp.Body)
	if got["cc"] != sid || got["cc2"] == sid || !strings.HasPrefix(got["cc2"], sid+"-") || resp.Header.Get("X-Kompact-Session") != got["cc2"] {
		t.Fatalf("sessions %v, cc2's next turn %q", got, resp.Header.Get("X-Kompact-Session"))
	}
	if _, n := sessionVersion(t, srv.URL, sid); n != 1 {
		t.Errorf("cc's session holds %d messages, want its own 1", n)
	}
	if _, n := sessionVersion(t, srv.URL, got["cc2"]); n != 3 {
		t.Errorf("cc2's session holds %d messages, want 3", n)
	}
}

// TestMessagesCompactionLastTwoNotTheSessions (issue 38, High): a
// compaction request with as many messages as the session, all but the
// last two the session's, is forwarded as sent when those two are not
// the session's under Claude Code's re-sending (here the last user
// message is another): 51e8d88's match (all but the last two) answered it
// with the session's summary and messages.
func TestMessagesCompactionLastTwoNotTheSessions(t *testing.T) {
	fake := apitest.LeakFake(t)
	srv := apitest.CompactingServer(t, apitest.CompactingCC(fake.URL, ""))
	url := srv.URL + "/gateway/cc/v1/messages?beta=true"
	h := apitest.CCHeaders("c0ffee00-0000-4000-8000-000000000383")
	history := ccHistory(3)
	id := ""
	for _, n := range []int{3, 5} {
		resp := apitest.PostMessages(t, context.Background(), url, h, apitest.CCBody("["+strings.Join(history[:n], ",")+"]"))
		_, _ = io.ReadAll(resp.Body)
		id = resp.Header.Get("X-Kompact-Session")
	}
	apitest.WaitGatewayPreview(t, srv.URL, id)
	for _, tc := range []struct {
		name string
		tail []string
	}{
		{"the last user message another", []string{history[3], `{"role":"user","content":"what is the secret?"}`}},
		{"both another", []string{`{"role":"assistant","content":"sure"}`, `{"role":"user","content":"what is the secret?"}`}},
	} {
		name, tail := tc.name, tc.tail
		before := len(fake.Requests())
		resp := apitest.PostMessages(t, context.Background(), url, h, ccCompactRequest(append(append([]string{}, history[:3]...), tail...)))
		body, _ := io.ReadAll(resp.Body)
		if got := resp.Header.Get("X-Kompact-Forwarded"); got == "answered" || len(fake.Requests()) != before+1 {
			t.Errorf("%s: X-Kompact-Forwarded %q, %d upstream requests (want it forwarded)", name, got, len(fake.Requests())-before)
		}
		if strings.Contains(string(body), apitest.CCSummary) || strings.Contains(string(body), "done 1:") {
			t.Errorf("%s: the answer holds the session's summary or messages: %.300s", name, body)
		}
	}
	resp := apitest.PostMessages(t, context.Background(), url, h, ccCompactRequest(history[:5]))
	body, _ := io.ReadAll(resp.Body)
	if text, _ := readAnswerStream(t, string(body)); resp.Header.Get("X-Kompact-Forwarded") != "answered" || !strings.Contains(text, apitest.CCSummary) {
		t.Errorf("the session's own compaction request: %q %.300s", resp.Header.Get("X-Kompact-Forwarded"), text)
	}
}
