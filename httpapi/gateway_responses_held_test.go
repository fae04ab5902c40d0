package httpapi_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestResponsesContinuationHoldsSummaryOnce (issue 42 §2): the turn
// after a compaction the gateway answered carries kompact's summary as
// Codex's compaction item; the session holds that summary already (the
// revision's), so the item counts as held with the messages before it and
// only what follows is appended: the session holds the summary once, the
// client's messages after it numbered on without a hole, and a later
// turn, after the session was compacted again, still continues it. The
// forwarded body is the one sent, the item expanded. On the main of
// e3b34a4 the item was appended too: the session held the summary twice.
func TestResponsesContinuationHoldsSummaryOnce(t *testing.T) {
	x := newCxThread(t, cxEnvironment("/w"))
	x.firstTurns("th-1")
	item := x.compact("")
	before := sessionTexts(t, x.srv.URL)

	next := []string{x.base[0], cxMessage("user", "Hello there."), cxMessage("user", "Second question."), x.base[1], item, cxMessage("user", "Next question.")}
	x.post("the turn after the compaction", next, "th-1")
	after := sessionTexts(t, x.srv.URL)
	if n := countHolding(after, "KOMPACT-CX-SUMMARY"); n != 1 {
		t.Errorf("the session holds the summary %d times after the continuation, want once: %q", n, after)
	}
	if len(after) != len(before)+1 || !strings.Contains(after[len(after)-1], "Next question.") {
		t.Errorf("the continuation appended %q to %q, want only the next question", after[len(before):], before)
	}
	sent := cxBody(next...)
	var fwd struct {
		Input []json.RawMessage `json:"input"`
	}
	got := string(x.fake.Requests()[len(x.fake.Requests())-1].Body)
	if json.Unmarshal([]byte(got), &fwd) != nil || len(fwd.Input) != len(next) || strings.Replace(sent, item, string(fwd.Input[4]), 1) != got || strings.Contains(got, `"compaction"`) {
		t.Errorf("forwarded:\n%s\nwant the body sent with its compaction item expanded:\n%s", got, sent)
	}
	ids := sessionIDs(t, x.srv.URL)

	// Compacted again (a rewrite, which derives the state anew): the next
	// turn continues the session, its messages numbered on.
	compactSent(t, x.srv.URL, x.fake, "th-1")
	next = append(next, cxMessage("assistant", "ok"), cxMessage("user", "Last question."))
	x.post("the turn after a second compaction", next, "th-1")
	final := sessionIDs(t, x.srv.URL)
	last := ids[len(ids)-1]
	if want := []string{nextID(t, last), nextID(t, nextID(t, last))}; strings.Join(final[len(final)-2:], ",") != strings.Join(want, ",") {
		t.Errorf("after the second compaction the session ends %q, want %q after %q", final[len(final)-2:], want, last)
	}
}

// sessionTexts is th-1's messages' content, as JSON, in order.
func sessionTexts(t *testing.T, base string) []string {
	t.Helper()
	var out []string
	for _, m := range getJSON(t, base+"/v1/sessions/th-1")["messages"].([]any) {
		b, _ := json.Marshal(m.(map[string]any)["content"])
		out = append(out, string(b))
	}
	return out
}

// sessionIDs is th-1's message ids, in order.
func sessionIDs(t *testing.T, base string) []string {
	t.Helper()
	var out []string
	for _, m := range getJSON(t, base+"/v1/sessions/th-1")["messages"].([]any) {
		id, _ := m.(map[string]any)["id"].(string)
		out = append(out, id)
	}
	return out
}

// countHolding counts the texts that hold s.
func countHolding(texts []string, s string) int {
	n := 0
	for _, x := range texts {
		if strings.Contains(x, s) {
			n++
		}
	}
	return n
}

// nextID is the gateway's id of the client message after the one id names
// (g_N: g_N+1).
func nextID(t *testing.T, id string) string {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimPrefix(id, "g_"))
	if err != nil || !strings.HasPrefix(id, "g_") {
		t.Fatalf("%q is no client message's id", id)
	}
	return "g_" + strconv.Itoa(n+1)
}

// TestResponsesMidTurnContinuation (issue 42 §2): after a compaction
// the gateway answered inside a turn (phase mid_turn), Codex goes on with
// its rebuilt history ending with the compaction item, no new message
// after it (../shared/codex/README.md, auto-midturn-*). That history
// continues the compacted session, appending nothing, and the turn's next
// request is appended there. On the main of caec781 it was not taken for
// a continuation (a message had to follow the summary): the thread split
// into a new session holding its context and the summary afresh.
func TestResponsesMidTurnContinuation(t *testing.T) {
	x := newCxThread(t, cxEnvironment("/w"))
	post := func(what string, items []string) {
		t.Helper()
		resp, _ := x.post(what, items, "")
		if got := resp.Header.Get("X-Kompact-Session"); got != "th-1" {
			t.Errorf("%s went to session %q, want the thread's th-1", what, got)
		}
	}
	post("turn 1", x.hist)
	x.hist = append(x.hist, cxMessage("assistant", "ok"), cxMessage("user", "Second question."))
	post("turn 2", x.hist)
	item := x.compact("mid_turn")
	before := sessionTexts(t, x.srv.URL)

	next := []string{x.base[0], cxMessage("user", "Hello there."), x.base[1], cxMessage("user", "Second question."), item}
	post("the turn's request after the compaction", next)
	if after := sessionTexts(t, x.srv.URL); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("the continuation changed the session: %q, was %q", after, before)
	}
	next = append(next, cxMessage("assistant", "Still on it."), cxMessage("user", "Go on."))
	post("the next request of the thread", next)
	after := sessionTexts(t, x.srv.URL)
	if len(after) != len(before)+2 || !strings.Contains(after[len(after)-1], "Go on.") || countHolding(after, "KOMPACT-CX-SUMMARY") != 1 {
		t.Errorf("after the next request the session holds %q (was %q), want the two new messages after it and the summary once", after, before)
	}
	if ids := listedIDs(listSessions(t, x.srv.URL, "")); len(ids) != 1 {
		t.Errorf("sessions %v, want th-1 only", ids)
	}
}
