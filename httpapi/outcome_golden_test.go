package httpapi_test

import (
	"testing"

	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/golden"
)

// TestOutcomeGolden pins the outcome JSON of the action routes byte for
// byte (testdata/outcome_*.golden; -update rewrites them): compacted, noop,
// error, preview, an applied preview with an edited summary, and a result
// with warnings kept as a preview. Only the random preview id is replaced.
func TestOutcomeGolden(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 4))
	e.must(201, "POST", "/v1/sessions/import", apiSession("short", 0))
	doc := apiSession("off", 4)
	doc["agent"] = "off"
	e.must(201, "POST", "/v1/sessions/import", doc)
	check := func(name string, r apiResponse, status int) {
		t.Helper()
		if r.status != status {
			t.Errorf("%s: status %d, want %d\n%s", name, r.status, status, r.body)
		}
		golden.Check(t, "outcome_"+name, golden.Replace(r.body, `"preview_id":"pv_[0-9a-f]{32}"`, `"preview_id":"pv_ID"`))
	}
	const action = "/v1/sessions/s/actions/compact_conversation"

	check("noop", e.do("POST", "/v1/sessions/short/actions/compact_conversation", nil), 200)
	check("error_disabled", e.do("POST", "/v1/sessions/off/actions/compact_conversation", nil), 403)
	e.llm.SetDefault(fakellm.Answer(fakellm.Think("only thinking")))
	check("error", e.do("POST", action, nil), 502)

	e.llm.SetDefault(fakellm.Answer(fakellm.Think("thinking"), fakellm.Text("<current_focus>\nthe preview\n</current_focus>")).
		WithUsage(fakellm.Usage{PromptTokens: 40, CompletionTokens: 5}))
	pv := e.do("POST", action, map[string]any{"preview": true, "end": "a2"})
	check("preview", pv, 200)
	pid, _ := pv.json(t)["preview_id"].(string)
	check("applied_edited", e.do("POST", "/v1/sessions/s/previews/"+pid+"/apply",
		map[string]any{"summary": "<current_focus>\nedited by hand\n</current_focus>"}), 200)
	e.llm.SetDefault(fakellm.Answer(fakellm.Text(summaryText)).
		WithUsage(fakellm.Usage{PromptTokens: 50, CompletionTokens: 7}))
	// A fresh session: s is only a summary now, a no-op.
	e.must(201, "POST", "/v1/sessions/import", apiSession("c", 4))
	const fresh = "/v1/sessions/c/actions/compact_conversation"
	check("warnings_preview", e.do("POST", fresh, map[string]any{"instructions": "focus on tests", "hold_on_warnings": true}), 200)
	check("warnings_committed", e.do("POST", fresh, map[string]any{"instructions": "focus on tests"}), 200)
	e.must(204, "DELETE", "/v1/sessions/c", nil)
	e.must(201, "POST", "/v1/sessions/import", apiSession("c", 4))
	check("compacted", e.do("POST", fresh, map[string]any{"instructions": "focus on tests", "accept_warnings": true}), 200)
}
