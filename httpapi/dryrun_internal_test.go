package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/internal/testing/testserver"
	"kompact/kimi"
)

// wholeDryRun is a dry run's answer as it was made before it planned on
// outlines (issue 29): on the session read whole, with the estimate of the
// messages themselves (kompact.EstimateTokens).
func wholeDryRun(t *testing.T, s *Server, r *http.Request, id string, req actionRequest) (int, []byte) {
	t.Helper()
	stored, a, err := s.sessions.Open(r.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	job, err := s.sessions.NewJob(r.Context(), stored, a, req.action(r))
	if err != nil {
		status, body := s.outcomeBody(r, kompact.ErrorOutcome(err))
		return status, append(body, '\n')
	}
	p := job.Job.Plan.(*kimi.Plan)
	d := dryRun{Status: "dry_run", Noop: p.Noop, Reason: p.Reason, Messages: len(p.Session.Messages), Model: job.Job.Config.Model, Instructions: p.About().Instructions}
	if !p.Noop {
		c := p.Counts()
		d.First, d.Last = c.Before+1, c.Before+c.Replaced
		d.Replaced, d.Preserved = c.Replaced, c.After
		d.EstimatedTokens = kompact.EstimateTokens(p.Session.Messages[c.Before : c.Before+c.Replaced])
	}
	body, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return http.StatusOK, append(body, '\n')
}

// TestDryRunOnOutlines: a dry run planned on the session's outlines
// (kimi.Outline, streamed) answers byte for byte what the dry run on
// the whole session answered, for ranges, tails, tool-call pairs split at
// either end, a lone earlier summary, unknown messages and text that is
// not ASCII.
func TestDryRunOnOutlines(t *testing.T) {
	store := testserver.SQLite(t)
	s := New(Config{Store: store, Agents: config.Default()})
	arg := `{"q":1}`
	text := func(role kompact.Role, id, t string) kompact.Message {
		return kompact.Message{ID: id, Role: role, Content: []kompact.Part{kompact.TextPart(t)}}
	}
	call := text(kompact.RoleAssistant, "a1", "calling é 数据 →")
	call.Content = append(call.Content, kompact.ThinkPart("think it over"))
	call.ToolCalls = []kompact.ToolCall{{ID: "c1", Name: "read", Arguments: &arg}, {ID: "c2", Name: "grep"}}
	res1, res2 := text(kompact.RoleTool, "t1", "one"), text(kompact.RoleTool, "t2", "two 🙂")
	res1.ToolCallID, res2.ToolCallID = "c1", "c2"
	sessions := map[string][]kompact.Message{
		"tools": {text(kompact.RoleSystem, "sys", "rules"), text(kompact.RoleUser, "u1", "first question, long enough"),
			call, res1, res2, text(kompact.RoleAssistant, "a2", "answer"), text(kompact.RoleUser, "u2", "again"),
			text(kompact.RoleAssistant, "a3", "done"), text(kompact.RoleUser, "u3", "last"), text(kompact.RoleAssistant, "a4", "ok")},
		"summary": {text(kompact.RoleSystem, "sys", "rules"), text(kompact.RoleUser, "sum", kompact.SummaryPrefix+"\nbefore"),
			text(kompact.RoleUser, "u1", "q"), text(kompact.RoleAssistant, "a1", "a")},
		"empty": nil,
	}
	for id, msgs := range sessions {
		if _, err := store.CreateSession(t.Context(), &kompact.Session{ID: id, Agent: "kimi", Messages: msgs}); err != nil {
			t.Fatal(err)
		}
	}
	reqs := []struct{ action, body string }{
		{"compact_conversation", `{}`},
		{"compact_conversation", `{"start":"u1"}`},
		{"compact_conversation", `{"start":"t1"}`},
		{"compact_conversation", `{"start":"#2","end":"#4"}`},
		{"compact_conversation", `{"start":"a2","end":"t2"}`},
		{"compact_conversation", `{"end":"#99"}`},
		{"compact_conversation", `{"start":"sys","end":"sys"}`},
		{"compact_conversation", `{"instructions":"keep the paths","appendix_tokens":10}`},
		{"compact_up_to_here", `{"message_id":"a1"}`},
		{"compact_up_to_here", `{"message_id":"t2"}`},
		{"compact_up_to_here", `{"message_id":"nope"}`},
		{"compact_up_to_here", `{}`},
	}
	for id := range sessions {
		for _, q := range reqs {
			path := "/v1/sessions/" + id + "/actions/" + q.action
			body := strings.TrimSuffix(q.body, "}")
			if body != "{" {
				body += ","
			}
			body += `"dry_run":true}`
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("POST", path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			s.Handler().ServeHTTP(rec, req)

			var ar actionRequest
			if err := json.Unmarshal([]byte(body), &ar); err != nil {
				t.Fatal(err)
			}
			ref := httptest.NewRequest("POST", path, nil)
			ref.SetPathValue("id", id)
			ref.SetPathValue("action", q.action)
			status, want := wholeDryRun(t, s, ref, id, ar)
			if rec.Code != status || rec.Body.String() != string(want) {
				t.Errorf("%s %s: %d %s\nwant %d %s", path, body, rec.Code, rec.Body, status, want)
			}
		}
	}
}
