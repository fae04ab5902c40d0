package fidelity_test

// Helpers the fidelity tests share with the service tests (moved from the
// root with the tests, issue 41 §1): a scripted kompact.LLM and an agent.

import (
	"context"
	"sync"

	"kompact"
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

func replyWith(text string) func(int, []kompact.Message) (kompact.Answer, error) {
	return func(int, []kompact.Message) (kompact.Answer, error) {
		return kompact.Answer{Parts: []kompact.Part{kompact.TextPart(text)}, Usage: &kompact.Usage{InputOther: 100, Output: 20}}, nil
	}
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
