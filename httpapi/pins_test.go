package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testserver"
)

// TestSettingsPinned (issue 33 §1): PATCH …/settings {"pinned": [ids]}
// replaces a session's pinned messages (an id that is no message of the
// session is 400 invalid_request with a fix and writes nothing); the list,
// the dry run and the action say what is pinned; the compaction keeps the
// pinned message verbatim right after the summary and leaves it out of
// the request; the revision note says so; undo restores the session as it
// was; an automatic compaction keeps its pins too.
func TestSettingsPinned(t *testing.T) {
	e := newAutoEnv(t)
	last := recordCompactions(t, e)
	e.must(201, "POST", "/v1/sessions", autoSession("p", "manual"))
	before := e.must(200, "GET", "/v1/sessions/p", nil)
	bad := wantError(t, e.do("PATCH", "/v1/sessions/p/settings", map[string]any{"pinned": []string{"m2", "nope"}}), 400, "invalid_request", `"nope"`)
	if fixes, _ := bad["fixes"].([]any); len(fixes) == 0 {
		t.Fatalf("no fix: %v", bad)
	}
	if after := e.must(200, "GET", "/v1/sessions/p", nil); after["version"] != before["version"] || after["pinned"] != nil {
		t.Fatalf("a refused pin wrote: %v", after["pinned"])
	}
	got := e.must(200, "PATCH", "/v1/sessions/p/settings", map[string]any{"pinned": []string{"m2"}})
	if ids, _ := json.Marshal(got["pinned"]); string(ids) != `["m2"]` || num(t, got, "version") != num(t, before, "version")+1 {
		t.Fatalf("after pinning: pinned %s, version %v", ids, got["version"])
	}
	dry := e.must(200, "POST", "/v1/sessions/p/actions/compact_conversation", map[string]any{"dry_run": true})
	if num(t, dry, "pinned_messages") != 1 || num(t, dry, "replaced_messages") != 1 || num(t, dry, "first") != 1 || num(t, dry, "last") != 2 {
		t.Fatalf("dry run %v", dry)
	}
	out := e.must(200, "POST", "/v1/sessions/p/actions/compact_conversation", map[string]any{})
	res, _ := out["result"].(map[string]any)
	if out["status"] != "compacted" {
		t.Fatalf("outcome %v", out)
	}
	if num(t, res, "pinned_messages") != 1 || num(t, res, "replaced_messages") != 1 {
		t.Fatalf("result %v", res)
	}
	if req := last(); strings.Contains(req, strings.Repeat("b", 100)) || !strings.Contains(req, strings.Repeat("a", 100)) {
		t.Fatal("the request shows the pinned message, or not the other one")
	}
	s := e.must(200, "GET", "/v1/sessions/p", nil)
	msgs := s["messages"].([]any)
	if len(msgs) != 4 || msgs[1].(map[string]any)["id"] != "m2" || msgs[1].(map[string]any)["content"].([]any)[0].(map[string]any)["text"] != strings.Repeat("b", 4800) {
		t.Fatalf("compacted session %v", msgs)
	}
	revs := e.must(200, "GET", "/v1/sessions/p/revisions", nil)["revisions"].([]any)
	rev := revs[0].(map[string]any)
	if rev["note"] != "compacted 1 message, 1 pinned message kept" {
		t.Fatalf("revision %v", rev)
	}
	undone := e.must(200, "POST", "/v1/sessions/p/revisions/"+jsonNum(rev["rev"])+"/undo", nil)["session"].(map[string]any)
	if apitest.JSONText(t, undone["messages"]) != apitest.JSONText(t, before["messages"]) {
		t.Fatalf("undone: %v", undone["messages"])
	}

	// Automatic compaction keeps the pins too.
	e.must(201, "POST", "/v1/sessions", autoSession("a", "auto"))
	e.must(200, "PATCH", "/v1/sessions/a/settings", map[string]any{"pinned": []string{"m1"}})
	e.must(200, "POST", "/v1/sessions/a/continue", map[string]any{"content": strings.Repeat("x", 1000)})
	auto := e.must(200, "GET", "/v1/sessions/a", nil)["messages"].([]any)
	if len(auto) < 3 || auto[1].(map[string]any)["id"] != "m1" || !strings.HasPrefix(auto[0].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string), "<system>Previous context") {
		t.Fatalf("after the automatic compaction: %v", auto)
	}
	e.must(200, "PATCH", "/v1/sessions/a/settings", map[string]any{"pinned": []string{}})
	if p, ok := e.must(200, "GET", "/v1/sessions/a", nil)["pinned"]; ok {
		t.Fatalf("after unpinning: %v", p)
	}
}

func jsonNum(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestGatewayPinned (issue 33 §1): a message pinned in a gateway session
// stays in what the gateway forwards once it compacted, and the
// compaction request leaves it out.
func TestGatewayPinned(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	srv := apitest.GatewayServer(t, testserver.GatewayAgents(up.Srv.URL+"/v1", testserver.Gateway{Auto: true}), testLog{t})
	c := apitest.NewGatewayClient(srv.URL)
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("You are a careful agent.")}}
	id := cv.Turn(t, c, 1, false).Get("X-Kompact-Session")
	var s struct {
		Messages []struct {
			ID string `json:"id"`
		} `json:"messages"`
	}
	resp, err := http.Get(srv.URL + "/v1/sessions/" + id)
	if err != nil {
		t.Fatal(err)
	}
	err = json.NewDecoder(resp.Body).Decode(&s)
	resp.Body.Close()
	if err != nil || len(s.Messages) < 2 {
		t.Fatalf("gateway session: %v, %v", s, err)
	}
	body, _ := json.Marshal(map[string]any{"pinned": []string{s.Messages[1].ID}})
	req, _ := http.NewRequest("PATCH", srv.URL+"/v1/sessions/"+id+"/settings", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if resp, err = http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("PATCH settings: %v %v", resp, err)
	}
	resp.Body.Close()
	for i := 2; i <= 14; i++ {
		if _, n := up.Chats(); n > 0 {
			cv.Turn(t, c, i, false)
			break
		}
		cv.Turn(t, c, i, false)
	}
	pinned := []byte("turn 1: detail-1 ")
	up.Mu.Lock()
	defer up.Mu.Unlock()
	compacted := false
	for _, call := range up.Calls {
		switch {
		case call.Compaction:
			compacted = true
			if bytes.Contains(call.Body, pinned) {
				i := bytes.Index(call.Body, pinned)
				t.Fatalf("the compaction request shows the pinned message:\n%s", call.Body[max(0, i-300):i+100])
			}
		case compacted && !bytes.Contains(call.Body, pinned):
			t.Fatalf("a turn forwarded after the compaction lacks the pinned message:\n%s", call.Body[:min(len(call.Body), 600)])
		}
	}
	if !compacted {
		t.Fatal("the gateway never compacted")
	}
}

// TestImportPinned: a streamed import's "pinned" (before the messages;
// ids or #N) is stored as the ids its messages got, and the session's
// export holds it; one after the messages is refused, as the other fields
// are, and one naming no message too, storing nothing.
func TestImportPinned(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	pinned := func(id, pins, extra string) string {
		return strings.Replace(longDoc(id, 8000, extra), `"messages":[`, `"pinned":`+pins+`,"messages":[`, 1)
	}
	got := e.must(201, "POST", "/v1/sessions/import", pinned("long", `["#2","#7000","#2"]`, ""))
	if ids, _ := json.Marshal(got["pinned"]); string(ids) != `["m_2","m_7000"]` {
		t.Fatalf("imported pins %s", ids)
	}
	wantError(t, e.do("POST", "/v1/sessions/import", longDoc("late", 3, `,"pinned":["#1"]`)), 400, "invalid_request", `"pinned" comes after "messages"`)
	wantError(t, e.do("POST", "/v1/sessions/import", pinned("none", `["#9000"]`, "")), 400, "invalid_request", `"#9000"`)
	if n := len(e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any)); n != 1 {
		t.Errorf("%d sessions, want 1 (the refused imports store nothing)", n)
	}
}
