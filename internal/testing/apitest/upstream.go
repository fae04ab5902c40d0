package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// UpstreamCall is one request the fake upstream got.
type UpstreamCall struct {
	Body       []byte
	Compaction bool
	At         time.Time
}

// FakeUpstream answers chat requests with "reply N" (streamed when asked,
// with usage when asked) reporting len(body)/4 prompt tokens, and
// compaction requests (model compact-model) with a short summary. gate,
// when set, holds compaction answers until it is closed.
type FakeUpstream struct {
	Mu    sync.Mutex
	Calls []UpstreamCall
	Gate  chan struct{}
	Srv   *httptest.Server
}

func NewFakeUpstream(t *testing.T) *FakeUpstream {
	f := &FakeUpstream{}
	f.Srv = httptest.NewServer(http.HandlerFunc(f.Serve))
	t.Cleanup(f.Srv.Close)
	return f
}

func (f *FakeUpstream) Serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/v1/models" {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"chat-model","object":"model"}]}`)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Model         string `json:"model"`
		Stream        bool   `json:"stream"`
		StreamOptions *struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	if bytes.Contains(body, []byte("FAIL-429")) {
		w.Header().Set("Retry-After", "7")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, Upstream429)
		return
	}
	compaction := req.Model == "compact-model"
	f.Mu.Lock()
	f.Calls = append(f.Calls, UpstreamCall{Body: body, Compaction: compaction, At: time.Now()})
	n, gate := len(f.Calls), f.Gate
	f.Mu.Unlock()
	text := fmt.Sprintf("reply %d", n)
	if compaction {
		if gate != nil {
			<-gate
		}
		text = "<current_focus>the test</current_focus>\n<environment>fake</environment>\n<completed_tasks>turns</completed_tasks>\n" +
			"<active_issues>none</active_issues>\n<code_state>none</code_state>\n<important_context>summary of the old turns</important_context>"
	}
	usage := fmt.Sprintf(`{"prompt_tokens":%d,"completion_tokens":5,"total_tokens":%d}`, len(body)/4, len(body)/4+5)
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c%d","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}],"usage":%s}`,
			n, req.Model, text, usage)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(s string) {
		fmt.Fprintf(w, "data: %s\n\n", s)
		w.(http.Flusher).Flush()
	}
	head := fmt.Sprintf(`{"id":"c%d","object":"chat.completion.chunk","created":1,"model":%q,`, n, req.Model)
	chunk(head + `"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}`)
	for _, part := range strings.SplitAfter(text, " ") {
		b, _ := json.Marshal(part)
		chunk(head + `"choices":[{"index":0,"delta":{"content":` + string(b) + `}}]}`)
	}
	chunk(head + `"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage {
		chunk(head + `"choices":[],"usage":` + usage + `}`)
	}
	chunk("[DONE]")
}

// Upstream429 is the fake's answer to a request that holds FAIL-429.
const Upstream429 = `{"error":{"message":"slow down","type":"rate_limit_error"}}`

// Chats returns the chat (not compaction) requests so far, and how many
// compaction requests there were.
func (f *FakeUpstream) Chats() ([]UpstreamCall, int) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	var out []UpstreamCall
	n := 0
	for _, c := range f.Calls {
		if c.Compaction {
			n++
		} else {
			out = append(out, c)
		}
	}
	return out, n
}

// CompactionCalls counts the compaction requests the fake upstream got.
func (f *FakeUpstream) CompactionCalls() int {
	_, n := f.Chats()
	return n
}

// ShutGate holds up's compaction answers until the returned function is
// called (at the test's end at the latest, so that a failed test does not
// leave a compaction waiting).
func ShutGate(t *testing.T, up *FakeUpstream) func() {
	gate := make(chan struct{})
	up.Gate = gate
	var once sync.Once
	open := func() {
		once.Do(func() {
			up.Mu.Lock()
			up.Gate = nil
			up.Mu.Unlock()
			close(gate)
		})
	}
	t.Cleanup(open)
	return open
}
