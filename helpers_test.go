package kompact_test

// Helpers the root's tests share (the kimi, service and storeutil tests
// that used them too moved beside their code, issue 41 §1): messages and a
// scripted kompact.LLM.

import (
	"context"
	"sync"

	"kompact"
)

// msg builds a message: role, id and text parts.
func msg(role kompact.Role, id string, texts ...string) kompact.Message {
	m := kompact.Message{ID: id, Role: role, Content: []kompact.Part{}}
	for _, t := range texts {
		m.Content = append(m.Content, kompact.TextPart(t))
	}
	return m
}

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
