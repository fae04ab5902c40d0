package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"

	"kompact"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/kcvectors"
	"kompact/internal/testing/testserver"
	"kompact/kimicode"
)

// kimiCodeAgents: "kc" compacts the Kimi Code way.
const kimiCodeAgents = `default_agent: kc
agents:
  kc:
    llm:
      base_url: %s
      model: chat-model
      max_context_size: 100000
    compaction:
      enabled: true
      type: kimi-code
  other:
    llm:
      base_url: %s
      model: chat-model
    compaction:
      enabled: true
      type: kimi
`

// TestKimiCodeTypeThroughTheAPI (issue 31 §2): an agent of compaction.type kimi-code
// compacts a stored session the Kimi Code way through /v1: its request holds the leading
// system message, the structured history (tool calls and results) and Kimi Code's
// instruction last, with max_tokens = min(window, 131072); the preview, once applied,
// leaves the system message, the user's own messages merged, the summary (Kimi Code's
// prefix) and the continuation note; undo brings the session back byte for byte (and so
// does a restore of the revision before). A range is refused.
func TestKimiCodeTypeThroughTheAPI(t *testing.T) {
	raw := kcvectors.Texts(t)
	texts := kimicode.NewTexts(raw, "shared")
	kimicode.UseTexts(texts)
	e := newAPIEnv(t, apiOptions{agents: kimiCodeAgents})
	args := `{"path":"a.txt"}`
	orig := e.must(201, "POST", "/v1/sessions", map[string]any{"id": "s", "messages": []any{
		map[string]any{"role": "system", "content": "You are a coder."},
		map[string]any{"role": "user", "content": "Read a.txt."},
		map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{"type": "function", "id": "c1", "function": map[string]any{"name": "Read", "arguments": args}}}},
		map[string]any{"role": "tool", "tool_call_id": "c1", "content": "hello"},
		map[string]any{"role": "assistant", "content": "It says hello."},
		map[string]any{"role": "user", "content": "Thanks."},
	}})
	wantError(t, e.do("POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"start": "#2", "preview": true}), 400, "invalid_request", "whole session")
	e.llm.Enqueue(fakellm.Answer(fakellm.Text("Read a.txt: it says hello.")))
	pv := e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"preview": true, "instructions": "Keep a.txt."})
	reqs := e.llm.Requests()
	msgs := reqs[len(reqs)-1].Messages()
	last, _ := msgs[len(msgs)-1]["content"].(string)
	if len(msgs) != 7 || msgs[0]["role"] != "system" || msgs[2]["tool_calls"] == nil || msgs[3]["tool_call_id"] != "c1" ||
		last != texts.InstructionText("Keep a.txt.") {
		t.Fatalf("the compaction request: %v", msgs)
	}
	if mt := reqs[len(reqs)-1].JSON["max_tokens"]; mt != 100000.0 {
		t.Errorf("max_tokens %v", mt)
	}
	e.must(200, "POST", "/v1/sessions/s/previews/"+pv["preview_id"].(string)+"/apply", nil)
	got := e.must(200, "GET", "/v1/sessions/s", nil)["messages"].([]any)
	want := []string{"You are a coder.", "Read a.txt.\n\nThanks.", texts.Prefix() + "\nRead a.txt: it says hello.", texts.ContinuationText()}
	if len(got) != len(want) {
		t.Fatalf("the compacted session has %d messages: %v", len(got), got)
	}
	for i, w := range want {
		if c := apitest.JSONText(t, got[i].(map[string]any)["content"]); !strings.Contains(c, apitest.JSONText(t, w)[1:len(apitest.JSONText(t, w))-1]) {
			t.Errorf("message %d: %s, want %q", i, c, w)
		}
	}
	// Undo puts back the messages the compaction replaced, byte for byte, and so does
	// restoring the revision before the compaction (after undoing the undo).
	undone := e.must(200, "POST", "/v1/sessions/s/revisions/1/undo", nil)
	if apitest.JSONText(t, undone["session"].(map[string]any)["messages"]) != apitest.JSONText(t, orig["messages"]) {
		t.Errorf("undo: %v", undone)
	}
	e.must(200, "POST", "/v1/sessions/s/revisions/2/restore", nil)
	restored := e.must(200, "POST", "/v1/sessions/s/revisions/1/restore", nil)
	if apitest.JSONText(t, restored["session"].(map[string]any)["messages"]) != apitest.JSONText(t, orig["messages"]) {
		t.Errorf("restore: %v", restored)
	}
}

// TestGatewayKimiCodeAgent (issue 31 §2): the gateway of a kimi-code agent (a 100,000-token
// window, compacting at half of it) compacts the conversation the Kimi Code way, as Kimi
// Code compacts before the first step of a new prompt, and forwards the rebuilt context: the
// client's system message, the oldest user text (head), the elision note, the newest user
// messages merged (tail, the client's newest message last), the summary with Kimi Code's
// prefix and the continuation note.
func TestGatewayKimiCodeAgent(t *testing.T) {
	raw := kcvectors.Texts(t)
	texts := kimicode.NewTexts(raw, "shared")
	kimicode.UseTexts(texts)
	up := apitest.NewFakeUpstream(t)
	yaml := testserver.GatewayAgents(up.Srv.URL+"/v1", testserver.Gateway{Auto: true})
	yaml = strings.NewReplacer("type: kimi\n", "type: kimi-code\n", "max_context_size: 10000\n", "max_context_size: 100000\n").Replace(yaml)
	srv := apitest.GatewayServer(t, yaml, testLog{t})
	c := apitest.NewGatewayClient(srv.URL)
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("You are a careful agent.")}}
	quoted := func(s string) []byte { // as inside a JSON string, < and > as they are
		var b bytes.Buffer
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		_ = e.Encode(s)
		return bytes.TrimSuffix(b.Bytes(), []byte("\"\n"))[1:]
	}
	elision := strings.SplitN(texts.Elision, "${", 2)[0]
	for i := 1; i <= 150; i++ {
		if h := cv.Turn(t, c, i, false); h.Get("X-Kompact-Forwarded") == "as-sent" {
			continue
		}
		chats, compactions := up.Chats()
		if compactions != 1 {
			t.Fatalf("turn %d: not forwarded as sent, after %d compactions", i, compactions)
		}
		msgs := forwardedMessages(t, chats[len(chats)-1].Body)
		sent := forwardedMessages(t, c.LastSent())
		newest := quoted(apitest.UserText(i))
		if len(msgs) != 6 || !bytes.Equal(msgs[0], sent[0]) || !bytes.Contains(msgs[1], []byte(`turn 1:`)) ||
			!bytes.Contains(msgs[2], quoted(elision)) || !bytes.Contains(msgs[3], []byte(fmt.Sprintf("turn %d:", i-1))) ||
			!bytes.HasSuffix(msgs[3], append(newest, '"', '}')) || !bytes.Contains(msgs[4], quoted(texts.Prefix())) ||
			!bytes.Contains(msgs[4], []byte("summary of the old turns")) || !bytes.HasSuffix(msgs[5], append(quoted(texts.ContinuationText()), '"', '}')) ||
			!bytes.Contains(sent[len(sent)-1], newest) {
			var about []string
			for _, m := range msgs {
				about = append(about, fmt.Sprintf("%.80s … %s", m, m[max(0, len(m)-80):]))
			}
			t.Fatalf("turn %d: forwarded %d messages:\n%s", i, len(msgs), strings.Join(about, "\n"))
		}
		return
	}
	t.Fatal("the conversation never compacted")
}

// TestCompactionFormatOfAgent (issue 39 §4): GET /v1/compaction keeps kimi's form,
// ?agent=NAME answers the form of that agent's type (kimi-code's prefix, no sections) and
// 404 for an agent the server lacks; a kimi-code session's ui-elements offer no range and
// no compact_up_to_here, a kimi one's both.
func TestCompactionFormatOfAgent(t *testing.T) {
	texts := kimicode.Builtin()
	kimicode.UseTexts(texts)
	e := newAPIEnv(t, apiOptions{agents: kimiCodeAgents})
	for _, tc := range []struct{ q, want string }{
		{"", `{"appendix_section":"preserved_artifacts","sections":["current_focus","environment","completed_tasks","active_issues","code_state","important_context"],"summary_prefix":` + apitest.JSONText(t, kompact.SummaryPrefix) + `,"type":"kimi"}`},
		{"?agent=other", `{"appendix_section":"preserved_artifacts","sections":["current_focus","environment","completed_tasks","active_issues","code_state","important_context"],"summary_prefix":` + apitest.JSONText(t, kompact.SummaryPrefix) + `,"type":"kimi"}`},
		{"?agent=kc", `{"appendix_section":"","sections":[],"summary_prefix":` + apitest.JSONText(t, texts.Prefix()) + `,"type":"kimi-code"}`},
	} {
		if got := apitest.JSONText(t, e.must(200, "GET", "/v1/compaction"+tc.q, nil)); got != tc.want {
			t.Errorf("GET /v1/compaction%s:\n%s\nwant\n%s", tc.q, got, tc.want)
		}
	}
	wantError(t, e.do("GET", "/v1/compaction?agent=nope", nil), 404, "not_found", "nope")
	for agent, want := range map[string]string{"kc": "compact_conversation(instructions) prune_tool_results", "other": "compact_conversation(start,end,instructions) compact_up_to_here prune_tool_results"} {
		e.must(201, "POST", "/v1/sessions", map[string]any{"id": agent + "-s", "agent": agent, "messages": []any{map[string]any{"role": "user", "content": "hi"}}})
		var got []string
		for _, el := range e.must(200, "GET", "/v1/sessions/"+agent+"-s/ui-elements", nil)["ui_elements"].([]any) {
			el := el.(map[string]any)
			s := el["id"].(string)
			if s == kompact.ActionCompactConversation {
				var ps []string
				for _, p := range el["params"].([]any) {
					ps = append(ps, p.(map[string]any)["name"].(string))
				}
				s += "(" + strings.Join(ps, ",") + ")"
			}
			got = append(got, s)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("agent %s offers %s, want %s", agent, strings.Join(got, " "), want)
		}
	}
}
