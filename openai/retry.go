package openai

// This file is the retry loop: one Complete call, its attempts and the
// waits between them.

import (
	"context"
	"fmt"
	"strconv"
	"time"

	sdk "github.com/openai/openai-go/v3"

	"kompact"
	"kompact/internal/backoff"
)

// request is one Complete call: its attempts and retries.
type request struct {
	client *Client
	sdk    *sdk.Client
	// body is encoded anew into each attempt's HTTP request, never held
	// whole, never seen by the SDK.
	body     *streamedBody
	key      string
	cfg      kompact.RequestConfig
	host     string
	progress func(kompact.Progress)
	timeout  time.Duration
	// maxAnswer caps the answer, in bytes.
	maxAnswer int64
	// try is the attempt in flight (or waited for), of maxTries.
	try, maxTries int
}

// report passes p on with the attempt it belongs to.
func (r *request) report(p kompact.Progress) {
	p.Attempt, p.MaxAttempts = r.try, r.maxTries
	r.progress(p)
}

func (r *request) run(ctx context.Context) (kompact.Answer, error) {
	maxAttempts := r.client.maxRetries() + 1
	r.maxTries = maxAttempts
	for attempt := 1; ; attempt++ {
		r.try = attempt
		if err := ctx.Err(); err != nil {
			return kompact.Answer{}, r.canceled(err)
		}
		answer, f := r.attempt(ctx)
		if f.lengthRequired() && r.body.count() {
			// The server reads only bodies with a Content-Length: it
			// gets one at once, and this does not count as a retry.
			answer, f = r.attempt(ctx)
		}
		if f == nil {
			return answer, nil
		}
		if f.kind == failCanceled {
			return kompact.Answer{}, r.canceled(f.err)
		}
		if !f.retryable() {
			return kompact.Answer{}, r.fail(f, "")
		}
		if attempt >= maxAttempts {
			return kompact.Answer{}, r.fail(f, "gave up after "+attempts(attempt))
		}
		d := r.delay(f, attempt)
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < d {
			return kompact.Answer{}, r.fail(f, fmt.Sprintf(
				"gave up after %s: the next retry, in %s, would come after the deadline", attempts(attempt), formatWait(d)))
		}
		r.try = attempt + 1
		r.report(kompact.Progress{Waiting: fmt.Sprintf("attempt %d of %d, retrying in %s: %s",
			attempt+1, maxAttempts, waitText(d), f.short()), RetryIn: d.Seconds()})
		if err := r.client.sleep(ctx, d); err != nil {
			return kompact.Answer{}, r.canceled(err)
		}
	}
}

// delay returns how long to wait before retry number n (from 1): the
// provider's Retry-After when it gave one, else the jittered backoff.
func (r *request) delay(f *failure, n int) time.Duration {
	return backoff.Delay(r.client.InitialBackoff, r.client.MaxBackoff, n, f.retryAfter, f.hasRetryAfter)
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
