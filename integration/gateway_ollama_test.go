package integration

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/openapicheck"
	"kompact/internal/testing/testenv"
	"kompact/internal/testing/testserver"
	"kompact/openai"
)

// ollamaGatewayAgents points the gateway at a real Ollama server (through a
// recording proxy, %[1]s) with a 1500-token window, so that kimi-cli's
// trigger fires after a few small turns. %[3]t is compaction.fidelity.gate:
// the test model writes no summary the quality gate takes.
const ollamaGatewayAgents = `agents:
  gw:
    llm:
      base_url: %[1]s
      model: %[2]s
      max_context_size: 1500
    compaction:
      enabled: true
      type: kimi
      max_preserved_messages: 2
      auto: {enabled: true, reserved_context_size: 1000}
      fidelity: {gate: %[3]t}
    gateway: {enabled: true, precompute_ratio: 0}
`

// TestGatewayOllama (KCP-017 through the gateway) runs one conversation
// through the gateway to the real Ollama test server: the answers come back (streamed and not), the
// session holds the conversation, and once the trigger fires the model's
// own summary goes upstream in place of the old turns.
func TestGatewayOllama(t *testing.T) {
	endpoint, model := testenv.Ollama(t)
	proxy := testenv.Record(t, endpoint)
	// The tiny test model's summaries have none of the sections, so with the
	// gate on the gateway never commits one (the gate refuses it): off here.
	cfg, err := config.Parse([]byte(fmt.Sprintf(ollamaGatewayAgents, proxy.URL, model, false)), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	getenv := func(string) string { return "" }
	srv := httptest.NewServer(openapicheck.Handler(t, httpapi.New(httpapi.Config{
		Store: testserver.SQLite(t), Agents: cfg,
		LLM: &openai.Client{Getenv: getenv, MaxRetries: -1}, Upstream: &openai.Upstream{Getenv: getenv},
	}).Handler()))
	t.Cleanup(srv.Close)
	client := sdk.NewClient(option.WithBaseURL(srv.URL+"/gateway/gw/v1"), option.WithAPIKey("unused"), option.WithMaxRetries(0))
	msgs := []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("You are a test agent.")}
	compactedAt := 0
	for i := 1; i <= 6 && compactedAt == 0; i++ {
		msgs = append(msgs, sdk.UserMessage(fmt.Sprintf("Question %d: %s", i, strings.Repeat("tell me more about the build. ", 10))))
		params := sdk.ChatCompletionNewParams{Model: model, Messages: msgs}
		var resp *http.Response
		reply := ""
		if i%2 == 0 {
			s := client.Chat.Completions.NewStreaming(context.Background(), params, option.WithResponseInto(&resp))
			acc := sdk.ChatCompletionAccumulator{}
			for s.Next() {
				acc.AddChunk(s.Current())
			}
			if err := s.Err(); err != nil {
				t.Fatalf("turn %d: %v", i, err)
			}
			reply = acc.Choices[0].Message.Content
		} else {
			out, err := client.Chat.Completions.New(context.Background(), params, option.WithResponseInto(&resp))
			if err != nil {
				t.Fatalf("turn %d: %v", i, err)
			}
			reply = out.Choices[0].Message.Content
		}
		if reply == "" || resp.Header.Get("X-Kompact-Session") == "" {
			t.Fatalf("turn %d: reply %q, session %q", i, reply, resp.Header.Get("X-Kompact-Session"))
		}
		msgs = append(msgs, sdk.AssistantMessage(reply))
		if resp.Header.Get("X-Kompact-Forwarded") == "compacted" {
			compactedAt = i
		}
	}
	if compactedAt == 0 {
		t.Fatal("the trigger never fired")
	}
	bodies := proxy.Bodies()
	last := string(bodies[len(bodies)-1])
	if strings.Contains(last, "Question 1:") || !strings.Contains(last, fmt.Sprintf("Question %d:", compactedAt)) {
		t.Fatalf("the compacted request still holds the first turn, or lost the newest:\n%s", last)
	}
	t.Logf("compacted at turn %d; %d upstream calls", compactedAt, len(bodies))
}
