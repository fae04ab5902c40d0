package backoff

import (
	"context"
	"testing"
	"time"
)

// TestDelay: Retry-After wins and is capped; the backoff doubles up to its
// cap and is jittered within [0, backoff].
func TestDelay(t *testing.T) {
	if d := Delay(0, 0, 1, 7*time.Second, true); d != 7*time.Second {
		t.Errorf("Retry-After 7s: %v", d)
	}
	if d := Delay(0, 0, 1, time.Hour, true); d != MaxRetryAfter {
		t.Errorf("Retry-After 1h: %v, want the cap %v", d, MaxRetryAfter)
	}
	if d := Delay(0, 0, 1, -time.Second, true); d != 0 {
		t.Errorf("a negative Retry-After: %v", d)
	}
	for n, limit := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 10: DefaultMax} {
		for range 50 {
			if d := Delay(0, 0, n, 0, false); d < 0 || d > limit {
				t.Fatalf("retry %d: %v, want within [0, %v]", n, d, limit)
			}
		}
	}
}

// TestSleep: an injected wait is used; a done context ends the wait.
func TestSleep(t *testing.T) {
	var got time.Duration
	if err := Sleep(context.Background(), time.Hour, func(_ context.Context, d time.Duration) error { got = d; return nil }); err != nil || got != time.Hour {
		t.Errorf("injected: %v %v", got, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, time.Hour, nil); err != context.Canceled {
		t.Errorf("done context: %v", err)
	}
}
