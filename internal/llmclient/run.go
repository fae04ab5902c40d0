package llmclient

// This file is the attempt loop both clients run: an attempt, the
// provider's classification of its failure, the wait, the next attempt.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"kompact"
	"kompact/internal/backoff"
)

// Failure is a failed attempt as the provider's classifier reads it.
type Failure interface {
	// Retry says whether another attempt may succeed.
	Retry() bool
	// RetryAfter is the provider's Retry-After, when it gave one.
	RetryAfter() (time.Duration, bool)
	// Short says in a few words what went wrong, for the progress report.
	Short() string
}

// Call is one request as Run sends it: the provider's parts.
type Call struct {
	// Host is the LLM's host, for the errors Run words itself.
	Host string
	// Attempt sends the request once; report passes progress on, with the
	// attempt it belongs to. A nil Failure is a success.
	Attempt func(ctx context.Context, report func(kompact.Progress)) (kompact.Answer, Failure)
	// Fail is the error Run returns for f; gaveUp, when not empty, says why
	// there is no further attempt.
	Fail func(f Failure, gaveUp string) error
}

// Run sends c's request until an attempt succeeds, a failure is not worth
// retrying, the attempts (Settings.Tries) run out, the next wait would end
// past ctx's deadline, or ctx is done. It waits between attempts as
// backoff.Delay says, and reports each wait to progress (nil: none).
func Run(ctx context.Context, s *Settings, c Call, progress func(kompact.Progress)) (kompact.Answer, error) {
	if progress == nil {
		progress = func(kompact.Progress) {}
	}
	tries := s.Tries()
	for n := 1; ; n++ {
		report := func(p kompact.Progress) { p.Attempt, p.MaxAttempts = n, tries; progress(p) }
		if err := ctx.Err(); err != nil {
			return kompact.Answer{}, canceled(c.Host, err)
		}
		answer, f := c.Attempt(ctx, report)
		if f == nil {
			return answer, nil
		}
		if err := ctx.Err(); err != nil {
			return kompact.Answer{}, canceled(c.Host, err)
		}
		if !f.Retry() {
			return kompact.Answer{}, c.Fail(f, "")
		}
		if n >= tries {
			return kompact.Answer{}, c.Fail(f, "gave up after "+attempts(n))
		}
		after, has := f.RetryAfter()
		d := backoff.Delay(s.InitialBackoff, s.MaxBackoff, n, after, has)
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < d {
			return kompact.Answer{}, c.Fail(f, fmt.Sprintf(
				"gave up after %s: the next retry, in %s, would come after the deadline", attempts(n), formatWait(d)))
		}
		progress(kompact.Progress{Attempt: n + 1, MaxAttempts: tries, RetryIn: d.Seconds(),
			Waiting: fmt.Sprintf("attempt %d of %d, retrying in %s: %s", n+1, tries, waitText(d), f.Short())})
		if err := backoff.Sleep(ctx, d, s.Sleep); err != nil {
			return kompact.Answer{}, canceled(c.Host, err)
		}
	}
}

// RetryStatus says whether an HTTP error answer is worth another attempt:
// a timeout (408), a rate limit (429), a server error (5xx, Anthropic's 529
// overload among them).
func RetryStatus(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code >= 500
}

// RetryAfter reads retry-after-ms (milliseconds) or Retry-After (seconds or
// an HTTP date) from an error answer's header; a negative or absurd value
// is no Retry-After.
func RetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 || s > 1e9 {
			return 0, false
		}
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// canceled is the error for a done context.
func canceled(host string, err error) error {
	what := "cancelled"
	if errors.Is(err, context.DeadlineExceeded) {
		what = "stopped: its deadline passed"
	}
	return (&kompact.Error{Code: kompact.ELLM, Message: fmt.Sprintf("the LLM request to %s was %s", host, what), Err: err}).
		WithFixes("Run the compaction again when you are ready.")
}

// attempts says "1 attempt", "2 attempts", ...
func attempts(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return strconv.Itoa(n) + " attempts"
}

// waitText renders a wait for people: "4 s", "1.5 s", "250 ms".
func waitText(d time.Duration) string {
	if d >= time.Second {
		return strconv.FormatFloat(d.Round(100*time.Millisecond).Seconds(), 'f', -1, 64) + " s"
	}
	return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
}

// formatWait renders a wait for an error message.
func formatWait(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(100 * time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(time.Millisecond).String()
	}
	return d.String()
}
