package kompact_test

import (
	"strings"
	"testing"

	"kompact"
)

// kimi-cli's estimate_text_tokens: text parts only, code points, divided by
// four once over all the messages.
func TestKCPD02EstimateTextTokens(t *testing.T) {
	three := msg(kompact.RoleUser, "", "abc")
	other := kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{
		kompact.ThinkPart(strings.Repeat("t", 400)),
		{Type: kompact.PartImage, URL: strings.Repeat("u", 400)},
		kompact.TextPart("日本語"),
	}, ToolCalls: []kompact.ToolCall{{ID: strings.Repeat("i", 400), Name: "f"}}}
	cases := []struct {
		msgs []kompact.Message
		want int
	}{
		{nil, 0},
		{[]kompact.Message{three}, 0},
		{[]kompact.Message{three, three}, 1}, // 6 // 4, not 0 + 0
		{[]kompact.Message{msg(kompact.RoleUser, "", "abcd")}, 1},
		{[]kompact.Message{msg(kompact.RoleUser, "", "abcdefg")}, 1},
		{[]kompact.Message{msg(kompact.RoleUser, "", "héllo", "😀😀😀")}, 2}, // 8 code points, not bytes or UTF-16 units
		{[]kompact.Message{other}, 0},                                     // only "日本語" counts
		{[]kompact.Message{other, msg(kompact.RoleUser, "", "x")}, 1},
	}
	for i, c := range cases {
		if got := kompact.EstimateTokens(c.msgs); got != c.want {
			t.Errorf("case %d: EstimateTokens = %d, want %d", i, got, c.want)
		}
	}
}

// kimi-cli's Context: appends add an estimate per call, update_token_count
// resets pending, a turn records usage.total, restore re-estimates once.
func TestKCPD02TokenAccount(t *testing.T) {
	three := []kompact.Message{msg(kompact.RoleUser, "", "abc")}
	a := kompact.TokenAccount{TokenCount: 1000}
	a = a.Append(three).Append(three)
	if a.PendingTokens != 0 || a.WithPending() != 1000 {
		t.Errorf("two appends of 3 code points: %+v", a)
	}
	b := kompact.TokenAccount{TokenCount: 1000}.Append(append(three, three...))
	if b.PendingTokens != 1 || b.WithPending() != 1001 {
		t.Errorf("one append of 6 code points: %+v", b)
	}
	c := b.AfterTurn(kompact.Usage{InputOther: 100, InputCacheRead: 20, InputCacheCreation: 5, Output: 30})
	if c != (kompact.TokenAccount{TokenCount: 155}) {
		t.Errorf("after a turn: %+v, want usage total 155 and no pending", c)
	}
	if d := c.Append(three).Update(777); d != (kompact.TokenAccount{TokenCount: 777}) {
		t.Errorf("after a compaction: %+v", d)
	}
	r := kompact.RestoreTokenAccount(500, append(three, three...))
	if r != (kompact.TokenAccount{TokenCount: 500, PendingTokens: 1}) {
		t.Errorf("restore: %+v", r)
	}
}
