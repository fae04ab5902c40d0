package httpapi_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/testserver"
	"kompact/openai"
)

// The gateway's cost (issue 22 §6): what it adds to a request below the
// trigger, at 100 and 10k messages of history, against the same request
// sent to the upstream directly; and the time to the first streamed byte.
// -short runs the 100-message case only.

// benchGatewayAgents is testserver.GatewayAgents without automatic compaction, so that
// every request is one below the trigger.
const benchGatewayAgents = `agents:
  gw:
    llm: {base_url: %s, model: chat-model}
    compaction: {enabled: true, type: kimi}
    gateway: {enabled: true}
`

// instantUpstream answers every chat request with a short completion (a
// stream when asked: a first chunk, then after delay the rest).
func instantUpstream(b *testing.B, delay time.Duration) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !bytes.Contains(body, []byte(`"stream":true`)) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":"c","object":"chat.completion","created":1,"model":"chat-model","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":1,"total_tokens":11}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"chat-model\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"o\"}}]}\n\n")
		w.(http.Flusher).Flush()
		time.Sleep(delay)
		io.WriteString(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"chat-model\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	b.Cleanup(srv.Close)
	return srv
}

// benchGateway starts an instantUpstream and a gateway in front of it,
// over a fresh SQLite store.
func benchGateway(b *testing.B, delay time.Duration) (up, gw *httptest.Server) {
	up = instantUpstream(b, delay)
	cfg, err := config.Parse([]byte(fmt.Sprintf(benchGatewayAgents, up.URL+"/v1")), "agents.yaml")
	if err != nil {
		b.Fatal(err)
	}
	gw = httptest.NewServer(httpapi.New(httpapi.Config{Store: testserver.SQLite(b), Agents: cfg,
		Upstream: &openai.Upstream{Getenv: func(string) string { return "" }}, Logger: slog.New(slog.DiscardHandler)}).Handler())
	b.Cleanup(gw.Close)
	return up, gw
}

// benchConversation builds chat-completions bodies of a conversation that
// grows by an assistant and a user message a turn, about 1 KB each; id
// (in every message) tells one conversation from another.
type benchConversation struct {
	msgs   []byte
	n      int
	stream bool
	id     int
}

func (c *benchConversation) add(role string) {
	if c.n > 0 {
		c.msgs = append(c.msgs, ',')
	}
	c.msgs = fmt.Appendf(c.msgs, `{"role":%q,"content":"message %d of %d: %s"}`, role, c.n, c.id, strings.Repeat("some words of the turn ", 40))
	c.n++
}

// turn adds the reply and the next question and returns the body.
func (c *benchConversation) turn() []byte {
	if c.n > 0 {
		c.add("assistant")
	}
	c.add("user")
	return fmt.Appendf(nil, `{"model":"chat-model","stream":%v,"messages":[%s]}`, c.stream, c.msgs)
}

func postBody(b *testing.B, url string, body []byte) {
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		b.Fatalf("status %d", resp.StatusCode)
	}
}

// BenchmarkGatewayTurn is one turn below the trigger, end to end over
// loopback HTTP, through the gateway (storing the two new messages) and
// straight to the upstream, with a history of about 100 or 10k messages
// (benchHistory: each turn holds at most that many, and no more than 1%
// or ten fewer), so that ns/op is one size of turn's whatever b.N and -count.
func BenchmarkGatewayTurn(b *testing.B) {
	sizes := []int{100, 10_000}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, n := range sizes {
		up, gw := benchGateway(b, 0)
		for _, target := range []struct{ name, url string }{
			{"direct", up.URL + "/v1/chat/completions"},
			{"gateway", gw.URL + "/gateway/gw/v1/chat/completions"},
		} {
			started := 0 // the conversations of all runs, so that each is a new session
			b.Run(fmt.Sprintf("%s/%d", target.name, n), func(b *testing.B) {
				h := &benchHistory{b: b, url: target.url, metrics: gw.URL, hi: n, lo: n - max(n/100, 10), started: &started}
				sum0, count0 := addedSeconds(b, gw.URL)
				h.start()
				var size int64
				for b.Loop() {
					body := h.turn()
					size = int64(len(body))
					postBody(b, target.url, body)
				}
				b.SetBytes(size)
				if target.name == "gateway" {
					sum, count := addedSeconds(b, gw.URL)
					sum, count = sum-h.seedSum, count-h.seedCount
					b.ReportMetric((sum-sum0)/(count-count0)*1e6, "µs-added")
				}
			})
		}
	}
}

// benchHistory is BenchmarkGatewayTurn's conversation: each turn it hands
// out holds more than lo and at most hi messages (hi at most the gateway's
// DefaultMaxRequestMessages). When the next turn would hold more, it starts
// a new conversation, outside the timer, whose first request holds just
// over lo; what those first requests add to the gateway's metrics it counts
// in seedSum and seedCount.
type benchHistory struct {
	b                  *testing.B
	url, metrics       string
	lo, hi             int
	started            *int
	c                  *benchConversation
	seedSum, seedCount float64
}

// turn is the next turn's body.
func (h *benchHistory) turn() []byte {
	if h.c.n+2 > h.hi {
		h.b.StopTimer()
		h.start()
		h.b.StartTimer()
	}
	return h.c.turn()
}

// start begins a new conversation and sends its first request.
func (h *benchHistory) start() {
	*h.started++
	h.c = &benchConversation{id: *h.started}
	for h.c.n+2 <= h.lo {
		h.c.turn()
	}
	sum0, count0 := addedSeconds(h.b, h.metrics)
	postBody(h.b, h.url, h.c.turn())
	sum, count := addedSeconds(h.b, h.metrics)
	h.seedSum, h.seedCount = h.seedSum+sum-sum0, h.seedCount+count-count0
}

// BenchmarkGatewayFirstByte is the time from sending a streamed request to
// its first event, through the gateway and straight to the upstream (which
// sends its first event at once and the rest 20 ms later).
func BenchmarkGatewayFirstByte(b *testing.B) {
	up, gw := benchGateway(b, 20*time.Millisecond)
	for _, target := range []struct{ name, url string }{
		{"direct", up.URL + "/v1/chat/completions"},
		{"gateway", gw.URL + "/gateway/gw/v1/chat/completions"},
	} {
		b.Run(target.name, func(b *testing.B) {
			c := &benchConversation{stream: true}
			var first time.Duration
			for b.Loop() {
				start := time.Now()
				resp, err := http.Post(target.url, "application/json", bytes.NewReader(c.turn()))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil {
					b.Fatal(err)
				}
				first += time.Since(start)
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			b.ReportMetric(float64(first.Microseconds())/float64(b.N), "µs-to-first-event")
		})
	}
}

// addedSeconds is the sum and count of the gateway's
// kompact_gateway_added_seconds so far: its own work before forwarding.
func addedSeconds(b *testing.B, base string) (float64, float64) {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var sum, count float64
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "kompact_gateway_added_seconds_sum "); ok {
			fmt.Sscan(v, &sum)
		}
		if v, ok := strings.CutPrefix(sc.Text(), "kompact_gateway_added_seconds_count "); ok {
			fmt.Sscan(v, &count)
		}
	}
	return sum, count
}
