package main

import (
	"kompact"
	"kompact/anthropic"
	"kompact/internal/llmclient"
	"kompact/openai"
)

// ownLLM is the client of kompact's own LLM calls (a compaction's, a
// continue's): an agent with llm.api: anthropic is sent through
// anthropic.Client, every other through openai.Client.
func ownLLM(getenv func(string) string) kompact.LLM {
	return llmclient.Router{
		By:      map[string]kompact.LLM{anthropic.API: &anthropic.Client{Getenv: getenv}},
		Default: &openai.Client{Getenv: getenv},
	}
}
