package kompact

import (
	"errors"
	"time"
)

// This file holds the bounds of one LLM call: how large its answer may be and how long a reply
// may take.

// DefaultMaxAnswerBytes is the answer cap of one LLM call when llm.max_answer_bytes is not set:
// far above any real summary or reply.
const DefaultMaxAnswerBytes = 4 << 20

// DefaultReplyTimeout is the overall deadline of one reply's LLM call (a continue turn) when
// llm.timeout is not set.
const DefaultReplyTimeout = 10 * time.Minute

// ErrAnswerTooLarge is wrapped by the ELLM error of a call whose answer went past its cap
// (RequestConfig.MaxAnswerBytes): the call was stopped at once, not retried, and nothing was
// written.
var ErrAnswerTooLarge = errors.New("the LLM's answer exceeds llm.max_answer_bytes")

// AnswerLimit returns the configured llm.max_answer_bytes, or the default.
func (l *LLMConfig) AnswerLimit() int64 { return AnswerLimit(l.MaxAnswerBytes) }

// ReplyTimeout returns the configured llm.timeout, or the default.
func (l *LLMConfig) ReplyTimeout() time.Duration {
	if l.Timeout <= 0 {
		return DefaultReplyTimeout
	}
	return l.Timeout
}

// AnswerLimit returns n, or DefaultMaxAnswerBytes when n is 0 or less.
func AnswerLimit(n int64) int64 {
	if n <= 0 {
		return DefaultMaxAnswerBytes
	}
	return n
}
