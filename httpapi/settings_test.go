package httpapi_test

import (
	"strings"
	"sync"
	"testing"

	"kompact"
	"kompact/internal/testing/fakellm"
)

// A settings change that is refused in part writes nothing: the whole
// body is checked before one write (issue 28 §1: a token_count was
// recorded from a request answered 400 for its compaction_model).
func TestSettingsRefusedWritesNothing(t *testing.T) {
	e := newAutoEnv(t)
	e.must(201, "POST", "/v1/sessions", map[string]any{"id": "s", "agent": "auto", "compaction_model": "before",
		"messages": []any{map[string]any{"role": "user", "content": "hello"}}})
	before := e.must(200, "GET", "/v1/sessions/s", nil)
	title := func() any { // the session's title, as the list gives it
		t.Helper()
		list := e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any)
		return list[0].(map[string]any)["title"]
	}
	oldTitle := title()
	long := strings.Repeat("m", 300)
	for _, body := range []map[string]any{
		{"token_count": 777, "compaction_model": long},
		{"token_count": 777, "title": "renamed", "compaction_model": long},
		{"compaction_model": "after", "title": strings.Repeat("t", 1000)},
		{"compaction_model": "after", "token_count": -1},
	} {
		wantError(t, e.do("PATCH", "/v1/sessions/s/settings", body), 400, "invalid_request")
		c := e.must(200, "GET", "/v1/sessions/s/context", nil)
		after := e.must(200, "GET", "/v1/sessions/s", nil)
		if num(t, c, "token_count") != 0 || after["version"] != before["version"] ||
			after["compaction_model"] != "before" || title() != oldTitle {
			t.Fatalf("a refused %v wrote: token_count %v, version %v -> %v, model %v, title %v -> %v", body,
				c["token_count"], before["version"], after["version"], after["compaction_model"], oldTitle, title())
		}
	}

	// All three at once, in one write.
	got := e.must(200, "PATCH", "/v1/sessions/s/settings", map[string]any{"token_count": 777, "compaction_model": "after", "title": "renamed"})
	c := e.must(200, "GET", "/v1/sessions/s/context", nil)
	if num(t, c, "token_count") != 777 || got["compaction_model"] != "after" || title() != "renamed" || num(t, got, "version") != num(t, before, "version")+1 {
		t.Fatalf("all three: %v, context %v", got, c)
	}
}

// TestSettingsInstructions: a session's standing instructions (issue 33
// §2) are set with PATCH …/settings, shown in its description, joined
// after the agent's compaction.instructions and before the run's into the
// one custom instruction of every compaction (KCP-011): the dry run shows
// the joined text, a manual action and an automatic compaction send it. Too
// long is 400 invalid_request and writes nothing; "" clears them.
func TestSettingsInstructions(t *testing.T) {
	const intro = "**User's Custom Compaction Instruction:**\nThe user has specifically requested the following focus during compaction. You MUST prioritize this instruction above the default compression priorities:\n"
	agents := strings.Replace(autoAgents, "      compaction_model: compact-model\n", "      compaction_model: compact-model\n      instructions: Keep the schema.\n", 1)
	e := newAPIEnv(t, apiOptions{agents: agents})
	last := recordCompactions(t, e)
	listed := func(id string) map[string]any {
		for _, s := range e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any) {
			if m := s.(map[string]any); m["id"] == id {
				return m
			}
		}
		t.Fatalf("no session %s", id)
		return nil
	}
	dryRun := func(id string, body map[string]any) map[string]any {
		body["dry_run"] = true
		return e.must(200, "POST", "/v1/sessions/"+id+"/actions/compact_conversation", body)
	}
	dry := func(id string, body map[string]any) any { return dryRun(id, body)["instructions"] }
	e.must(201, "POST", "/v1/sessions", autoSession("s", "auto"))
	e.must(201, "POST", "/v1/sessions", autoSession("plain", "manual"))
	if got, ok := dryRun("plain", map[string]any{})["instructions"]; ok {
		t.Fatalf("a dry run with no instructions answers %q", got)
	}
	if _, ok := listed("s")["instructions"]; ok || dry("s", map[string]any{}) != "Keep the schema." {
		t.Fatalf("the agent's instructions alone: listed %v, dry run %v", listed("s"), dry("s", map[string]any{}))
	}

	before := listed("s")["version"]
	wantError(t, e.do("PATCH", "/v1/sessions/s/settings", map[string]any{"instructions": strings.Repeat("x", kompact.MaxInstructionsLen+1)}), 400, "invalid_request", "at most 4000")
	if m := listed("s"); m["version"] != before || m["instructions"] != nil {
		t.Fatalf("too long instructions wrote: %v", m)
	}
	e.must(200, "PATCH", "/v1/sessions/s/settings", map[string]any{"instructions": "Keep the API paths."})
	if m := listed("s"); m["instructions"] != "Keep the API paths." || num(t, m, "version") != int(before.(float64))+1 {
		t.Fatalf("after setting: %v", m)
	}
	const joined = "Keep the schema.\n\nKeep the API paths.\n\nThe login bug."
	if got := dry("s", map[string]any{"instructions": "The login bug."}); got != joined {
		t.Fatalf("dry run: %q, want %q", got, joined)
	}

	// An automatic compaction sends the agent's and the session's.
	e.must(200, "POST", "/v1/sessions/s/continue", map[string]any{"content": strings.Repeat("x", 1000)})
	if got := last(); !strings.HasSuffix(got, intro+"Keep the schema.\n\nKeep the API paths.") {
		t.Fatalf("the automatic compaction's request ends %q", got[max(0, len(got)-300):])
	}
	// A manual action adds the run's.
	e.must(201, "POST", "/v1/sessions", autoSession("m", "auto"))
	e.must(200, "PATCH", "/v1/sessions/m/settings", map[string]any{"instructions": "Keep the API paths."})
	e.must(200, "POST", "/v1/sessions/m/actions/compact_conversation", map[string]any{"instructions": "The login bug."})
	if got := last(); !strings.HasSuffix(got, intro+joined) {
		t.Fatalf("the action's request ends %q", got[max(0, len(got)-300):])
	}

	e.must(200, "PATCH", "/v1/sessions/s/settings", map[string]any{"instructions": ""})
	if m := listed("s"); m["instructions"] != nil || dry("s", map[string]any{"instructions": "The login bug."}) != "Keep the schema.\n\nThe login bug." {
		t.Fatalf("after clearing: %v", m)
	}
}

// recordCompactions has e's LLM answer compaction requests (compact-model)
// with summaryAnswer(10) and chat requests with a reply of 300 + 7 tokens,
// and returns the text of the latest compaction request.
func recordCompactions(t *testing.T, e *apiEnv) (last func() string) {
	var mu sync.Mutex
	var sent []string // the compaction requests' text
	e.llm.SetFunc(func(req fakellm.Request) fakellm.Reply {
		if req.Model() == "compact-model" {
			mu.Lock()
			sent = append(sent, req.Text())
			mu.Unlock()
			return summaryAnswer(10)
		}
		return fakellm.Answer(fakellm.Text("the reply")).WithUsage(fakellm.Usage{PromptTokens: 300, CompletionTokens: 7})
	})
	return func() string {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		if len(sent) == 0 {
			t.Fatal("no compaction request")
		}
		return sent[len(sent)-1]
	}
}

// TestSettingsAnswerShowsSettings (issue 40 §3): the settings route's
// answer, the stored session, also holds "settings": every setting the
// route takes as the session now holds it, so that a change of the
// instructions (which the session document does not carry) or of the
// title shows in its own answer.
func TestSettingsAnswerShowsSettings(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions", map[string]any{"id": "s", "messages": []any{
		map[string]any{"id": "u1", "role": "user", "content": "first question"},
		map[string]any{"id": "a1", "role": "assistant", "content": "an answer"},
	}})
	settings := func(body map[string]any) map[string]any {
		t.Helper()
		got := e.must(200, "PATCH", "/v1/sessions/s/settings", body)
		if got["id"] != "s" || len(got["messages"].([]any)) != 2 {
			t.Fatalf("the answer is not the session: %v", got)
		}
		set, _ := got["settings"].(map[string]any)
		return set
	}
	set := settings(map[string]any{"instructions": "Keep the schema."})
	if set["instructions"] != "Keep the schema." || set["title"] != "first question" || set["compaction_model"] != "" ||
		set["token_count"] != float64(0) || len(set["pinned"].([]any)) != 0 {
		t.Errorf("after instructions: settings %v", set)
	}
	set = settings(map[string]any{"title": "Renamed", "token_count": 1234, "pinned": []string{"u1"}, "compaction_model": "m2"})
	if set["instructions"] != "Keep the schema." || set["title"] != "Renamed" || set["compaction_model"] != "m2" ||
		set["token_count"] != float64(1234) || len(set["pinned"].([]any)) != 1 {
		t.Errorf("after the rest: settings %v", set)
	}
	set = settings(map[string]any{"instructions": ""})
	if set["instructions"] != "" || set["title"] != "Renamed" {
		t.Errorf("after clearing the instructions: settings %v", set)
	}
	// Only the settings route's answer grows.
	if got := e.must(200, "GET", "/v1/sessions/s", nil); got["settings"] != nil {
		t.Errorf("GET answers settings: %v", got["settings"])
	}
}
