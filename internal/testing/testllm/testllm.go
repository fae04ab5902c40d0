// Package testllm is test support: a scripted kompact.LLM in process (no HTTP), the agents the
// tests of kimi, service and fidelity hand it, and the real OpenAI client set up for the fake
// server internal/testing/fakellm. Written once: the test move of issue 41 §1 had copied them into
// three packages.
package testllm

import (
	"context"
	"sync"
	"time"

	"kompact"
	"kompact/openai"
)

// LLM is a hand-written kompact.LLM: it records requests and answers from a script.
type LLM struct {
	mu sync.Mutex
	// Requests and Configs are what each call was given, in order.
	Requests [][]kompact.Message
	Configs  []kompact.RequestConfig
	// Answer answers the n-th call (from 1).
	Answer func(n int, msgs []kompact.Message) (kompact.Answer, error)
}

// Complete records the request, reports one progress event of 7 characters and answers with
// Answer.
func (f *LLM) Complete(_ context.Context, cfg kompact.RequestConfig, msgs []kompact.Message, progress func(kompact.Progress)) (kompact.Answer, error) {
	f.mu.Lock()
	f.Requests = append(f.Requests, msgs)
	f.Configs = append(f.Configs, cfg)
	n := len(f.Requests)
	f.mu.Unlock()
	if progress != nil {
		progress(kompact.Progress{Chars: 7})
	}
	return f.Answer(n, msgs)
}

// Reply is a script that answers every call with text (100 input tokens, 20 output).
func Reply(text string) func(int, []kompact.Message) (kompact.Answer, error) {
	return func(int, []kompact.Message) (kompact.Answer, error) {
		return kompact.Answer{Parts: []kompact.Part{kompact.TextPart(text)}, Usage: &kompact.Usage{InputOther: 100, Output: 20}}, nil
	}
}

// Agent is an agent "kimi" whose compaction is on with the type "kimi", its LLM at a placeholder
// address (an LLM value answers in its stead).
func Agent() *kompact.Agent {
	return &kompact.Agent{
		Name: "kimi",
		LLM:  kompact.LLMConfig{BaseURL: "http://x/v1", Model: "chat-model", APIKeyEnv: "K"},
		Compaction: kompact.CompactionConfig{
			Enabled: true, Type: "kimi",
		},
	}
}

// HTTPAgent is an agent "kimi" of the default compaction type whose LLM is the server at baseURL
// (a fakellm.Server's URL), model "kimi-k2".
func HTTPAgent(baseURL string) *kompact.Agent {
	return &kompact.Agent{
		Name: "kimi",
		LLM:  kompact.LLMConfig{BaseURL: baseURL, Model: "kimi-k2", APIKeyEnv: "E2E_KEY"},
		Compaction: kompact.CompactionConfig{
			Enabled: true, Type: kompact.DefaultCompactionType,
		},
	}
}

// Client is the real OpenAI client with a fixed API key that sleeps not at all between attempts:
// for HTTPAgent's server.
func Client() *openai.Client {
	return &openai.Client{
		Getenv: func(string) string { return "sk-e2e" },
		Sleep:  func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
	}
}
