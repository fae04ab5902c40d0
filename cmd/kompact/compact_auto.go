package main

// kompact compact --auto and the context figures of a compaction: the
// session's token account as kimi-cli restores it, the model's context size,
// and kimi-cli's trigger (docs/compaction.md, "The context window").

import (
	"context"
	"encoding/json"
	"fmt"

	"kompact"
	"kompact/kimicli"
	"kompact/openai"
	"kompact/service"
)

// fileAccount is the token account of the input as kimi-cli restores a
// context: for a kimi-cli file, the last _usage record's figure and, as
// pending, the estimate of the messages after it; for a session file, which
// records no figure, the estimate of all its messages.
func fileAccount(in *compactInput) kompact.TokenAccount {
	if in.kctx == nil {
		return kompact.RestoreTokenAccount(0, in.sess.Messages)
	}
	last, after := 0, []kompact.Message(nil)
	for _, r := range in.kctx.Records {
		switch r.Kind {
		case kimicli.RecordUsage:
			last, after = int(r.TokenCount), nil
		case "message":
			after = append(after, r.Message)
		}
	}
	return kompact.RestoreTokenAccount(last, after)
}

// contextSize returns the context size of agent a's model, 0 when unknown:
// llm.max_context_size, else (with lookup) the provider's model list and,
// for a Kimi agent, KIMI_MODEL_MAX_CONTEXT_SIZE. A failed lookup is a
// warning and leaves the size unknown.
func (c *compactCommand) contextSize(ctx context.Context, a *kompact.Agent, lookup bool) int {
	if !lookup {
		return max(a.LLM.MaxContextSize, 0)
	}
	n, err := (&openai.Models{Getenv: c.getenv}).AgentContextSize(ctx, a)
	if err != nil {
		fmt.Fprintf(c.stderr, "warning: the context size of %s is unknown: %v\n", a.LLM.Model, err)
		return 0
	}
	return n
}

// autoStatus is the context status of the input for --auto and --json.
func (c *compactCommand) autoStatus(in *compactInput, size int) kompact.ContextStatus {
	return service.TypeFor(in.agent).ContextStatus(fileAccount(in), size, in.agent.Compaction.Auto)
}

// notDue reports a session that --auto leaves alone and returns exitNoop:
// the figures on stderr, or with --json an outcome of status "not_due" with
// them on stdout.
func (c *compactCommand) notDue(f *compactFlags, st kompact.ContextStatus) (int, error) {
	if f.asJSON {
		b, err := json.MarshalIndent(map[string]any{"status": "not_due", "reason": st.Reason, "context": st}, "", "  ")
		if err != nil {
			return exitError, err
		}
		if _, err := c.stdout.Write(append(b, '\n')); err != nil {
			return exitError, fmt.Errorf("write stdout: %w", err)
		}
		return exitNoop, nil
	}
	if st.MaxContextSize == 0 {
		fmt.Fprintf(c.stderr, "not compacted: %d tokens, and the model's context size is unknown (set llm.max_context_size)\n", st.TokenCount+st.PendingTokens)
		return exitNoop, nil
	}
	fmt.Fprintf(c.stderr, "not compacted: %d of %d tokens (%.1f%%), compaction is not due (%s)\n",
		st.TokenCount+st.PendingTokens, st.MaxContextSize, 100*st.UsageRatio, st.Reason)
	return exitNoop, nil
}
