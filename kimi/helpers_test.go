package kimi_test

// Helpers the kimi tests share with the service tests (moved from the
// root with the tests, issue 41 §1): a scripted kompact.LLM, agents, and
// the end-to-end compactor over the real client.

import (
	"context"
	"sync"
	"time"

	"kompact"
	"kompact/internal/testing/fakellm"
	"kompact/openai"
	"kompact/service"
)

// fakeLLM is a hand-written kompact.LLM: it records requests and answers
// from a script.
type fakeLLM struct {
	mu       sync.Mutex
	requests [][]kompact.Message
	configs  []kompact.RequestConfig
	answer   func(n int, msgs []kompact.Message) (kompact.Answer, error)
}

func (f *fakeLLM) Complete(_ context.Context, cfg kompact.RequestConfig, msgs []kompact.Message, progress func(kompact.Progress)) (kompact.Answer, error) {
	f.mu.Lock()
	f.requests = append(f.requests, msgs)
	f.configs = append(f.configs, cfg)
	n := len(f.requests)
	f.mu.Unlock()
	if progress != nil {
		progress(kompact.Progress{Chars: 7})
	}
	return f.answer(n, msgs)
}

func enabledAgent() *kompact.Agent {
	return &kompact.Agent{
		Name: "kimi",
		LLM:  kompact.LLMConfig{BaseURL: "http://x/v1", Model: "chat-model", APIKeyEnv: "K"},
		Compaction: kompact.CompactionConfig{
			Enabled: true, Type: "kimi",
		},
	}
}

func e2eAgent(srv *fakellm.Server) *kompact.Agent {
	return &kompact.Agent{
		Name: "kimi",
		LLM:  kompact.LLMConfig{BaseURL: srv.URL(), Model: "kimi-k2", APIKeyEnv: "E2E_KEY"},
		Compaction: kompact.CompactionConfig{
			Enabled: true, Type: kompact.DefaultCompactionType,
		},
	}
}

func e2eCompactor() *service.Compactor {
	return &service.Compactor{LLM: &openai.Client{
		Getenv: func(string) string { return "sk-e2e" },
		Sleep:  func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
	}}
}
