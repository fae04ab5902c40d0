package kimi_test

import (
	"testing"

	"kompact"
	"kompact/internal/testing/testllm"
	"kompact/kimi"
	"kompact/service"
)

// TestCompletionLimit: a compaction request carries kimi-cli's completion
// budget when the context size is known: max_completion_tokens for a Kimi
// agent (a configured max_completion_tokens, else max_tokens, caps it;
// null sends nothing), max_tokens for another agent only when configured.
func TestCompletionLimit(t *testing.T) {
	moonshot := testllm.Agent()
	moonshot.LLM.BaseURL = "https://api.moonshot.ai/v1"
	moonshot.SystemPrompt = "You are a coding agent working in the user's repository."
	other := testllm.Agent()
	c := &service.Compactor{}
	job := func(a *kompact.Agent, fields map[string]any) *service.Job {
		b := *a
		b.LLM.Settings = fields
		j, err := c.NewJob(&b, conversation(), kompact.ActionRequest{Action: kompact.ActionCompactConversation})
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	j := job(moonshot, nil)
	request, next := kimi.CompactionInputEstimates(j.Plan.(*kimi.Plan), moonshot.SystemPrompt, nil)
	input := max(request, next) + kimi.CompletionSafetyMargin
	if request <= 0 || next <= 0 {
		t.Fatalf("estimates %d, %d", request, next)
	}
	for _, tc := range []struct {
		name      string
		agent     *kompact.Agent
		fields    map[string]any
		size      int
		field     string
		want      int
		wantFound bool
	}{
		{"kimi, room left", moonshot, nil, 262144, "max_completion_tokens", 262144 - input, true},
		{"kimi, barely any room", moonshot, nil, input + 5, "max_completion_tokens", 5, true},
		{"kimi, no room", moonshot, nil, input - 100, "max_completion_tokens", 1, true},
		{"kimi, configured max_completion_tokens caps", moonshot, map[string]any{"max_completion_tokens": int64(4096)}, 262144, "max_completion_tokens", 4096, true},
		{"kimi, configured max_tokens caps", moonshot, map[string]any{"max_tokens": int64(2048)}, 262144, "max_completion_tokens", 2048, true},
		{"kimi, max_completion_tokens null", moonshot, map[string]any{"max_completion_tokens": nil}, 262144, "", 0, false},
		{"kimi, unknown size", moonshot, nil, 0, "", 0, false},
		{"other, no max_tokens", other, nil, 262144, "", 0, false},
		{"other, max_tokens caps", other, map[string]any{"max_tokens": int64(1000)}, 262144, "max_tokens", 1000, true},
		{"other, max_tokens above the room", other, map[string]any{"max_tokens": int64(1 << 20)}, input + 50, "max_tokens", 50, true},
	} {
		j := job(tc.agent, tc.fields)
		a := *tc.agent
		a.LLM.Settings = tc.fields
		field, got, ok := kimi.CompletionLimit(&a, j.Plan.(*kimi.Plan), j.Config.Fields, tc.size)
		if ok != tc.wantFound || field != tc.field || got != tc.want {
			t.Errorf("%s: %q = %d (%v), want %q = %d (%v)", tc.name, field, got, ok, tc.field, tc.want, tc.wantFound)
		}
		if n := j.LimitCompletion(&a, tc.size); n != tc.want || (ok && j.Config.Fields[tc.field] != tc.want) {
			t.Errorf("%s: LimitCompletion %d, fields %v", tc.name, n, j.Config.Fields)
		}
	}
}
