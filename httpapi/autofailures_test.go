package httpapi_test

import (
	"strings"
	"testing"

	"kompact/internal/testing/apitest"
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
