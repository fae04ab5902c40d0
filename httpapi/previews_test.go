package httpapi_test

import (
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"kompact"
	"kompact/httpapi"
	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/testserver"
)

// another returns an env for a second server over e's store: another
// instance, or the same one after a restart.
func (e *apiEnv) another(opt apiOptions) *apiEnv {
	e.t.Helper()
	o := &apiEnv{t: e.t, llm: e.llm, store: e.store, logs: &testserver.Buffer{}}
	o.srv = httpapi.New(httpapi.Config{
		Store: e.store, Agents: apiConfig(e.t, e.llm.URL()), LLM: apiClient(),
		Logger: slog.New(slog.NewTextHandler(o.logs, nil)), Previews: opt.previews,
	})
	ts := httptest.NewServer(o.srv.Handler())
	e.t.Cleanup(ts.Close)
	o.base, o.http = ts.URL, httpapi.CheckedClient(e.t, ts.Client())
	return o
}

// Previews live in the store: a preview made by one server is applied by
// another over the same store (another instance, or this one restarted),
// with its edited summary, and only once.
func TestPreviewAppliedByAnotherServer(t *testing.T) {
	a := newAPIEnv(t, apiOptions{})
	a.must(201, "POST", "/v1/sessions/import", apiSession("s", 4))
	a.llm.Enqueue(fakellm.Answer(fakellm.Text("<current_focus>\ndraft\n</current_focus>")))
	pv := a.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"preview": true})
	pid := pv["preview_id"].(string)
	a.must(201, "POST", "/v1/sessions/s/messages", map[string]any{"message": map[string]any{"id": "late", "role": "user", "content": "late"}})

	b := a.another(apiOptions{})
	applied := b.must(200, "POST", "/v1/sessions/s/previews/"+pid+"/apply", map[string]any{"summary": "edited on B"})
	res := applied["result"].(map[string]any)
	if applied["status"] != "compacted" || res["summary"] != "edited on B" || applied["model"] != "compact-model" ||
		res["compacted_messages"] != pv["result"].(map[string]any)["compacted_messages"] {
		t.Fatalf("applied on B: %v", applied)
	}
	msgs := b.must(200, "GET", "/v1/sessions/s", nil)["messages"].([]any)
	if texts(msgs[1]) != kompact.SummaryPrefix+"\nedited on B" || ids(msgs[2:]) != "u4,a4,late" {
		t.Fatalf("stored after apply on B: %v %q", ids(msgs), texts(msgs[1]))
	}
	wantError(t, a.do("POST", "/v1/sessions/s/previews/"+pid+"/apply", nil), 404, "not_found", "applied already")
}

// toolHeavySession is a session whose bulk is in tool-call arguments.
func toolHeavySession(id string, calls, argBytes int) map[string]any {
	msgs := []map[string]any{{"id": "sys", "role": "system", "content": "You are an agent."}}
	arg := fmt.Sprintf(`{"content":%q}`, strings.Repeat("x", argBytes))
	for i := 1; i <= calls; i++ {
		call := fmt.Sprintf("call_%d", i)
		msgs = append(msgs,
			map[string]any{"id": fmt.Sprintf("u%d", i), "role": "user", "content": "write it"},
			map[string]any{"id": fmt.Sprintf("a%d", i), "role": "assistant", "content": "",
				"tool_calls": []any{map[string]any{"type": "function", "id": call, "function": map[string]any{"name": "WriteFile", "arguments": arg}}}},
			map[string]any{"id": fmt.Sprintf("t%d", i), "role": "tool", "tool_call_id": call, "content": "ok"})
	}
	return map[string]any{"id": id, "messages": msgs}
}

// The preview budget counts every byte a preview holds, tool-call
// arguments included (issue 9, preview memory): with room for one preview
// of a session whose bulk is in tool-call arguments, a second pushes the
// first out, and a preview larger than the whole budget is refused. A
// preview holds the messages the summary keeps, not those it replaces
// (issue 38): the bulk is in the kept last call's arguments.
func TestPreviewBudgetCountsToolArguments(t *testing.T) {
	const budget = 300 << 10
	e := newAPIEnv(t, apiOptions{previews: kompact.PreviewLimits{MaxBytes: budget}})
	e.must(201, "POST", "/v1/sessions/import", toolHeavySession("s", 8, 200<<10)) // ~200 KB in the kept call
	e.llm.SetDefault(fakellm.Answer(fakellm.Text("summary")))
	first := e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"preview": true})["preview_id"].(string)
	second := e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"preview": true})["preview_id"].(string)
	wantError(t, e.do("POST", "/v1/sessions/s/previews/"+first+"/apply", nil), 404, "not_found")
	e.must(200, "POST", "/v1/sessions/s/previews/"+second+"/apply", nil)

	e.must(201, "POST", "/v1/sessions/import", toolHeavySession("big", 2, 400<<10)) // ~400 KB in the kept call
	// Refused before the slot and the LLM call (issue 38): what the preview
	// would keep after the range passes the budget alone.
	calls := len(e.llm.Requests())
	wantError(t, e.do("POST", "/v1/sessions/big/actions/compact_conversation", map[string]any{"preview": true}), 413, "too_large", "all previews may hold together")
	if n := len(e.llm.Requests()) - calls; n != 0 {
		t.Errorf("a preview too large for the budget made %d LLM calls", n)
	}
}
