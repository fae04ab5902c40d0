package apitest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"kompact/internal/testing/fakeresponses"
)

// CodexUpstream is one fake at a Codex agent's llm.base_url (CodexAgents):
// Codex's Responses requests answered by c, kompact's own compaction
// (chat/completions) with summary.
func CodexUpstream(t *testing.T, c *fakeresponses.Codex, summary string) *fakeresponses.Server {
	t.Helper()
	chat := chatStream(summary)
	return fakeresponses.New(t, func(r fakeresponses.Request) fakeresponses.Answer {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			return fakeresponses.Answer{Events: chat}
		}
		return c.Answer(r)
	})
}

// chatStream is a chat-completions stream of one text, with usage.
func chatStream(text string) []string {
	b, _ := json.Marshal(text)
	head := `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"compact-model",`
	return []string{
		"data: " + head + `"choices":[{"index":0,"delta":{"role":"assistant","content":` + string(b) + `}}]}` + "\n\n",
		"data: " + head + `"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n",
		"data: " + head + `"choices":[],"usage":{"prompt_tokens":500,"completion_tokens":50,"total_tokens":550}}` + "\n\n",
		"data: [DONE]\n\n",
	}
}

// CodexAgents is the agents file of one agent, "cx", whose upstream is
// the fake at fakeURL: a 20,000-token window, automatic compaction at half
// of it, precomputed at half of that (5,000 tokens), compaction: wait.
func CodexAgents(fakeURL string) string {
	return fmt.Sprintf(`default_agent: cx
agents:
  cx:
    llm: {base_url: %s/v1, model: fake-model, max_context_size: 20000}
    compaction:
      enabled: true
      type: kimi
      compaction_model: compact-model
      max_preserved_messages: 2
      auto: {enabled: true, trigger_ratio: 0.5, reserved_context_size: 1000}
    gateway: {enabled: true, precompute_ratio: 0.5, compaction: wait}
`, fakeURL)
}

// CodexGateway serves the gateway with CodexAgents over the fake at
// fakeURL (GatewayServer, its log discarded).
func CodexGateway(t *testing.T, fakeURL string) *httptest.Server {
	t.Helper()
	return GatewayServer(t, CodexAgents(fakeURL), io.Discard)
}
