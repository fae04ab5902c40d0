package openai

// This file is an attempt's stream state: it turns chunks (or a
// non-streamed completion) into the accumulator's calls and reports
// progress.

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/respjson"

	"kompact"
)

// streamState turns chunks into the accumulator's calls.
type streamState struct {
	acc      *Accumulator
	progress func(kompact.Progress)
	// maxBytes caps acc.Bytes: the answer cap.
	maxBytes int64
	finished bool
	// chunks counts the chunks received.
	chunks int
	// topUsage says whether the chunk-level usage was seen; it takes
	// precedence over Moonshot's choice-level usage.
	topUsage   bool
	lastChars  int
	lastReport time.Time
	// delta is the answer text received since the last report.
	delta strings.Builder
}

// progressInterval throttles progress reports while the answer streams.
const progressInterval = 100 * time.Millisecond

// report sends the character count, at most every progressInterval unless
// final.
func (st *streamState) report(final bool) {
	now := time.Now()
	if !final && (st.acc.Chars == st.lastChars || now.Sub(st.lastReport) < progressInterval) {
		return
	}
	st.lastChars, st.lastReport = st.acc.Chars, now
	st.progress(kompact.Progress{Chars: st.acc.Chars, Delta: st.delta.String()})
	st.delta.Reset()
}

// chunk feeds one streamed chunk to the accumulator; it returns a failure
// for an error chunk.
func (st *streamState) chunk(ch sdk.ChatCompletionChunk) *failure {
	st.chunks++
	if isErrorChunk(&ch) {
		p := ParseProviderError([]byte(ch.RawJSON()))
		return &failure{kind: failStreamError, provider: p}
	}
	if ch.JSON.Usage.Valid() && st.usage(&ch.Usage) {
		st.topUsage = true
	}
	for i := range ch.Choices {
		if ch.Choices[i].Index == 0 {
			st.choiceDelta(&ch.Choices[i])
		}
	}
	if f := st.overCap(); f != nil {
		return f
	}
	st.report(false)
	return nil
}

// overCap returns the failure of an answer past the cap, nil while it is
// within it.
func (st *streamState) overCap() *failure {
	if st.acc.Bytes <= st.maxBytes {
		return nil
	}
	return &failure{kind: failTooLarge, limit: st.maxBytes}
}

// choiceDelta feeds the first choice of a chunk: its delta, whether it
// finished, and Moonshot's choice-level usage.
func (st *streamState) choiceDelta(c *sdk.ChatCompletionChunkChoice) {
	d := &c.Delta
	st.text(d.JSON.ExtraFields, d.Content)
	for j := range d.ToolCalls {
		tc := &d.ToolCalls[j]
		st.acc.ToolCall(int(tc.Index), tc.ID, tc.Function.Name, tc.Function.Arguments)
	}
	if c.FinishReason != "" {
		st.finished = true
	}
	if raw := extraRaw(c.JSON.ExtraFields, "usage"); raw != "" && !st.topUsage {
		var cu sdk.CompletionUsage
		if json.Unmarshal([]byte(raw), &cu) == nil {
			st.usage(&cu)
		}
	}
}

// completion feeds a non-streamed chat.completion answer to the
// accumulator, for providers that ignore "stream": true.
func (st *streamState) completion(body []byte) error {
	var cc sdk.ChatCompletion
	if err := json.Unmarshal(body, &cc); err != nil {
		return err
	}
	if cc.JSON.Usage.Valid() {
		st.usage(&cc.Usage)
	}
	for i := range cc.Choices {
		if cc.Choices[i].Index == 0 {
			st.message(&cc.Choices[i].Message)
		}
	}
	return nil
}

// message feeds the message of a completion's first choice.
func (st *streamState) message(m *sdk.ChatCompletionMessage) {
	st.text(m.JSON.ExtraFields, m.Content)
	for j := range m.ToolCalls {
		tc := &m.ToolCalls[j]
		st.acc.ToolCall(j, tc.ID, tc.Function.Name, tc.Function.Arguments)
	}
	st.finished = true
}

// text feeds the reasoning (in a field the SDK does not know, among
// extra) and the content of a delta or a message.
func (st *streamState) text(extra map[string]respjson.Field, content string) {
	st.acc.Reasoning(reasoningOf(extra))
	st.acc.Content(content)
	st.delta.WriteString(content)
}

// usage feeds a usage report to the accumulator; it says whether the
// report counted any tokens.
func (st *streamState) usage(u *sdk.CompletionUsage) bool {
	report, ok := usageOf(u)
	if ok {
		st.acc.Usage(report)
	}
	return ok
}

// reasoningOf returns the reasoning text of a delta or message:
// "reasoning_content" (Moonshot, DeepSeek, vLLM) or "reasoning" (Ollama,
// OpenRouter).
func reasoningOf(extra map[string]respjson.Field) string {
	for _, k := range []string{"reasoning_content", "reasoning"} {
		raw := extraRaw(extra, k)
		if raw == "" {
			continue
		}
		var s string
		if json.Unmarshal([]byte(raw), &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

// extraRaw returns the raw JSON of a field the SDK does not know, "" when it
// is absent or null. (The SDK marks such fields invalid, so Valid cannot
// tell.)
func extraRaw(extra map[string]respjson.Field, key string) string {
	f, ok := extra[key]
	if !ok {
		return ""
	}
	if raw := f.Raw(); raw != "null" {
		return raw
	}
	return ""
}

// isErrorObject reports whether a JSON answer is an error object rather
// than a chat.completion.
func isErrorObject(body []byte) bool {
	var v struct {
		Error  json.RawMessage `json:"error"`
		Object string          `json:"object"`
	}
	if json.Unmarshal(body, &v) != nil {
		return false
	}
	return v.Object == "error" || (len(v.Error) > 0 && string(v.Error) != "null")
}

// isErrorChunk reports whether a streamed object is an error rather than a
// chunk: {"object": "error", ...} (vLLM), or an object with neither choices
// nor usage that carries a message. ({"error": ...} objects are caught by
// the SDK.)
func isErrorChunk(ch *sdk.ChatCompletionChunk) bool {
	if ch.Object == "error" {
		return true
	}
	if ch.JSON.Choices.Valid() || ch.JSON.Usage.Valid() {
		return false
	}
	_, msg := ch.JSON.ExtraFields["message"]
	_, detail := ch.JSON.ExtraFields["detail"]
	return msg || detail
}

// usageOf maps a usage report; ok is false when it reports no tokens.
func usageOf(u *sdk.CompletionUsage) (kompact.Usage, bool) {
	if u.PromptTokens == 0 && u.CompletionTokens == 0 {
		return kompact.Usage{}, false
	}
	var top, details *int64
	if raw := extraRaw(u.JSON.ExtraFields, "cached_tokens"); raw != "" {
		if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
			top = &n
		}
	}
	if u.PromptTokensDetails.JSON.CachedTokens.Valid() {
		n := u.PromptTokensDetails.CachedTokens
		details = &n
	}
	return UsageFrom(u.PromptTokens, u.CompletionTokens, top, details), true
}
