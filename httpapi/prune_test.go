package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testserver"
)

// TestPruneToolResults (issue 33 §3): prune_tool_results clears the text
// of the results older than the last keep_recent exchanges and longer
// than min_chars, with a marker; it calls no LLM, leaves every tool call
// and argument as it was, records a prune revision with its fidelity
// report, answers what it cleared; a second prune is a no-op; the undo
// puts back exactly the session it read.
func TestPruneToolResults(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	orig := e.must(201, "POST", "/v1/sessions/import", apitest.ToolExchanges("s", "fake", 3000, 500, 3000, 3000))
	out := e.must(200, "POST", "/v1/sessions/s/actions/prune_tool_results", map[string]any{"keep_recent": 1, "min_chars": 1000})
	p := out["prune"].(map[string]any)
	if out["status"] != "pruned" || num(t, out, "revision") != 1 || num(t, out, "version") != 2 || num(t, p, "cleared_results") != 2 ||
		num(t, p, "cleared_chars") != 6000 || num(t, p, "keep_recent") != 1 || num(t, p, "min_chars") != 1000 {
		t.Fatalf("outcome %v", out)
	}
	if b, a := num(t, p, "estimated_tokens_before"), num(t, p, "estimated_tokens_after"); b <= a || b-a < 1400 {
		t.Errorf("tokens %d -> %d", b, a)
	}
	if f := p["fidelity"].(map[string]any); num(t, f, "artifacts") == 0 || num(t, f, "kept") != num(t, f, "artifacts") {
		t.Errorf("fidelity %v", f)
	}
	if len(e.llm.Requests()) != 0 {
		t.Fatalf("a prune called the LLM %d times", len(e.llm.Requests()))
	}
	stored := e.must(200, "GET", "/v1/sessions/s", nil)
	was, now := orig["messages"].([]any), stored["messages"].([]any)
	if ids(now) != ids(was) {
		t.Fatalf("ids %s, were %s", ids(now), ids(was))
	}
	for i := range now {
		m, w := now[i].(map[string]any), was[i].(map[string]any)
		switch id := m["id"]; id {
		case "t0", "t2":
			want := fmt.Sprintf("[tool output cleared by kompact: bash, 3,000 chars, 3 lines; exit status 1; first error: %s/a_test.go:3:5: undefined: x; paths: %s/a_test.go]",
				map[any]string{"t0": "p0", "t2": "p2"}[id], map[any]string{"t0": "p0", "t2": "p2"}[id])
			if texts(m) != want || m["tool_call_id"] != w["tool_call_id"] {
				t.Errorf("%s: %s", id, apitest.JSONText(t, m))
			}
		default: // calls, arguments, the short result and the last exchange's
			if apitest.JSONText(t, m) != apitest.JSONText(t, w) {
				t.Errorf("%s changed: %s", id, apitest.JSONText(t, m))
			}
		}
	}
	revs := e.must(200, "GET", "/v1/sessions/s/revisions", nil)["revisions"].([]any)
	if r := revs[0].(map[string]any); r["kind"] != kompact.RevisionPrune || r["note"] != "pruned 2 tool results (6,000 chars)" || r["fidelity"] == nil {
		t.Errorf("revision %v", r)
	}

	again := e.must(200, "POST", "/v1/sessions/s/actions/prune_tool_results", map[string]any{"keep_recent": 1, "min_chars": 1000})
	if again["status"] != "noop" || !strings.Contains(again["reason"].(string), "1 tool exchange") {
		t.Errorf("second prune %v", again)
	}
	e.must(200, "POST", "/v1/sessions/s/revisions/1/undo", nil)
	back := e.must(200, "GET", "/v1/sessions/s", nil)
	if apitest.JSONText(t, back["messages"]) != apitest.JSONText(t, orig["messages"]) {
		t.Errorf("the undo did not restore the outputs exactly:\n%s", apitest.JSONText(t, back["messages"]))
	}
}

// TestPruneToolResultsRefusals: settings out of bounds and an unknown
// field are invalid_request, an agent without compaction disabled, an
// unknown session not_found; none of them writes anything.
func TestPruneToolResultsRefusals(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apitest.ToolExchanges("s", "fake", 3000, 3000))
	e.must(201, "POST", "/v1/sessions/import", apitest.ToolExchanges("off", "off", 3000, 3000))
	const path = "/v1/sessions/s/actions/prune_tool_results"
	wantError(t, e.do("POST", path, map[string]any{"keep_recent": -1}), 400, "invalid_request", "keep_recent")
	wantError(t, e.do("POST", path, map[string]any{"min_chars": 1_000_001}), 400, "invalid_request", "min_chars")
	wantError(t, e.do("POST", path, map[string]any{"keep": 1}), 400, "invalid_request", "keep_recent")
	wantError(t, e.do("POST", "/v1/sessions/off/actions/prune_tool_results", nil), 403, "disabled")
	wantError(t, e.do("POST", "/v1/sessions/nope/actions/prune_tool_results", nil), 404, "not_found")
	for _, id := range []string{"s", "off"} {
		if s := e.must(200, "GET", "/v1/sessions/"+id, nil); s["version"] != 1.0 {
			t.Errorf("%s: version %v", id, s["version"])
		}
	}
	// The defaults: keep_recent 5, so two exchanges are kept whole.
	if out := e.must(200, "POST", path, nil); out["status"] != "noop" || num(t, out["prune"].(map[string]any), "keep_recent") != 5 {
		t.Errorf("defaults %v", out)
	}
}

// pruneAgents is testserver.AutoAgents with compaction.prune enabled for
// "auto" (keep_recent 1, min_chars 1000).
var pruneAgents = strings.Replace(testserver.AutoAgents, "      auto:\n        enabled: true\n",
	"      prune: {enabled: true, keep_recent: 1, min_chars: 1000}\n      auto:\n        enabled: true\n", 1)

// TestAutoCompactionPrunesFirst (issue 33 §3): with compaction.prune, an
// automatic compaction prunes first and, when that brings the session
// under the trigger, summarises nothing (no compaction request; the turn
// goes out on the pruned session); when it does not, it summarises the
// pruned session (two revisions: the prune, then the compaction).
func TestAutoCompactionPrunesFirst(t *testing.T) {
	e := newAPIEnv(t, apiOptions{agents: pruneAgents})
	scriptLLM(e, summaryAnswer(20))
	// 4,750 tokens of tool output and a few more; the turn's 1000
	// characters take it over the 5000-token trigger.
	e.must(201, "POST", "/v1/sessions/import", apitest.ToolExchanges("s", "auto", 8000, 8000, 3000))
	out := e.must(200, "POST", "/v1/sessions/s/continue", map[string]any{"content": strings.Repeat("q", 1000)})
	auto, _ := out["auto_compaction"].(map[string]any)
	if auto == nil || auto["status"] != "pruned" || num(t, auto, "prune_revision") != 1 || auto["revision"] != nil || num(t, auto, "tokens_after") > 1000 {
		t.Fatalf("auto_compaction %v", out["auto_compaction"])
	}
	if got := strings.Join(models(e.llm.Requests()), ","); got != "chat-model" {
		t.Fatalf("requests %s, want only the turn", got)
	}
	if turn := fmt.Sprint(e.llm.Requests()[0].Messages()); !strings.Contains(turn, "[tool output cleared by kompact: bash, 8,000 chars") || !strings.Contains(turn, strings.Repeat("x", 2900)) {
		t.Errorf("the turn was not sent on the pruned session (the last exchange whole)")
	}

	// Pruning is not enough when the kept exchange alone is over the
	// trigger: the pruned session is summarised.
	e.must(201, "POST", "/v1/sessions/import", apitest.ToolExchanges("big", "auto", 1600, 1600, 20000))
	n := len(e.llm.Requests())
	out = e.must(200, "POST", "/v1/sessions/big/continue", map[string]any{"content": "go on"})
	auto, _ = out["auto_compaction"].(map[string]any)
	if auto == nil || auto["status"] != "compacted" || num(t, auto, "prune_revision") != 1 || num(t, auto, "revision") != 2 {
		t.Fatalf("auto_compaction %v", out["auto_compaction"])
	}
	reqs := e.llm.Requests()[n:]
	if got := strings.Join(models(reqs), ","); got != "compact-model,chat-model" {
		t.Fatalf("requests %s", got)
	}
	if req := reqs[0].Text(); !strings.Contains(req, "[tool output cleared by kompact: bash, 1,600 chars") {
		t.Errorf("the compaction request does not show the pruned session")
	}
	revs := e.must(200, "GET", "/v1/sessions/big/revisions", nil)["revisions"].([]any)
	if len(revs) != 2 || revs[0].(map[string]any)["kind"] != kompact.RevisionAutoCompaction || revs[1].(map[string]any)["kind"] != kompact.RevisionPrune {
		t.Errorf("revisions %v", revs)
	}
}

// TestAutoCompactionWithoutPruneUnchanged: without compaction.prune the
// same session compacts as before: one auto_compaction revision, no prune,
// and the compaction request shows the range's tool output whole.
func TestAutoCompactionWithoutPruneUnchanged(t *testing.T) {
	e := newAutoEnv(t)
	scriptLLM(e, summaryAnswer(20))
	e.must(201, "POST", "/v1/sessions/import", apitest.ToolExchanges("s", "auto", 8000, 8000, 3000))
	out := e.must(200, "POST", "/v1/sessions/s/continue", map[string]any{"content": strings.Repeat("q", 1000)})
	auto, _ := out["auto_compaction"].(map[string]any)
	if auto == nil || auto["status"] != "compacted" || auto["prune_revision"] != nil {
		t.Fatalf("auto_compaction %v", out["auto_compaction"])
	}
	reqs := e.llm.Requests()
	if got := strings.Join(models(reqs), ","); got != "compact-model,chat-model" {
		t.Fatalf("requests %s", got)
	}
	if req := reqs[0].Text(); strings.Contains(req, "tool output cleared") || strings.Count(req, strings.Repeat("x", 7900)) != 1 { // t0, the range's one output
		t.Errorf("the compaction request does not show the output whole")
	}
	revs := e.must(200, "GET", "/v1/sessions/s/revisions", nil)["revisions"].([]any)
	if len(revs) != 1 || revs[0].(map[string]any)["kind"] != kompact.RevisionAutoCompaction {
		t.Errorf("revisions %v", revs)
	}
}
