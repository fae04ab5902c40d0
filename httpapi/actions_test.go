package httpapi_test

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"kompact"
	"kompact/httpapi"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/golden"
	"kompact/kimi"
	"kompact/sqlite"
)

const summaryText = "<current_focus>\nthe tests\n</current_focus>"

// acceptWarnings is the body of an action that commits its result even
// when it has warnings (the tests' sessions are tiny: a summary rarely
// makes them smaller).
var acceptWarnings = map[string]any{"accept_warnings": true}

func TestCompactAndUndo(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	orig := e.must(201, "POST", "/v1/sessions/import", apiSession("s", 4))
	e.llm.Enqueue(fakellm.Answer(fakellm.Think("thinking"), fakellm.Text(summaryText)).
		WithUsage(fakellm.Usage{PromptTokens: 50, CompletionTokens: 7}))
	out := e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"instructions": "focus on tests", "accept_warnings": true})
	if out["status"] != "compacted" || out["model"] != "compact-model" {
		t.Fatalf("outcome %v", out)
	}
	res := out["result"].(map[string]any)
	sess := res["session"].(map[string]any)
	msgs := sess["messages"].([]any)
	// sys kept, the summary (with a server-assigned id), the preserved u4 and a4.
	if len(msgs) != 4 || ids(msgs[:1]) != "sys" || ids(msgs[2:]) != "u4,a4" || msgs[1].(map[string]any)["id"] == "" {
		t.Fatalf("compacted session %v", ids(msgs))
	}
	if texts(msgs[1]) != kompact.SummaryPrefix+"\n"+summaryText || res["summary"] != summaryText || res["compacted_messages"] != 7.0 {
		t.Errorf("summary %q / %v", texts(msgs[1]), res)
	}
	req := e.llm.Requests()[0]
	if req.Model() != "compact-model" || !strings.Contains(req.Text(), "focus on tests") || !strings.Contains(req.Text(), "question 3") {
		t.Errorf("LLM request: model %s", req.Model())
	}
	stored := e.must(200, "GET", "/v1/sessions/s", nil)
	if apitest.JSONText(t, stored["messages"]) != apitest.JSONText(t, msgs) || stored["version"] != 2.0 {
		t.Fatalf("stored %v", stored)
	}

	revs := e.must(200, "GET", "/v1/sessions/s/revisions", nil)["revisions"].([]any)
	if len(revs) != 1 {
		t.Fatalf("revisions %v", revs)
	}
	r1 := revs[0].(map[string]any)
	if r1["rev"] != 1.0 || r1["kind"] != "compaction" || r1["messages"] != 9.0 || r1["version"] != 2.0 {
		t.Errorf("revision %v", r1)
	}
	rev := e.must(200, "GET", "/v1/sessions/s/revisions/1", nil)
	if apitest.JSONText(t, rev["before"]) != apitest.JSONText(t, orig["messages"]) {
		t.Errorf("revision 1 does not hold the original messages")
	}
	wantError(t, e.do("GET", "/v1/sessions/s/revisions/7", nil), 404, "not_found")
	wantError(t, e.do("POST", "/v1/sessions/s/revisions/7/restore", nil), 404, "not_found")
	wantError(t, e.do("GET", "/v1/sessions/nope/revisions", nil), 404, "not_found")

	// Undo: restore revision 1 brings back the exact original messages.
	restored := e.must(200, "POST", "/v1/sessions/s/revisions/1/restore", nil)
	if apitest.JSONText(t, restored["session"].(map[string]any)["messages"]) != apitest.JSONText(t, orig["messages"]) {
		t.Fatalf("restore 1: %v", ids(restored["session"].(map[string]any)["messages"]))
	}
	r2 := restored["revision"].(map[string]any)
	if r2["rev"] != 2.0 || r2["kind"] != "restore" {
		t.Errorf("restore revision %v", r2)
	}
	// Undo the undo: the compacted state again.
	again := e.must(200, "POST", "/v1/sessions/s/revisions/2/restore", nil)
	if apitest.JSONText(t, again["session"].(map[string]any)["messages"]) != apitest.JSONText(t, msgs) {
		t.Fatalf("restore 2: %v", ids(again["session"].(map[string]any)["messages"]))
	}
	revs = e.must(200, "GET", "/v1/sessions/s/revisions", nil)["revisions"].([]any)
	if len(revs) != 3 || revs[0].(map[string]any)["rev"] != 3.0 || revs[2].(map[string]any)["rev"] != 1.0 {
		t.Errorf("revisions not newest first: %v", revs)
	}

	// compact_up_to_here on the original messages, after another undo.
	e.must(200, "POST", "/v1/sessions/s/revisions/1/restore", nil)
	out = e.must(200, "POST", "/v1/sessions/s/actions/compact_up_to_here", map[string]any{"message_id": "a2", "accept_warnings": true})
	msgs = out["result"].(map[string]any)["session"].(map[string]any)["messages"].([]any)
	if len(msgs) != 6 || ids(msgs[:1]) != "sys" || ids(msgs[2:]) != "u3,a3,u4,a4" {
		t.Errorf("up to a2: %v", ids(msgs))
	}
}

func TestNoopAndDisabled(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("short", 0))
	out := e.must(200, "POST", "/v1/sessions/short/actions/compact_conversation", nil)
	if out["status"] != "noop" || !strings.Contains(out["reason"].(string), "nothing is left to compact") {
		t.Errorf("noop %v", out)
	}
	doc := apiSession("off", 4)
	doc["agent"] = "off"
	e.must(201, "POST", "/v1/sessions/import", doc)
	m := wantError(t, e.do("POST", "/v1/sessions/off/actions/compact_conversation", nil), 403, "disabled", "agent off")
	if m["status"] != "error" {
		t.Errorf("not an outcome: %v", m)
	}
	wantError(t, e.do("POST", "/v1/sessions/off/actions/compact_up_to_here", `{"message_id":"a1"}`), 403, "disabled")
	if ui := e.must(200, "GET", "/v1/sessions/off/ui-elements", nil)["ui_elements"].([]any); len(ui) != 0 {
		t.Errorf("ui elements of a disabled agent: %v", ui)
	}
	if ui := e.must(200, "GET", "/v1/sessions/short/ui-elements", nil)["ui_elements"].([]any); len(ui) != 3 {
		t.Errorf("ui elements of an enabled agent: %v", ui)
	}
	wantError(t, e.do("GET", "/v1/sessions/nope/ui-elements", nil), 404, "not_found")
	wantError(t, e.do("POST", "/v1/sessions/nope/actions/compact_conversation", nil), 404, "not_found")
	if n := len(e.llm.Requests()); n != 0 {
		t.Errorf("%d LLM requests", n)
	}
}

func TestLLMFailures(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 4))
	before := e.must(200, "GET", "/v1/sessions/s", nil)

	e.llm.SetDefault(fakellm.Fail(500, "the fake provider is down"))
	m := wantError(t, e.do("POST", "/v1/sessions/s/actions/compact_conversation", nil), 502, "llm_error")
	if m["status"] != "error" || m["model"] != "compact-model" {
		t.Errorf("outcome %v", m)
	}
	if n := len(e.llm.Requests()); n != 2 {
		t.Errorf("%d requests, want 2 (one retry)", n)
	}

	e.llm.SetDefault(fakellm.Answer())
	wantError(t, e.do("POST", "/v1/sessions/s/actions/compact_conversation", nil), 502, "empty_response", kimi.EmptyResponseMessage)
	e.llm.SetDefault(fakellm.Answer(fakellm.Think("only thinking")))
	wantError(t, e.do("POST", "/v1/sessions/s/actions/compact_conversation", `{"preview": true}`), 502, "empty_response")

	after := e.must(200, "GET", "/v1/sessions/s", nil)
	if apitest.JSONText(t, after) != apitest.JSONText(t, before) {
		t.Error("a failed action changed the session")
	}
	if revs := e.must(200, "GET", "/v1/sessions/s/revisions", nil)["revisions"].([]any); len(revs) != 0 {
		t.Errorf("revisions after failures: %v", revs)
	}
}

func TestContinue(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 1))
	e.llm.Enqueue(fakellm.Answer(fakellm.Think("pondering"), fakellm.Text("Sure, "), fakellm.Text("done."), fakellm.Call(0, "c1", "Shell", "{}")))
	out := e.must(200, "POST", "/v1/sessions/s/continue", map[string]any{"content": "next step?"})
	msgs := out["messages"].([]any)
	if len(msgs) != 2 || out["version"] != 3.0 {
		t.Fatalf("continue %v", out)
	}
	user, reply := msgs[0].(map[string]any), msgs[1].(map[string]any)
	if user["role"] != "user" || texts(user) != "next step?" || user["id"] == "" {
		t.Errorf("user message %v", user)
	}
	if reply["role"] != "assistant" || texts(reply) != "Sure, done." || reply["id"] == "" || reply["tool_calls"] != nil {
		t.Errorf("reply %v", reply)
	}
	if parts := reply["content"].([]any); parts[0].(map[string]any)["type"] != "think" {
		t.Errorf("the think part was not kept: %v", parts)
	}
	req := e.llm.Requests()[0]
	wire := req.Messages()
	if req.Model() != "chat-model" || req.JSON["temperature"] != 0.5 || req.JSON["tools"] != nil || len(wire) != 5 {
		t.Fatalf("request: model %s, %d messages: %s", req.Model(), len(wire), req.Body)
	}
	if wire[0]["role"] != "system" || wire[0]["content"] != "You are a test agent." || wire[4]["content"] != "next step?" {
		t.Errorf("request messages %v", wire)
	}
	stored := e.must(200, "GET", "/v1/sessions/s", nil)
	if ids(stored["messages"])[len("sys,u1,a1,"):] != ids(msgs) {
		t.Errorf("stored %v", ids(stored["messages"]))
	}

	// The LLM fails: an error, and the user message stays.
	e.llm.SetDefault(fakellm.Fail(503, "overloaded"))
	wantError(t, e.do("POST", "/v1/sessions/s/continue", map[string]any{"content": "again?"}), 502, "llm_error")
	stored = e.must(200, "GET", "/v1/sessions/s", nil)
	last := stored["messages"].([]any)[len(stored["messages"].([]any))-1]
	if texts(last) != "again?" {
		t.Errorf("the user message is not kept: %v", last)
	}
	e.llm.SetDefault(fakellm.Answer(fakellm.Think("x")))
	wantError(t, e.do("POST", "/v1/sessions/s/continue", map[string]any{"content": "once more"}), 502, "empty_response")
	wantError(t, e.do("POST", "/v1/sessions/nope/continue", map[string]any{"content": "hi"}), 404, "not_found")
}

// events reads a Server-Sent Events stream into (event, data) pairs, and
// counts the comment lines.
func readEvents(t *testing.T, resp *http.Response) (events [][2]string, comments int) {
	t.Helper()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var name string
	var data []string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if name != "" || data != nil {
				events = append(events, [2]string{name, strings.Join(data, "\n")})
			}
			name, data = "", nil
		case strings.HasPrefix(line, ":"):
			comments++
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = append(data, strings.TrimPrefix(line, "data: "))
		default:
			t.Errorf("unexpected line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return events, comments
}

func (e *apiEnv) stream(path, body string) *http.Response {
	e.t.Helper()
	req, _ := http.NewRequest("POST", e.base+path, strings.NewReader(body))
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.http.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestProgressEventsPreviewAndApply(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 4))
	reply := fakellm.Answer(fakellm.Text("<current_focus>"), fakellm.Text("\nfirst draft\n"), fakellm.Text("</current_focus>"))
	reply.ChunkDelay = 20 * time.Millisecond
	e.llm.Enqueue(reply)

	resp := e.stream("/v1/sessions/s/actions/compact_conversation", `{"preview": true}`)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	events, _ := readEvents(t, resp)
	if len(events) < 2 {
		t.Fatalf("events %v", events)
	}
	last := events[len(events)-1]
	if last[0] != "outcome" {
		t.Fatalf("last event %v", last)
	}
	maxChars := 0.0
	var text strings.Builder // the deltas, in order
	for _, ev := range events[:len(events)-1] {
		if ev[0] != "progress" {
			t.Fatalf("event %v before the outcome", ev)
		}
		p := apiResponse{body: []byte(ev[1])}.json(t)
		if p["request"] != 1.0 || p["attempt"] != 1.0 || p["dropped"] != 0.0 {
			t.Errorf("progress %v", p)
		}
		if d, ok := p["delta"].(string); ok {
			text.WriteString(d)
		}
		if c := p["chars"].(float64); c < maxChars {
			t.Errorf("chars went down: %v", events)
		} else {
			maxChars = c
		}
	}
	if maxChars != float64(len("<current_focus>\nfirst draft\n</current_focus>")) {
		t.Errorf("the last progress says %v chars", maxChars)
	}
	if text.String() != "<current_focus>\nfirst draft\n</current_focus>" {
		t.Errorf("the progress deltas make %q", text.String())
	}
	out := apiResponse{body: []byte(last[1])}.json(t)
	pid, _ := out["preview_id"].(string)
	res := out["result"].(map[string]any)
	if out["status"] != "preview" || pid == "" || !strings.Contains(res["summary"].(string), "first draft") || res["missing_sections"] == nil {
		t.Fatalf("preview outcome %v", out)
	}
	proposed := res["session"].(map[string]any)["messages"].([]any)
	if len(proposed) != 4 || !strings.Contains(texts(proposed[1]), "first draft") {
		t.Errorf("proposed session %v", proposed)
	}
	// Nothing is committed by a preview.
	if s := e.must(200, "GET", "/v1/sessions/s", nil); s["version"] != 1.0 || len(s["messages"].([]any)) != 9 {
		t.Fatalf("the preview changed the session: %v", s["version"])
	}
	wantError(t, e.do("POST", "/v1/sessions/other/previews/"+pid+"/apply", nil), 404, "not_found")

	// Apply with an edited summary; a message appended meanwhile is kept.
	e.must(201, "POST", "/v1/sessions/s/messages", map[string]any{"message": map[string]any{"id": "late", "role": "user", "content": "late"}})
	edited := "<current_focus>\nedited by hand\n</current_focus>"
	applied := e.must(200, "POST", "/v1/sessions/s/previews/"+pid+"/apply", map[string]any{"summary": edited})
	ares := applied["result"].(map[string]any)
	if applied["status"] != "compacted" || ares["summary"] != edited {
		t.Fatalf("applied %v", applied)
	}
	stored := e.must(200, "GET", "/v1/sessions/s", nil)
	msgs := stored["messages"].([]any)
	if texts(msgs[1]) != kompact.SummaryPrefix+"\n"+edited || ids(msgs[2:]) != "u4,a4,late" {
		t.Errorf("stored after apply: %v %q", ids(msgs), texts(msgs[1]))
	}
	if apitest.JSONText(t, ares["session"].(map[string]any)["messages"]) != apitest.JSONText(t, msgs) {
		t.Error("the apply outcome does not hold the stored session")
	}
	wantError(t, e.do("POST", "/v1/sessions/s/previews/"+pid+"/apply", nil), 404, "not_found", "applied already")
	wantError(t, e.do("POST", "/v1/sessions/s/previews/pv_unknown/apply", nil), 404, "not_found")

	// A preview applied as it is.
	e.llm.Enqueue(fakellm.Answer(fakellm.Text("plain summary")))
	pv := e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"preview": true})
	applied = e.must(200, "POST", "/v1/sessions/s/previews/"+pv["preview_id"].(string)+"/apply", "")
	if applied["result"].(map[string]any)["summary"] != "plain summary" {
		t.Errorf("applied %v", applied)
	}
}

func TestEventsForNoopAndErrors(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 4))
	e.must(201, "POST", "/v1/sessions/import", apiSession("short", 0))

	events, _ := readEvents(t, e.stream("/v1/sessions/short/actions/compact_conversation", ""))
	if len(events) != 1 || events[0][0] != "outcome" {
		t.Fatalf("noop events %v", events)
	}
	golden.Check(t, "outcome_noop", []byte(events[0][1]+"\n")) // the body without events, less its final newline
	e.llm.SetDefault(fakellm.Fail(500, "down"))
	events, _ = readEvents(t, e.stream("/v1/sessions/s/actions/compact_conversation", ""))
	last := events[len(events)-1]
	if last[0] != "outcome" || !strings.Contains(last[1], `"code":"llm_error"`) {
		t.Errorf("error events %v", events)
	}
	// A retry shows in the progress, with the attempt it waits to make.
	if w := events[len(events)-2][1]; !strings.Contains(w, `"attempt":2,"max_attempts":2`) || !strings.Contains(w, `"waiting":"attempt 2 of 2, retrying in `) {
		t.Errorf("progress %v", events)
	}
	// Errors found before the LLM runs answer with their status.
	resp := e.stream("/v1/sessions/s/actions/compact_up_to_here", "")
	if resp.StatusCode != 400 {
		t.Errorf("status %d", resp.StatusCode)
	}
}

// TestCommitConflict restores a revision while the LLM writes a summary: the
// messages the compaction read are gone, so the commit must fail and write
// nothing.
func TestCommitConflict(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 4))
	e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", acceptWarnings)
	e.must(201, "POST", "/v1/sessions/s/messages", map[string]any{"messages": []any{
		map[string]any{"role": "user", "content": "q5"}, map[string]any{"role": "assistant", "content": "a5"}}})
	compacted := e.must(200, "GET", "/v1/sessions/s", nil)

	restored := make(chan map[string]any, 1)
	e.llm.SetFunc(func(fakellm.Request) fakellm.Reply {
		// The "thinking" LLM: meanwhile, the user undoes the first compaction.
		restored <- e.must(200, "POST", "/v1/sessions/s/revisions/1/restore", nil)
		return fakellm.Answer(fakellm.Text("too late"))
	})
	m := wantError(t, e.do("POST", "/v1/sessions/s/actions/compact_conversation", acceptWarnings), 409, "conflict", "changed while the compaction ran")
	if m["status"] != "error" {
		t.Errorf("not an outcome: %v", m)
	}
	after := e.must(200, "GET", "/v1/sessions/s", nil)
	want := (<-restored)["session"].(map[string]any)
	if apitest.JSONText(t, after["messages"]) != apitest.JSONText(t, want["messages"]) || after["version"] != want["version"] {
		t.Errorf("the failed commit wrote something: %v", ids(after["messages"]))
	}
	if ids(after["messages"]) == ids(compacted["messages"]) {
		t.Error("the restore did not happen")
	}
	if n := len(e.must(200, "GET", "/v1/sessions/s/revisions", nil)["revisions"].([]any)); n != 2 {
		t.Errorf("%d revisions, want 2 (the compaction and the restore)", n)
	}

	// A preview whose base changed conflicts too, and is used up.
	e.llm.SetFunc(nil)
	pv := e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"preview": true})
	e.must(200, "POST", "/v1/sessions/s/revisions/2/restore", nil)
	wantError(t, e.do("POST", "/v1/sessions/s/previews/"+pv["preview_id"].(string)+"/apply", nil), 409, "conflict")
	wantError(t, e.do("POST", "/v1/sessions/s/previews/"+pv["preview_id"].(string)+"/apply", nil), 404, "not_found")
}

// TestNoLostMessages appends 100 messages from several goroutines while a
// compaction runs: half before the LLM answers, half racing the commit.
func TestNoLostMessages(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	orig := e.must(201, "POST", "/v1/sessions/import", apiSession("s", 10))

	const workers, each = 5, 20
	var appended sync.WaitGroup
	appended.Add(workers * each / 2)
	started := make(chan struct{})
	e.llm.SetFunc(func(fakellm.Request) fakellm.Reply {
		close(started)
		done := make(chan struct{})
		go func() { appended.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
		}
		return fakellm.Answer(fakellm.Text(summaryText))
	})
	outc := make(chan map[string]any, 1)
	go func() { outc <- e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", acceptWarnings) }()
	<-started

	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				e.must(201, "POST", "/v1/sessions/s/messages", map[string]any{"message": map[string]any{
					"role": "user", "content": fmt.Sprintf("w%d-%02d", w, i)}})
				if i < each/2 {
					appended.Done()
				}
			}
		})
	}
	wg.Wait()
	out := <-outc
	if out["status"] != "compacted" {
		t.Fatalf("outcome %v", out)
	}

	final := e.must(200, "GET", "/v1/sessions/s", nil)["messages"].([]any)
	// sys, the summary, the preserved u10 and a10, then the 100 appended.
	if len(final) != 4+workers*each {
		t.Fatalf("%d messages after the compaction, want %d", len(final), 4+workers*each)
	}
	if ids(final[:1]) != "sys" || !strings.HasPrefix(texts(final[1]), kompact.SummaryPrefix) || ids(final[2:4]) != "u10,a10" {
		t.Fatalf("head %v", ids(final[:4]))
	}
	seen := map[string]int{}
	next := make([]int, workers)
	for _, m := range final[4:] {
		txt := texts(m)
		seen[txt]++
		var w, i int
		if _, err := fmt.Sscanf(txt, "w%d-%d", &w, &i); err != nil || i != next[w] {
			t.Fatalf("message %q out of order", txt)
		}
		next[w]++
	}
	if len(seen) != workers*each {
		t.Errorf("%d distinct appended messages, want %d", len(seen), workers*each)
	}
	// The revision holds the exact list the commit replaced: the original
	// messages, then those appended before the commit, in order.
	rev := e.must(200, "GET", "/v1/sessions/s/revisions/1", nil)["before"].([]any)
	n := len(orig["messages"].([]any))
	if len(rev) < n+workers*each/2 {
		t.Fatalf("the revision holds %d messages", len(rev))
	}
	if apitest.JSONText(t, rev[:n]) != apitest.JSONText(t, orig["messages"]) || apitest.JSONText(t, rev[n:]) != apitest.JSONText(t, final[4:4+len(rev)-n]) {
		t.Error("the revision does not hold the exact previous list")
	}
}

// TestKillAndRestart stops a server and starts another on the same file.
func TestKillAndRestart(t *testing.T) {
	llm := fakellm.New(t)
	db := filepath.Join(t.TempDir(), "k.db")
	start := func() (*apiEnv, func()) {
		store, err := sqlite.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		srv := httpapi.New(httpapi.Config{Store: store, Agents: apiConfig(t, llm.URL()), LLM: apiClient(), Logger: slog.New(slog.DiscardHandler)})
		addr, stopServe := serveLoopback(t, srv)
		e := &apiEnv{t: t, llm: llm, store: store, srv: srv, base: "http://" + addr, http: httpapi.CheckedClient(t, nil)}
		stop := func() {
			stopServe()
			if err := store.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
			if _, err := net.Dial("tcp", addr); err == nil {
				t.Error("the server still accepts connections")
			}
		}
		return e, stop
	}

	e, stop := start()
	orig := e.must(201, "POST", "/v1/sessions/import", apiSession("s", 3))
	first := e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", acceptWarnings)
	stop()

	e, stop = start()
	defer stop()
	got := e.must(200, "GET", "/v1/sessions/s", nil)
	if got["version"] != 2.0 || apitest.JSONText(t, got["messages"]) != apitest.JSONText(t, first["result"].(map[string]any)["session"].(map[string]any)["messages"]) {
		t.Fatalf("after the restart: %v", got)
	}
	if revs := e.must(200, "GET", "/v1/sessions/s/revisions", nil)["revisions"].([]any); len(revs) != 1 {
		t.Fatalf("revisions after the restart: %v", revs)
	}
	// A second compaction once the session has grown past its summary.
	e.must(201, "POST", "/v1/sessions/s/messages", map[string]any{"messages": []any{
		map[string]any{"role": "user", "content": "q4"}, map[string]any{"role": "assistant", "content": "a4"}}})
	second := e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", acceptWarnings)
	if second["status"] != "compacted" {
		t.Fatalf("second compaction %v", second)
	}
	r := e.must(200, "POST", "/v1/sessions/s/revisions/1/restore", nil)
	if apitest.JSONText(t, r["session"].(map[string]any)["messages"]) != apitest.JSONText(t, orig["messages"]) {
		t.Error("restoring revision 1 after the restart did not give the original messages")
	}
}

// TestServeDrainsInFlightRequests stops the server while a compaction runs:
// the request completes before Serve returns.
func TestServeDrainsInFlightRequests(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 3))
	started := make(chan struct{})
	e.llm.SetFunc(func(fakellm.Request) fakellm.Reply {
		close(started)
		return fakellm.Answer(fakellm.Text("S")).WithDelay(300 * time.Millisecond)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.srv.Serve(ctx, ln) }()
	other := &apiEnv{t: t, base: "http://" + ln.Addr().String(), http: httpapi.CheckedClient(t, nil)}
	outc := make(chan int, 1)
	go func() {
		outc <- other.do("POST", "/v1/sessions/s/actions/compact_conversation", acceptWarnings).status
	}()
	<-started
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	select {
	case status := <-outc:
		if status != 200 {
			t.Errorf("the in-flight compaction answered %d", status)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the in-flight request did not finish")
	}
	if v := e.must(200, "GET", "/v1/sessions/s", nil)["version"]; v != 2.0 {
		t.Errorf("version %v: the drained compaction was not committed", v)
	}
}

// TestClientGoneCancelsTheLLMCall closes the event stream while the LLM is
// still answering: the LLM request is cancelled, and nothing is committed.
func TestClientGoneCancelsTheLLMCall(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 3))
	cancelled := make(chan struct{})
	reply := fakellm.Answer(slices.Repeat([]fakellm.Item{fakellm.Text("x")}, 1000)...)
	reply.ChunkDelay = 10 * time.Millisecond
	e.llm.SetFunc(func(fakellm.Request) fakellm.Reply { return reply })
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", e.base+"/v1/sessions/s/actions/compact_conversation", strings.NewReader(`{"accept_warnings": true}`))
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"chars":`) && !strings.Contains(sc.Text(), `"chars":0`) {
			break
		}
	}
	cancel()
	resp.Body.Close()
	go func() {
		// The server's log line for the action marks its end.
		for !strings.Contains(e.logs.String(), "path=/v1/sessions/s/actions/compact_conversation status=200") {
			time.Sleep(5 * time.Millisecond)
		}
		close(cancelled)
	}()
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the action did not end after the client went away")
	}
	if v := e.must(200, "GET", "/v1/sessions/s", nil)["version"]; v != 1.0 {
		t.Errorf("version %v after a cancelled compaction", v)
	}
}

// TestWarningsKeepAPreview: a result with warnings is committed with them by
// default (KCP-008, KCP-019: kimi-cli keeps a non-empty summary without its
// sections); with "hold_on_warnings" it is not committed but kept as a
// preview carrying them, which can be applied or discarded;
// "accept_warnings" (the default again) commits it at once, even with
// "hold_on_warnings".
func TestWarningsKeepAPreview(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	orig := e.must(201, "POST", "/v1/sessions/import", apiSession("s", 4))
	e.llm.SetDefault(fakellm.Answer(fakellm.Text(strings.Repeat("no sections at all ", 40))))
	hold := map[string]any{"hold_on_warnings": true}
	out := e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", hold)
	ws, _ := out["warnings"].([]any)
	if out["status"] != "preview" || out["preview_id"] == nil || len(ws) != 2 ||
		ws[0].(map[string]any)["code"] != "all_sections_missing" || ws[1].(map[string]any)["code"] != "tokens_not_reduced" {
		t.Fatalf("outcome %v", out)
	}
	if got := e.must(200, "GET", "/v1/sessions/s", nil); got["version"] != orig["version"] {
		t.Fatalf("a result with warnings was committed: %v", got)
	}
	// Discarded: gone, and the session unchanged.
	pid := out["preview_id"].(string)
	if r := e.do("DELETE", "/v1/sessions/s/previews/"+pid, nil); r.status != 204 {
		t.Fatalf("discard: %d %s", r.status, r.body)
	}
	wantError(t, e.do("POST", "/v1/sessions/s/previews/"+pid+"/apply", nil), 404, "not_found")
	wantError(t, e.do("DELETE", "/v1/sessions/s/previews/"+pid, nil), 404, "not_found")

	// Streamed, the outcome event carries the warnings too.
	events, _ := readEvents(t, e.stream("/v1/sessions/s/actions/compact_conversation", `{"hold_on_warnings": true}`))
	last := events[len(events)-1]
	if last[0] != "outcome" || !strings.Contains(last[1], `"status":"preview"`) || !strings.Contains(last[1], `"code":"tokens_not_reduced"`) {
		t.Fatalf("last event %+v", last)
	}
	if got := e.must(200, "GET", "/v1/sessions/s", nil); got["version"] != orig["version"] {
		t.Fatalf("a held result was committed: %v", got)
	}

	// Accepted, even when held: committed with its warnings.
	if out := e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"hold_on_warnings": true, "accept_warnings": true}); out["status"] != "compacted" {
		t.Fatalf("accepted and held: %v", out)
	}
	e.must(204, "DELETE", "/v1/sessions/s", nil)
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 4))

	// By default: committed with its warnings.
	out = e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", nil)
	if ws, _ := out["warnings"].([]any); out["status"] != "compacted" || len(ws) != 2 {
		t.Fatalf("default outcome %v", out)
	}
	e.must(204, "DELETE", "/v1/sessions/s", nil)
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 4))

	// Accepted: committed with its warnings.
	out = e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", acceptWarnings)
	if ws, _ := out["warnings"].([]any); out["status"] != "compacted" || len(ws) != 2 {
		t.Fatalf("accepted outcome %v", out)
	}
	if got := e.must(200, "GET", "/v1/sessions/s", nil); got["version"] == orig["version"] {
		t.Fatal("the accepted result was not committed")
	}
}

// TestUndoAndRestorePreview: undo of a compaction keeps the messages
// appended after it; undoing it twice is a conflict; the restore preview
// names what a restore would drop and bring back.
func TestUndoAndRestorePreview(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	orig := e.must(201, "POST", "/v1/sessions/import", apiSession("s", 4))
	e.llm.SetDefault(fakellm.Answer(fakellm.Text(summaryText)))
	out := e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", acceptWarnings)
	if out["status"] != "compacted" {
		t.Fatalf("outcome %v", out)
	}
	added := e.must(201, "POST", "/v1/sessions/s/messages", map[string]any{"messages": []any{
		map[string]any{"role": "user", "content": "q5"}, map[string]any{"role": "assistant", "content": "a5"}}})
	newIDs := []string{}
	for _, m := range added["messages"].([]any) {
		newIDs = append(newIDs, m.(map[string]any)["id"].(string))
	}

	pv := e.must(200, "GET", "/v1/sessions/s/revisions/1/restore-preview", nil)
	eff := pv["effect"].(map[string]any)
	drops := fmt.Sprint(eff["drops"])
	if eff["messages"] != float64(len(orig["messages"].([]any))) || !strings.Contains(drops, newIDs[0]) || !strings.Contains(drops, newIDs[1]) ||
		len(eff["adds"].([]any)) != 6 || pv["revision"].(map[string]any)["kind"] != "compaction" {
		t.Fatalf("restore preview %v", pv)
	}

	undone := e.must(200, "POST", "/v1/sessions/s/revisions/1/undo", nil)
	msgs := undone["session"].(map[string]any)["messages"].([]any)
	want := append(append([]any{}, orig["messages"].([]any)...), added["messages"].([]any)...)
	if apitest.JSONText(t, msgs) != apitest.JSONText(t, want) || undone["revision"].(map[string]any)["kind"] != "undo" {
		t.Fatalf("undone %v", undone)
	}
	wantError(t, e.do("POST", "/v1/sessions/s/revisions/1/undo", nil), 409, "conflict", "no longer in the session")
	wantError(t, e.do("POST", "/v1/sessions/s/revisions/2/undo", nil), 400, "invalid_request", "not a compaction")
	wantError(t, e.do("POST", "/v1/sessions/s/revisions/0/undo", nil), 400, "invalid_request")
	wantError(t, e.do("GET", "/v1/sessions/s/revisions/9/restore-preview", nil), 404, "not_found")
}

// TestContinueRetry: {"retry": true} answers the session's last message, a
// user message whose reply failed, without appending it twice; a session
// that does not end with one is a conflict (issue 19 §3).
func TestContinueRetry(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 1))
	wantError(t, e.do("POST", "/v1/sessions/s/continue", map[string]any{"retry": true}), 409, "conflict")
	wantError(t, e.do("POST", "/v1/sessions/s/continue", map[string]any{"retry": true, "content": "x"}), 400, "invalid_request")

	e.llm.SetDefault(fakellm.Fail(503, "overloaded"))
	wantError(t, e.do("POST", "/v1/sessions/s/continue", map[string]any{"content": "again?"}), 502, "llm_error")
	e.llm.SetDefault(fakellm.Answer(fakellm.Text("Here it is.")))
	out := e.must(200, "POST", "/v1/sessions/s/continue", map[string]any{"retry": true})
	msgs := out["messages"].([]any)
	if len(msgs) != 2 || texts(msgs[0].(map[string]any)) != "again?" || texts(msgs[1].(map[string]any)) != "Here it is." {
		t.Fatalf("retry %v", out)
	}
	stored := e.must(200, "GET", "/v1/sessions/s", nil)["messages"].([]any)
	var got []string
	for _, m := range stored {
		got = append(got, texts(m.(map[string]any)))
	}
	if n := len(got); n != 5 || got[n-2] != "again?" || got[n-1] != "Here it is." {
		t.Errorf("stored %q", got)
	}
	reqs := e.llm.Requests()
	if wire := reqs[len(reqs)-1].Messages(); wire[len(wire)-1]["content"] != "again?" {
		t.Errorf("the retried request ends with %v", wire[len(wire)-1])
	}
	// Answered now: nothing to retry.
	wantError(t, e.do("POST", "/v1/sessions/s/continue", map[string]any{"retry": true}), 409, "conflict")
}
