package openai_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/internal/testing/testenv"
	"kompact/openai"
	"kompact/service"
)

// TestKCP017OllamaIntegration compacts a session holding a tool message with
// a structured payload (an asset reference) through a real Ollama server.
func TestKCP017OllamaIntegration(t *testing.T) {
	endpoint, model := testenv.Ollama(t)
	proxy := testenv.Record(t, endpoint)
	base := proxy.URL

	doc := `{"id":"it","messages":[
	 {"id":"m1","role":"system","content":"You are a media assistant."},
	 {"id":"m2","role":"user","content":"Render the intro clip."},
	 {"id":"m3","role":"assistant","content":[{"type":"text","text":"Rendering."}],
	  "tool_calls":[{"type":"function","id":"call_1","function":{"name":"render","arguments":"{\"clip\":\"intro\"}"}}]},
	 {"id":"m4","role":"tool","tool_call_id":"call_1","content":[
	   {"type":"text","text":"rendered"},
	   {"type":"data","data":{"asset_ref":"asset://render/SECRET-ASSET-7731","bytes":1048576}}]},
	 {"id":"m5","role":"user","content":"Thanks. Now the outro."},
	 {"id":"m6","role":"assistant","content":"On it."}
	]}`
	s, err := kompact.DecodeSession([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	agent := &kompact.Agent{
		Name:       "ollama",
		LLM:        kompact.LLMConfig{BaseURL: base, Model: model, Settings: map[string]any{"temperature": 0}},
		Compaction: kompact.CompactionConfig{Enabled: true, Type: kompact.DefaultCompactionType},
	}
	c := &service.Compactor{LLM: &openai.Client{RequestTimeout: 2 * time.Minute}}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out := c.Execute(ctx, agent, s, kompact.ActionRequest{Action: kompact.ActionCompactConversation}, nil)
	if out.Status != kompact.OutcomeCompacted {
		t.Fatalf("outcome %s: %+v", out.Status, out.Err)
	}

	bodies := proxy.Bodies()
	if len(bodies) != 1 {
		t.Fatalf("%d requests reached Ollama, want 1", len(bodies))
	}
	body := string(bodies[0])
	if strings.Contains(body, "SECRET-ASSET-7731") || strings.Contains(body, "asset_ref") {
		t.Errorf("the structured payload reached the compaction request: %s", body)
	}
	if strings.Contains(body, `"tools"`) || strings.Contains(body, `"tool_choice"`) {
		t.Errorf("the request carries tools: %s", body)
	}
	if !strings.Contains(body, `Role: tool\nContent:\n`) || !strings.Contains(body, `"rendered"`) {
		t.Errorf("the tool message's text is missing from the transcript: %s", body)
	}

	msgs := out.Result.Session.Messages
	if len(msgs) != 4 || msgs[0].ID != "m1" || msgs[2].ID != "m5" || msgs[3].ID != "m6" {
		t.Fatalf("compacted session shape: %d messages %+v", len(msgs), msgs)
	}
	sum := msgs[1]
	if sum.Role != kompact.RoleUser || len(sum.Content) != 1 ||
		!strings.HasPrefix(sum.Content[0].Text, kompact.SummaryPrefix+"\n") ||
		strings.TrimSpace(out.Result.Summary) == "" {
		t.Fatalf("summary message %+v", sum)
	}
	if out.Result.Usage == nil || out.Result.Usage.Output == 0 {
		t.Errorf("usage not reported: %+v", out.Result.Usage)
	}
	t.Logf("Ollama answered %q; usage %+v", out.Result.Summary, *out.Result.Usage)
}

// TestOllamaGatewayWire: a client's streamed request, parsed, forwarded
// with the usage asked for, and relayed from a real Ollama server: the
// stream reaches the client whole but for the usage chunk, whose report
// the relay read.
func TestOllamaGatewayWire(t *testing.T) {
	base, model := testenv.Ollama(t)
	body := `{"model":"` + model + `","stream":true,"max_tokens":8,"messages":[{"role":"user","content":"Say hi."}]}`
	r, err := openai.ParseChatRequest([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	fwd := r.Forward(0, nil, 0, !r.IncludeUsage())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	resp, err := (&openai.Upstream{}).ChatCompletions(ctx, kompact.LLMConfig{BaseURL: base, Model: model}, fwd, "")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	var out bytes.Buffer
	u, err := openai.RelayStream(&out, nil, resp.Body, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	if u == nil || u.InputOther+u.InputCacheRead == 0 {
		t.Errorf("no usage read: %v", u)
	}
	if s := out.String(); strings.Contains(s, `"usage":{`) || !strings.Contains(s, "data: [DONE]") {
		t.Errorf("relayed stream:\n%s", s)
	}
}
