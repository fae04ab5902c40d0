package httpapi_test

import (
	"context"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakeanthropic"
	"kompact/internal/testing/fakellm"
)

// TestRevisionsListFailures (issue 39 §5): an automatic compaction whose
// summary the quality gate refused is in the revision list's failures,
// with what was refused and why; nothing was committed. An empty log is
// an empty list.
func TestRevisionsListFailures(t *testing.T) {
	e := newAutoEnv(t)
	scriptLLM(e, fakellm.Answer(fakellm.Text("<current_focus>the work</current_focus>\n<environment>fake</environment>")).
		WithUsage(fakellm.Usage{PromptTokens: 5000, CompletionTokens: 20}))
	e.must(201, "POST", "/v1/sessions", autoSession("a", "auto"))
	if fs := e.must(200, "GET", "/v1/sessions/a/revisions", nil)["failures"].([]any); len(fs) != 0 {
		t.Fatalf("failures before any: %v", fs)
	}
	e.must(200, "POST", "/v1/sessions/a/continue", map[string]any{"content": strings.Repeat("x", 1000)})
	got := e.must(200, "GET", "/v1/sessions/a/revisions", nil)
	if revs := got["revisions"].([]any); len(revs) != 0 {
		t.Fatalf("revisions %v, want none", revs)
	}
	fs, _ := got["failures"].([]any)
	if len(fs) != 1 {
		t.Fatalf("failures %v, want one", got["failures"])
	}
	f := fs[0].(map[string]any)
	if f["status"] != "rejected" || f["reason"] != "missing_sections" || f["trigger"] != "auto" || f["code"] != "llm_error" ||
		apitest.JSONText(t, f["missing_sections"]) != `["completed_tasks","active_issues","code_state","important_context"]` ||
		!strings.Contains(f["message"].(string), "lacks 4 of the 6 required sections") || f["at"] == "" {
		t.Errorf("failure %v", f)
	}
}

// TestMessagesGateRefusesMissingSections (issue 39 §5): the gateway's
// precompute whose summary lacks sections kimi's prompt requires keeps no
// summary (tried once more), so Claude Code's own compaction request is
// forwarded as sent; the revision list's failures say the precompute's
// summary was refused and which sections it lacked.
func TestMessagesGateRefusesMissingSections(t *testing.T) {
	var kompactCalls atomic.Int64
	partial := "<current_focus>the tests of ./a/ pass</current_focus><environment>go</environment>"
	fake := fakeanthropic.New(t, func(r fakeanthropic.Request) fakeanthropic.Answer {
		if r.Header.Get("X-Claude-Code-Session-Id") == "" {
			kompactCalls.Add(1)
			return fakeanthropic.Answer{Events: fakeanthropic.TextStream(apitest.CCModel, partial, fakeanthropic.Usage{Input: 2000, Output: 30})}
		}
		return fakeanthropic.Answer{Events: fakeanthropic.TextStream(apitest.CCModel, "ok", fakeanthropic.Usage{Input: 3000, Output: 5})}
	})
	srv := apitest.CompactingServer(t, apitest.CompactingCC(fake.URL, ", compaction: wait"))
	const sid = "c0ffee00-0000-4000-8000-000000000397"
	history := ccHistory(3)
	ccTurn(t, srv.URL, sid, history[:5])
	for deadline := time.Now().Add(15 * time.Second); (kompactCalls.Load() < 2 || sessionRunning(t, srv.URL, sid)) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if n := kompactCalls.Load(); n != 2 {
		t.Errorf("the precompute made %d compaction calls, want the first and one retry", n)
	}
	body := apitest.CCBody("[" + strings.Join(append(history[:5:5], `{"role":"assistant","content":[{"type":"text","text":"ok"}]}`, ccPrompt("")), ",") + "]")
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages?beta=true", apitest.CCHeaders(sid), body)
	_, _ = io.ReadAll(resp.Body)
	if resp.Header.Get("X-Kompact-Forwarded") != "as-sent" {
		t.Errorf("answered from a summary without its sections: %q", resp.Header.Get("X-Kompact-Forwarded"))
	}
	var list struct {
		Revisions []any `json:"revisions"`
		Failures  []struct {
			Trigger, Status, Reason string
			MissingSections         []string `json:"missing_sections"`
		} `json:"failures"`
	}
	apitest.GetJSON(t, srv.URL, "/v1/sessions/"+sid+"/revisions", &list)
	if len(list.Revisions) != 0 || len(list.Failures) == 0 {
		t.Fatalf("revisions %v, failures %+v", list.Revisions, list.Failures)
	}
	f := list.Failures[len(list.Failures)-1] // the oldest: the precompute's
	if f.Trigger != "precompute" || f.Status != "rejected" || f.Reason != "missing_sections" ||
		strings.Join(f.MissingSections, ",") != "completed_tasks,active_issues,code_state,important_context" {
		t.Errorf("failure %+v", f)
	}
}
