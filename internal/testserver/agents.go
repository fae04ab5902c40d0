package testserver

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
