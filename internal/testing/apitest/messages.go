package apitest

import (
	"context"
	"fmt"
	"io"
	"kompact"
	"kompact/anthropic"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/llmclient"
	"kompact/internal/testing/fakeanthropic"
	"kompact/internal/testing/openapicheck"
	"kompact/internal/testing/testserver"
	"kompact/openai"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// CCModel is the model the tests' Claude Code asks for.
const CCModel = "claude-opus-5-5"

// CCAgents is an agents file with "cc", an api: anthropic agent over the
// fake at url, its key in KOMPACT_TEST_ANTHROPIC_KEY, and "chat", an
// OpenAI-compatible one; more is added under cc's gateway block.
func CCAgents(url, gateway string) string {
	return fmt.Sprintf(`agents:
  cc:
    llm: {api: anthropic, base_url: %s, model: %s, api_key_env: KOMPACT_TEST_ANTHROPIC_KEY, max_context_size: 200000}
    gateway: {enabled: true%s}
  chat:
    llm: {base_url: %s/v1, model: chat-model}
    gateway: {enabled: true}
`, url, CCModel, gateway, url)
}

// MessagesServerWith is messagesServer with kompact's own calls going to
// llm.
func MessagesServerWith(t *testing.T, yaml, token string, llm kompact.LLM) *httptest.Server {
	t.Helper()
	t.Setenv("KOMPACT_TEST_ANTHROPIC_KEY", "sk-agent")
	cfg, err := config.Parse([]byte(yaml), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := httpapi.New(httpapi.Config{
		Store: testserver.SQLite(t), Agents: cfg, Token: token,
		LLM:      llm,
		Upstream: &openai.Upstream{},
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	srv := httptest.NewServer(openapicheck.Handler(t, s.Handler()))
	t.Cleanup(srv.Close)
	return srv
}

// CCHeaders are the headers Claude Code 2.1.332 sends (README.md), with
// session id sid.
func CCHeaders(sid string) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	h.Set("User-Agent", "claude-cli/2.1.332 (external, sdk-cli)")
	h.Set("X-Claude-Code-Session-Id", sid)
	h.Set("X-Stainless-Lang", "js")
	h.Set("X-Stainless-Retry-Count", "0")
	h.Set("Anthropic-Version", "2023-06-01")
	h.Set("Anthropic-Beta", "claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27")
	h.Set("Anthropic-Dangerous-Direct-Browser-Access", "true")
	h.Set("X-Api-Key", "sk-client")
	h.Set("X-App", "cli")
	return h
}

// PostMessages posts body to path (with query) with header h.
func PostMessages(t *testing.T, ctx context.Context, url string, h http.Header, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = h.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// CCBody is a Messages request body in Claude Code's shape with messages.
func CCBody(messages string) string {
	return `{"model":"` + CCModel + `","messages":` + messages + `,"system":[{"type":"text","text":"x-anthropic-billing-header: cc_version=2.1.332.0fe; cc_entrypoint=sdk-cli;"},{"type":"text","text":"You are a coding agent.","cache_control":{"type":"ephemeral"}}],` +
		`"tools":[{"name":"Read","description":"Read a file","input_schema":{"type":"object","properties":{"file_path":{"type":"string"}}}}],` +
		`"metadata":{"user_id":"{\"session_id\":\"s\"}"},"max_tokens":128000,"thinking":{"type":"adaptive","display":"omitted"},` +
		`"context_management":{"edits":[{"type":"clear_thinking_20251015","keep":"all"}]},"output_config":{"effort":"medium"},"stream":true}`
}

// CCSummary is what the fake answers kompact's own compaction request:
// with every section the kimi type's prompt requires, so that the quality
// gate of the paths no person reviews lets it through (issue 39 §5).
const CCSummary = "The user asked to fix /src/a_test.go; the assistant ran go test ./a/ and fixed it. <current_focus>the tests of ./a/ pass</current_focus>" +
	"<environment>go</environment><completed_tasks>fixed /src/a_test.go</completed_tasks><active_issues>none</active_issues>" +
	"<code_state>/src/a_test.go</code_state><important_context>none</important_context>"

// CompactingCC is the agents file of a compacting api: anthropic agent
// over the fake at url: a window of 10000 tokens, the trigger at half of
// it, the precompute at half of that (2500 tokens).
func CompactingCC(url, gateway string) string {
	return fmt.Sprintf(`agents:
  cc:
    llm: {api: anthropic, base_url: %s, model: %s, api_key_env: KOMPACT_TEST_ANTHROPIC_KEY, max_context_size: 10000}
    compaction:
      enabled: true
      type: kimi
      max_preserved_messages: 2
      auto: {enabled: true, trigger_ratio: 0.5, reserved_context_size: 1000}
    gateway: {enabled: true, precompute_ratio: 0.5%s}
`, url, CCModel, gateway)
}

// CompactingServer is messagesServer whose LLM sends api: anthropic
// requests through the Messages client.
func CompactingServer(t *testing.T, yaml string) *httptest.Server {
	t.Helper()
	return MessagesServerWith(t, yaml, "", llmclient.Router{By: map[string]kompact.LLM{anthropic.API: &anthropic.Client{MaxRetries: -1}}, Default: &openai.Client{MaxRetries: -1}})
}

// WaitGatewayPreview waits until session id has the gateway's
// precomputed summary.
func WaitGatewayPreview(t *testing.T, base, id string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		var list struct {
			Sessions []struct {
				ID              string `json:"id"`
				GatewayPreviews int    `json:"gateway_previews"`
				Running         bool   `json:"running"`
			} `json:"sessions"`
		}
		GetJSON(t, base, "/v1/sessions", &list)
		for _, s := range list.Sessions {
			if s.ID == id && s.GatewayPreviews > 0 && !s.Running {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no precomputed summary for %s", id)
}

// LeakFake plays the model: a client's turn (Claude Code's User-Agent)
// gets "ok" with 3000 input tokens (past the precompute), a client's
// compaction request that reaches it "the upstream's summary", and
// kompact's own compaction request ccSummary.
func LeakFake(t *testing.T) *fakeanthropic.Server {
	return fakeanthropic.New(t, func(r fakeanthropic.Request) fakeanthropic.Answer {
		switch {
		case !strings.HasPrefix(r.Header.Get("User-Agent"), "claude-cli/"):
			return fakeanthropic.Answer{Events: fakeanthropic.TextStream(CCModel, "<summary>"+CCSummary+"</summary>", fakeanthropic.Usage{Input: 2000, Output: 40})}
		case strings.Contains(string(r.Body), "CRITICAL: Respond with TEXT ONLY"):
			return fakeanthropic.Answer{Events: fakeanthropic.TextStream(CCModel, "<summary>the upstream's summary</summary>", fakeanthropic.Usage{Input: 500, Output: 20})}
		}
		return fakeanthropic.Answer{Events: fakeanthropic.TextStream(CCModel, "ok", fakeanthropic.Usage{Input: 3000, Output: 5})}
	})
}

// RevisionList reads session id's revisions.
func RevisionList(t *testing.T, base, id string) []struct {
	Kind string `json:"kind"`
	Note string `json:"note"`
} {
	t.Helper()
	var revs struct {
		Revisions []struct {
			Kind string `json:"kind"`
			Note string `json:"note"`
		} `json:"revisions"`
	}
	GetJSON(t, base, "/v1/sessions/"+id+"/revisions", &revs)
	return revs.Revisions
}
