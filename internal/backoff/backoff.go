// Package backoff is the retry policy kompact's LLM clients (openai,
// anthropic) share: their defaults, the wait before a retry (the provider's
// Retry-After, else exponential backoff with full jitter) and the wait itself.
package backoff

import (
	"context"
	"math/rand/v2"
	"time"
)

// The clients' defaults.
const (
	DefaultMaxRetries     = 4
	DefaultInitial        = time.Second
	DefaultMax            = 30 * time.Second
	DefaultRequestTimeout = 10 * time.Minute
	// MaxRetryAfter caps a provider's Retry-After (when above the backoff's cap).
	MaxRetryAfter = 5 * time.Minute
)

// Or returns d, or def when d is not positive (a setting left at 0).
func Or(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Delay is the wait before retry n (from 1): the provider's Retry-After when
// it gave one (hasAfter), capped at max(maxBackoff, MaxRetryAfter); else the
// backoff from initial, doubled per retry up to maxBackoff, drawn uniformly
// from [0, backoff] (full jitter). initial and maxBackoff of 0 take the
// defaults.
func Delay(initial, maxBackoff time.Duration, n int, retryAfter time.Duration, hasAfter bool) time.Duration {
	maxBackoff = Or(maxBackoff, DefaultMax)
	if hasAfter {
		return min(max(retryAfter, 0), max(maxBackoff, MaxRetryAfter))
	}
	b := Or(initial, DefaultInitial)
	for i := 1; i < n && b < maxBackoff; i++ {
		b *= 2
	}
	return rand.N(min(b, maxBackoff) + 1)
}

// Sleep waits d, returning early with ctx's error when ctx is done; a
// non-nil with waits instead (tests inject a recorder).
func Sleep(ctx context.Context, d time.Duration, with func(context.Context, time.Duration) error) error {
	if with != nil {
		return with(ctx, d)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
