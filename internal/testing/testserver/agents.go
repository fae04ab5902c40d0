package testserver

import (
	"fmt"
	"time"
)

// Agents is the agents file of the server tests, for a fake LLM whose URL
// fills both %s: "fake" compacts (model chat-model, compaction model
// compact-model), "off" has compaction disabled.
const Agents = `default_agent: fake
agents:
  fake:
    system_prompt: You are a test agent.
    llm:
      base_url: %s
      model: chat-model
      temperature: 0.5
    compaction:
      enabled: true
      type: kimi
      compaction_model: compact-model
  off:
    llm:
      base_url: %s
      model: off-model
`

// AutoAgents is the agents file of the automatic compaction tests (the
// Sessions service's and the HTTP API's), for a fake LLM whose URL fills
// both %s: "auto" has a 10000-token context and compacts by itself at half
// of it (5000 tokens) or with less than 1000 left; "manual" has an unknown
// context size (unless the provider's model list gives one for
// manual-model), so it compacts only when asked. Both compact with
// compact-model, keeping 2 messages.
const AutoAgents = `default_agent: auto
agents:
  auto:
    system_prompt: You are a test agent.
` + compactingLLM + `      settings_overrides: {max_tokens: 100000}
      auto:
        enabled: true
        trigger_ratio: 0.5
        reserved_context_size: 1000
  manual:
    llm:
      base_url: %s
      model: manual-model
    compaction:
      enabled: true
      type: kimi
      compaction_model: compact-model
      max_preserved_messages: 2
`

// compactingLLM is the llm and compaction blocks of the agents that compact
// by themselves (AutoAgents' "auto", GatewayAgents' "gw"), for a fake LLM
// whose URL fills the %s: chat-model with a 10000-token context, compacted
// with compact-model, keeping 2 messages.
const compactingLLM = `    llm:
      base_url: %s
      model: chat-model
      max_context_size: 10000
    compaction:
      enabled: true
      type: kimi
      compaction_model: compact-model
      max_preserved_messages: 2
`

// Gateway is what differs between the gateway tests' agents files.
type Gateway struct {
	// Auto turns automatic compaction on.
	Auto bool
	// Precompute is the gateway's precompute_ratio.
	Precompute float64
	// Timeout is compaction.timeout; 0 leaves it out (the default).
	Timeout time.Duration
}

// GatewayAgents is the agents file of the gateway tests for an upstream and
// compaction LLM at url: one agent, "gw" (compactingLLM), compacting by
// itself (when g.Auto) at half of its window or with less than 1000 tokens
// left, whose gateway precomputes at g.Precompute of the trigger.
func GatewayAgents(url string, g Gateway) string {
	doc := "default_agent: gw\nagents:\n  gw:\n" + fmt.Sprintf(compactingLLM, url)
	if g.Timeout != 0 {
		doc += fmt.Sprintf("      timeout: %s\n", g.Timeout)
	}
	return doc + fmt.Sprintf("      auto: {enabled: %v, trigger_ratio: 0.5, reserved_context_size: 1000}\n"+
		"    gateway: {enabled: true, precompute_ratio: %v}\n", g.Auto, g.Precompute)
}
