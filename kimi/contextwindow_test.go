package kimi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"kompact"
	"kompact/kimi"
)

// The boundary cases of kimi-cli's should_auto_compact
// (src/kimi_cli/soul/compaction.py), evaluated as Python evaluates them.
func TestKCPD01ShouldAutoCompact(t *testing.T) {
	cases := []struct {
		name             string
		tokens, max      int
		ratio            float64
		reserved         int
		want             bool
		ratioCondition   bool // tokens >= max*ratio
		reserveCondition bool // tokens+reserved >= max
	}{
		// kimi-cli's defaults on a 100k window: the reserve fires first, at 50000.
		{"100k reserve one below", 49999, 100000, 0.85, 50000, false, false, false},
		{"100k reserve equal", 50000, 100000, 0.85, 50000, true, false, true},
		{"100k ratio equal", 85000, 100000, 0.85, 50000, true, true, true},
		// Moonshot's 262144 window: reserve at 212144, ratio at 222822.4.
		{"256k reserve one below", 212143, 262144, 0.85, 50000, false, false, false},
		{"256k reserve equal", 212144, 262144, 0.85, 50000, true, false, true},
		{"256k below fractional ratio", 222822, 262144, 0.85, 50000, true, false, true},
		{"256k above fractional ratio", 222823, 262144, 0.85, 50000, true, true, true},
		// A 1M window: the ratio fires first, at 850000.
		{"1M ratio one below", 849999, 1000000, 0.85, 50000, false, false, false},
		{"1M ratio equal", 850000, 1000000, 0.85, 50000, true, true, false},
		{"1M reserve equal", 950000, 1000000, 0.85, 50000, true, true, true},
		// The smallest reserve kimi-cli allows, so the ratio decides alone.
		{"ratio one below, small reserve", 84999, 100000, 0.85, 1000, false, false, false},
		{"ratio equal, small reserve", 85000, 100000, 0.85, 1000, true, true, false},
		{"reserve equal, small reserve", 99000, 100000, 0.85, 1000, true, true, true},
		// The ratio bounds.
		{"ratio 0.5 one below", 49999, 100000, 0.5, 1000, false, false, false},
		{"ratio 0.5 equal", 50000, 100000, 0.5, 1000, true, true, false},
		{"ratio 0.99 one below", 98999, 100000, 0.99, 1000, false, false, false},
		{"ratio 0.99 and reserve meet", 99000, 100000, 0.99, 1000, true, true, true},
		// Floating point as Python computes it: 100*0.55 is 55.00000000000001
		// and 100*0.57 is 56.99999999999999 (a reserve of 0 isolates the ratio).
		{"float product above the integer", 55, 100, 0.55, 0, false, false, false},
		{"float product above, next", 56, 100, 0.55, 0, true, true, false},
		{"float product below the integer", 57, 100, 0.57, 0, true, true, false},
		{"float product below, previous", 56, 100, 0.57, 0, false, false, false},
		// kimi-cli's function itself is always true for a size of 0; kompact
		// never calls it then (see TestKCPD01ContextStatus).
		{"kimi-cli with size 0", 0, 0, 0.85, 50000, true, true, true},
	}
	for _, c := range cases {
		got := kimi.ShouldAutoCompact(c.tokens, c.max, c.ratio, c.reserved)
		if got != c.want {
			t.Errorf("%s: ShouldAutoCompact(%d, %d, %v, %d) = %v, want %v", c.name, c.tokens, c.max, c.ratio, c.reserved, got, c.want)
		}
		if c.want != (c.ratioCondition || c.reserveCondition) {
			t.Errorf("%s: the table contradicts itself", c.name)
		}
		if c.max <= 0 || c.reserved == 0 {
			continue // the float cases isolate the ratio with a reserve kompact refuses
		}
		st := kimi.NewContextStatus(kompact.TokenAccount{TokenCount: c.tokens}, c.max,
			kompact.AutoCompaction{TriggerRatio: c.ratio, ReservedContextSize: c.reserved})
		if want := reasonOf(c.ratioCondition, c.reserveCondition); st.ShouldCompact != c.want || st.Reason != want {
			t.Errorf("%s: status = %v %q, want %v %q", c.name, st.ShouldCompact, st.Reason, c.want, want)
		}
	}
}

func reasonOf(ratio, reserve bool) string {
	switch {
	case ratio && reserve:
		return kompact.ReasonBoth
	case ratio:
		return kompact.ReasonTriggerRatio
	case reserve:
		return kompact.ReasonReservedContext
	}
	return kompact.ReasonBelowThreshold
}

// The status counts pending tokens, never compacts an unknown window, and
// writes the figures the context route answers with.
func TestKCPD01ContextStatus(t *testing.T) {
	auto := kompact.DefaultAutoCompaction(true)
	st := kimi.NewContextStatus(kompact.TokenAccount{TokenCount: 40000, PendingTokens: 9999}, 100000, auto)
	if st.ShouldCompact || st.Reason != kompact.ReasonBelowThreshold || st.UsageRatio != 0.49999 {
		t.Errorf("49999 of 100000: %+v", st)
	}
	st = kimi.NewContextStatus(kompact.TokenAccount{TokenCount: 40000, PendingTokens: 10000}, 100000, auto)
	if !st.ShouldCompact || st.Reason != kompact.ReasonReservedContext {
		t.Errorf("pending tokens must count: %+v", st)
	}
	st = kimi.NewContextStatus(kompact.TokenAccount{TokenCount: 90000, PendingTokens: 5000}, 0, auto)
	want := kompact.ContextStatus{TokenCount: 90000, PendingTokens: 5000, Reason: kompact.ReasonUnknownContextSize}
	if st != want {
		t.Errorf("unknown size: %+v, want %+v", st, want)
	}
	st = kimi.NewContextStatus(kompact.TokenAccount{TokenCount: 90000, PendingTokens: 5000}, -1, auto)
	if st.ShouldCompact || st.Reason != kompact.ReasonUnknownContextSize || st.MaxContextSize != 0 {
		t.Errorf("negative size: %+v", st)
	}
	// Zero thresholds mean kimi-cli's defaults.
	st = kimi.NewContextStatus(kompact.TokenAccount{TokenCount: 80000, PendingTokens: 5000}, 100000, kompact.AutoCompaction{})
	b, _ := json.Marshal(st)
	wantJSON := `{"token_count":80000,"pending_tokens":5000,"max_context_size":100000,"usage_ratio":0.85,"should_compact":true,"reason":"trigger_ratio_and_reserved_context_size"}`
	if string(b) != wantJSON {
		t.Errorf("JSON:\n got %s\nwant %s", b, wantJSON)
	}
}

// kimi-cli's compute_max_completion_tokens (src/kimi_cli/llm.py).
func TestComputeMaxCompletionTokens(t *testing.T) {
	p := func(n int) *int { return &n }
	cases := []struct {
		max, input int
		budget     *int
		fallback   int
		want       int
	}{
		{128000, 10000, p(4000), 32000, 4000},    // the budget fits
		{1000, 900, p(4000), 32000, 100},         // the room left caps it
		{1000, 900, nil, 32000, 100},             // no budget: the window
		{1000, 0, nil, 32000, 1000},              // an empty request may use the whole window
		{1000, -50, nil, 32000, 1000},            // a negative input counts as 0
		{1000, 999, nil, 32000, 1},               // one token left
		{1000, 1000, nil, 32000, 1},              // none left: at least 1
		{1000, 5000, p(4000), 32000, 1},          // over the window: at least 1
		{1000, 10, p(0), 32000, 1},               // a budget of 0: at least 1
		{0, 999999, nil, 50000, 50000},           // unknown size: the fallback
		{0, 999999, p(1234), 50000, 1234},        // unknown size: the budget
		{-1, 0, p(-5), 50000, 1},                 // at least 1
		{0, 0, nil, 0, 1},                        // at least 1
		{262144, 3, nil, 32000, 262141},          // whole window minus input
		{262144, 3 + 1024, nil, 32000, 261117},   // kimi-cli: 262144 - request - margin
		{100000, 61024, nil, 32000, 38976},       // kimi-cli: token count 60000 + margin
		{8192, 8024, p(50000), 32000, 168},       // kimi-cli: 7000 + margin, budget clamped
		{100000, 1024 + 3, p(1234), 32000, 1234}, // kimi-cli: explicit cap kept
	}
	for _, c := range cases {
		if got := kimi.ComputeMaxCompletionTokens(c.max, c.input, c.budget, c.fallback); got != c.want {
			t.Errorf("ComputeMaxCompletionTokens(%d, %d, %v, %d) = %d, want %d", c.max, c.input, c.budget, c.fallback, got, c.want)
		}
	}
}

// The budget of a compaction request: the larger estimate plus the margin
// when the size is known; reserved_context_size when it is not.
func TestCompactionCompletionTokens(t *testing.T) {
	p := func(n int) *int { return &n }
	cases := []struct {
		max, request, next int
		budget             *int
		want               int
	}{
		{100000, 3, 60000, nil, 38976},
		{100000, 60000, 3, nil, 38976},
		{100000, 3, 0, p(1234), 1234},
		{8192, 7000, 10, p(50000), 168},
		{10000, 8974, 0, nil, 2}, // 10000 - 8974 - 1024
		{10000, 8975, 0, nil, 1}, // 10000 - 9999
		{10000, 8976, 0, nil, 1}, // no room left: at least 1
		{0, 5000, 6000, nil, 50000},
		{0, 5000, 6000, p(1234), 1234},
	}
	for _, c := range cases {
		if got := kimi.CompactionCompletionTokens(c.max, c.request, c.next, c.budget, 50000); got != c.want {
			t.Errorf("CompactionCompletionTokens(%d, %d, %d, %v) = %d, want %d", c.max, c.request, c.next, c.budget, got, c.want)
		}
	}
}

// kimi-cli's _estimate_text_tokens and estimate_request_tokens.
func TestEstimateRequestTokens(t *testing.T) {
	for s, want := range map[string]int{"": 0, "a": 1, "abcd": 1, "abcde": 2, "héllo": 2, "日本語": 3, "😀": 1, "ab😀": 2, "Test prompt.": 3} {
		if got := kimi.EstimateStringTokens(s); got != want {
			t.Errorf("EstimateStringTokens(%q) = %d, want %d", s, got, want)
		}
	}
	extras := []byte(`{"x":"é"}`)
	msgs := []kompact.Message{
		{Role: kompact.RoleAssistant, Name: "alice", Content: []kompact.Part{
			kompact.TextPart("abcd"), kompact.ThinkPart("héllo"),
			{Type: kompact.PartImage, URL: strings.Repeat("u", 4000)},
			{Type: kompact.PartData, Data: []byte(`{"k":1}`)},
		}, ToolCalls: []kompact.ToolCall{{ID: "call_1", Name: "lookup", Extras: extras}}},
		{Role: kompact.RoleTool, ToolCallID: "call_1", HasToolCallID: true, Content: []kompact.Part{kompact.TextPart("日本語")}},
	}
	tools := []kimi.ToolSpec{{Name: "lookup", Description: "Look up", Parameters: []byte(`{"type":"object"}`)}}
	// 3 (prompt) + 2+2+5 (tool) + 3+2+1+2+2000+8+2+2+0+3 (assistant) + 1+2+3 (tool message)
	if got := kimi.EstimateRequestTokens("Test prompt.", tools, msgs); got != 2041 {
		t.Errorf("EstimateRequestTokens = %d, want 2041", got)
	}
	if got := kimi.EstimateRequestTokens("Test prompt.", nil, nil); got != 3 {
		t.Errorf("an empty request = %d, want 3", got)
	}
}

// kimi-cli's test_compaction_budget_reserves_next_main_request_overhead: the
// session's next request outweighs the compaction request, and the limit
// leaves room for it.
func TestCompactionBudgetReservesNextRequest(t *testing.T) {
	s := sess(
		msg(kompact.RoleUser, "", strings.Repeat("old context ", 500)),
		msg(kompact.RoleAssistant, "", strings.Repeat("old response ", 500)),
		msg(kompact.RoleUser, "", strings.Repeat("preserved question ", 300)),
		msg(kompact.RoleAssistant, "", strings.Repeat("preserved answer ", 300)),
	)
	plan, err := kimi.Prepare(s, kimi.Options{MaxPreserved: kompact.DefaultMaxPreserved})
	if err != nil || plan.Noop {
		t.Fatalf("Prepare: %v %+v", err, plan)
	}
	request, next := kimi.CompactionInputEstimates(plan, strings.Repeat("large system prompt ", 300), nil)
	// 1500 (system prompt) + 1+21 (placeholder) + 1+1425 + 3+1275 (preserved)
	if next != 4226 || request >= next {
		t.Fatalf("estimates: request %d, next %d; want next 4226 above request", request, next)
	}
	limit := kimi.CompactionCompletionTokens(8192, request, next, nil, kompact.DefaultReservedContextSize)
	if limit != 2942 || next+kimi.CompletionSafetyMargin+limit > 8192 {
		t.Fatalf("limit %d, want 2942", limit)
	}
	noop, _ := kimi.Prepare(sess(msg(kompact.RoleUser, "", "abcd")), kimi.Options{MaxPreserved: 2})
	if r, n := kimi.CompactionInputEstimates(noop, "", nil); r != 0 || n != 2 {
		t.Fatalf("no-op: %d %d, want 0 2", r, n)
	}
}

// TestIsKimi: KIMI_MODEL_MAX_CONTEXT_SIZE and max_completion_tokens apply to
// agents on Moonshot's hosts only.
func TestIsKimi(t *testing.T) {
	for url, want := range map[string]bool{
		"https://api.moonshot.ai/v1":       true,
		"https://api.moonshot.cn/v1":       true,
		"https://api.kimi.com/coding/v1":   true,
		"https://API.Moonshot.AI:443/v1":   true,
		"https://moonshot.ai.evil.test/v1": false,
		"https://notmoonshot.ai/v1":        false,
		"http://127.0.0.1:11434/v1":        false,
		"https://api.openai.com/v1":        false,
	} {
		l := kompact.LLMConfig{BaseURL: url}
		if got := l.IsKimi(); got != want {
			t.Errorf("IsKimi(%s) = %v, want %v", url, got, want)
		}
	}
}
