package llmclient

import (
	"context"

	"kompact"
)

// Router is a kompact.LLM that sends each request to the client of its
// agent's llm.api (RequestConfig.API): By's, else Default. cmd/kompact
// wires which client serves which API.
type Router struct {
	By      map[string]kompact.LLM
	Default kompact.LLM
}

// Complete sends the request through the client of cfg's API.
func (r Router) Complete(ctx context.Context, cfg kompact.RequestConfig, msgs []kompact.Message, progress func(kompact.Progress)) (kompact.Answer, error) {
	if llm, ok := r.By[cfg.API]; ok {
		return llm.Complete(ctx, cfg, msgs, progress)
	}
	return r.Default.Complete(ctx, cfg, msgs, progress)
}
