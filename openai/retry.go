package openai

// This file is one Complete call: its attempts, run by llmclient's loop.

import (
	"context"
	"time"

	sdk "github.com/openai/openai-go/v3"

	"kompact"
	"kompact/internal/llmclient"
)

// request is one Complete call: its attempts and retries.
type request struct {
	settings *llmclient.Settings
	sdk      *sdk.Client
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
}

// run sends the request with llmclient's attempt loop.
func (r *request) run(ctx context.Context) (kompact.Answer, error) {
	return llmclient.Run(ctx, r.settings, llmclient.Call{
		Host: r.host,
		Attempt: func(ctx context.Context, report func(kompact.Progress)) (kompact.Answer, llmclient.Failure) {
			answer, f := r.attempt(ctx, report)
			if f.lengthRequired() && r.body.count() {
				// The server reads only bodies with a Content-Length: it
				// gets one at once, and this does not count as a retry.
				answer, f = r.attempt(ctx, report)
			}
			if f == nil {
				return answer, nil
			}
			return answer, f
		},
		Fail: func(f llmclient.Failure, gaveUp string) error { return r.fail(f.(*failure), gaveUp) },
	}, r.progress)
}
