package anthropic

// This file is kompact's own Messages client (a compaction's call, a
// continue's): kompact.LLM over the Messages API's wire form, with the
// retries, deadlines and answer cap of openai.Client.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"

	"kompact"
	"kompact/internal/llmclient"
)

// Version is the anthropic-version header of kompact's own requests.
const Version = "2023-06-01"

// Client sends kompact's own requests to a Messages API and implements
// kompact.LLM. The zero value is ready to use. Every request streams.
// Rate limits (429), overload (529), server errors (5xx), timeouts (408),
// connection failures, streams that break off or carry an error event,
// and attempts past RequestTimeout are retried with exponential backoff
// and full jitter, honouring Retry-After; a "prompt is too long" answer is
// returned at once wrapping kompact.ErrContextTooLong; an answer past
// RequestConfig.MaxAnswerBytes stops the call at once with an ELLM error
// wrapping kompact.ErrAnswerTooLarge. The key (x-api-key) never appears in
// an error.
//
// Its settings are llmclient.Settings' (openai.Client's) and its attempts
// run llmclient.Run's loop with failure.go's classifier.
type Client llmclient.Settings

var _ kompact.LLM = (*Client)(nil)

// Complete sends msgs as a streamed Messages request (requestBody) and
// returns the answer: its thinking and text as parts, its tool_use blocks
// as tool calls, its usage.
func (c *Client) Complete(ctx context.Context, cfg kompact.RequestConfig, msgs []kompact.Message, progress func(kompact.Progress)) (kompact.Answer, error) {
	base, key, err := (*llmclient.Settings)(c).Target(cfg, baseURL)
	if err != nil {
		return kompact.Answer{}, err
	}
	body, err := requestBody(cfg, msgs)
	if err != nil {
		return kompact.Answer{}, kompact.Errorf(kompact.EInvalid, "the request does not encode: %v", err)
	}
	url := endpoint(base, "messages").String()
	return llmclient.Run(ctx, (*llmclient.Settings)(c), llmclient.Call{
		Host: base.Host,
		Attempt: func(ctx context.Context, report func(kompact.Progress)) (kompact.Answer, llmclient.Failure) {
			ans, f := c.attempt(ctx, url, key, body, kompact.AnswerLimit(cfg.MaxAnswerBytes), report)
			if f == nil {
				return ans, nil
			}
			return ans, f
		},
		Fail: func(f llmclient.Failure, gaveUp string) error { return withGaveUp(f.(*failure).err, gaveUp) },
	}, progress)
}

// attempt sends the request once, within RequestTimeout, and reads its
// stream.
func (c *Client) attempt(ctx context.Context, url, key string, body []byte, maxAnswer int64, report func(kompact.Progress)) (kompact.Answer, *failure) {
	ctx, cancel := context.WithTimeout(ctx, (*llmclient.Settings)(c).Timeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return kompact.Answer{}, &failure{err: kompact.Errorf(kompact.EInvalid, "the request cannot be made: %s", errorText(err))}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Anthropic-Version", Version)
	if key != "" {
		req.Header.Set("X-Api-Key", key)
	}
	resp, err := sameHostClient((*llmclient.Settings)(c).HTTP()).Do(req)
	if err != nil {
		return kompact.Answer{}, &failure{err: &kompact.Error{Code: kompact.ELLM, Message: fmt.Sprintf("the LLM at %s could not be reached: %s", req.URL.Host, errorText(err)), Err: err}, retry: true}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return kompact.Answer{}, statusFailure(resp, req.URL.Host)
	}
	sr := streamReader{maxAnswer: maxAnswer, report: report}
	if err := sr.read(resp.Body); err != nil {
		return kompact.Answer{}, &failure{err: wrapLLM(err, req.URL.Host), retry: !errors.Is(err, kompact.ErrAnswerTooLarge)}
	}
	return sr.answer(), nil
}
