package httpapi_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"kompact/httpapi"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testserver"
)

// The gateway's relay when the upstream's answer goes wrong (issue 29): a
// stream the upstream cuts, an event over the bound, content that is not
// an API's. The client always sees a failure, never a clean-looking
// empty or cut answer, and nothing of the upstream's runs on kompact's
// origin.

// scriptedUpstream is a fake upstream that answers every request with h.
func scriptedUpstream(t *testing.T, h http.HandlerFunc) *apitest.FakeUpstream {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &apitest.FakeUpstream{Srv: srv}
}

// sseChunk is a chat.completion.chunk event carrying content.
func sseChunk(content string, finish bool) string {
	reason := "null"
	if finish {
		reason = `"stop"`
	}
	return fmt.Sprintf(`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"chat-model","choices":[{"index":0,"delta":{"content":%q},"finish_reason":%s}]}`+"\n\n", content, reason)
}

// streamingUpstream writes the events one by one, flushing each, then
// cuts the connection when cut is set (a reset mid-stream).
func streamingUpstream(t *testing.T, cut bool, events ...string) *apitest.FakeUpstream {
	return scriptedUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range events {
			io.WriteString(w, ev)
			w.(http.Flusher).Flush()
		}
		if cut {
			panic(http.ErrAbortHandler)
		}
	})
}

// streamWith streams one chat request with the official SDK at base
// (a gateway's /gateway/gw/v1, or the upstream's /v1), returning the
// chunks' content and the stream's error.
func streamWith(base string) (string, error) {
	c := sdk.NewClient(option.WithBaseURL(base), option.WithAPIKey("k"), option.WithMaxRetries(0))
	s := c.Chat.Completions.NewStreaming(context.Background(), sdk.ChatCompletionNewParams{
		Model: "chat-model", Messages: []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("hi")},
	})
	var got strings.Builder
	for s.Next() {
		for _, ch := range s.Current().Choices {
			got.WriteString(ch.Delta.Content)
		}
	}
	return got.String(), s.Err()
}

// TestGatewayStreamCut: an upstream that resets its stream mid-way (after
// two chunks, before any finish_reason) makes the SDK's stream through
// the gateway report an error, as it does when it talks to the upstream
// directly; the chunks before the cut reach the client.
func TestGatewayStreamCut(t *testing.T) {
	up := streamingUpstream(t, true, sseChunk("one ", false), sseChunk("two ", false))
	if _, err := streamWith(up.Srv.URL + "/v1"); err == nil {
		t.Fatal("the fake's cut stream looks complete to the SDK even directly")
	}
	srv := newGatewayServer(t, testserver.SQLite(t), up, 0)
	got, err := streamWith(srv.URL + "/gateway/gw/v1")
	if err == nil {
		t.Fatalf("the SDK saw the cut stream (%q) end without an error", got)
	}
	if got != "one two " {
		t.Errorf("the chunks before the cut: %q, want %q", got, "one two ")
	}
	// A whole stream still ends cleanly.
	whole := streamingUpstream(t, false, sseChunk("one ", false), sseChunk("", true), "data: [DONE]\n\n")
	srv = newGatewayServer(t, testserver.SQLite(t), whole, 0)
	if got, err := streamWith(srv.URL + "/gateway/gw/v1"); err != nil || got != "one " {
		t.Fatalf("a whole stream: %q, %v", got, err)
	}
}

// bigEvent is one chunk event longer than the gateway's 8 MiB bound.
func bigEvent() string { return sseChunk(strings.Repeat("x", 8<<20), false) }

// TestGatewayEventTooLong: an upstream event over 8 MiB is an error to the
// client: a 502 llm_error in OpenAI's form when it is the first thing the
// upstream sends (streamed or not: an upstream that streams a request
// that did not ask it), a cut connection when events went before it;
// never an empty 200.
func TestGatewayEventTooLong(t *testing.T) {
	up := streamingUpstream(t, false, bigEvent())
	srv := newGatewayServer(t, testserver.SQLite(t), up, 0)
	_, err := streamWith(srv.URL + "/gateway/gw/v1")
	var apiErr *sdk.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 502 || apiErr.Code != "llm_error" || !strings.Contains(apiErr.Message, "8 MiB") {
		t.Fatalf("streamed, the first event over 8 MiB: the SDK got %v; want a 502 llm_error naming 8 MiB", err)
	}
	r := sendChat(t, srv.URL, chatBody(1)) // not streamed; the upstream streams anyway
	wantRefused(t, "not streamed", r, 502, "llm_error", "8 MiB")
	if got := metric(t, srv.URL, `kompact_gateway_requests_total{status="502"}`); got != "2" {
		t.Errorf("requests counted as 502: %s, want 2", got)
	}

	up = streamingUpstream(t, false, sseChunk("one ", false), bigEvent(), sseChunk("", true))
	srv = newGatewayServer(t, testserver.SQLite(t), up, 0)
	if got, err := streamWith(srv.URL + "/gateway/gw/v1"); err == nil {
		t.Fatalf("an event over 8 MiB after the first: the SDK saw %q end without an error", got)
	}
}

// TestGatewayLargeCompletion: a non-streamed answer over 8 MiB (the
// bound of a stream's event, and of what the gateway keeps to read usage)
// is relayed whole, byte for byte.
func TestGatewayLargeCompletion(t *testing.T) {
	content := strings.Repeat("y", 9<<20)
	body := fmt.Sprintf(`{"id":"c1","object":"chat.completion","created":1,"model":"chat-model","choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}]}`, content)
	up := scriptedUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	})
	srv := newGatewayServer(t, testserver.SQLite(t), up, 0)
	if r := sendChat(t, srv.URL, chatBody(1)); r.status != 200 || r.body != body {
		t.Fatalf("a 9 MiB completion: %d, %d bytes; want 200 and the upstream's %d bytes", r.status, len(r.body), len(body))
	}
}

// wantSafe fails unless an answer's headers keep a browser from sniffing
// or running it.
func wantSafe(t *testing.T, what string, h http.Header) {
	t.Helper()
	if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Content-Security-Policy") != "default-src 'none'; sandbox" {
		t.Errorf("%s: X-Content-Type-Options %q, Content-Security-Policy %q; want nosniff and default-src 'none'; sandbox",
			what, h.Get("X-Content-Type-Options"), h.Get("Content-Security-Policy"))
	}
}

// TestGatewayUpstreamContentType: an upstream answer that is neither
// application/json nor text/event-stream (an HTML page with a script, on
// the model list or a chat answer, an error page) is not relayed onto
// kompact's origin: the client gets a 502 llm_error in OpenAI's form
// naming the type, without the upstream's bytes; every gateway answer,
// errors included, has nosniff and a sandboxing Content-Security-Policy.
func TestGatewayUpstreamContentType(t *testing.T) {
	const page = `<html><script>fetch('/v1/sessions')</script></html>`
	up := scriptedUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		switch {
		case strings.HasSuffix(r.URL.Path, "/models"):
			w.Header().Set("Content-Type", "text/html")
		case r.Header.Get("X-Test-Status") != "":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(503)
		default:
			w.Header()["Content-Type"] = []string{"text/html; charset=utf-8"}
		}
		io.WriteString(w, page)
	})
	srv := limitedGateway(t, up, httpapi.Config{})
	for _, c := range []struct {
		what, method, path, body string
		edits                    []func(*http.Request)
	}{
		{"the model list", "GET", "/gateway/gw/v1/models", "", nil},
		{"a chat answer", "POST", "/gateway/gw/v1/chat/completions", chatBody(1), nil},
		{"an error page", "POST", "/gateway/gw/v1/chat/completions", chatBody(1), []func(*http.Request){withHeader("X-Test-Status", "503")}},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		for _, e := range c.edits {
			e(req)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 502 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") ||
			strings.Contains(string(b), "<script") || !strings.Contains(string(b), `"llm_error"`) || !strings.Contains(string(b), "text/") {
			t.Errorf("%s: %d %s %s; want a 502 llm_error in JSON naming the type, without the page", c.what, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
		if resp.Header.Get("X-Kompact-Forwarded") != "" {
			t.Errorf("%s: X-Kompact-Forwarded on the gateway's own error", c.what)
		}
		wantSafe(t, c.what, resp.Header)
	}
}

// TestGatewaySafetyHeaders: every gateway answer has nosniff and the
// sandboxing policy: the upstream's JSON and stream, and the gateway's
// and the guards' errors.
func TestGatewaySafetyHeaders(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	srv := limitedGateway(t, apitest.NewFakeUpstream(t), httpapi.Config{Token: token})
	auth := withHeader("Authorization", "Bearer "+token)
	for _, c := range []struct {
		what, method, path, body string
		edits                    []func(*http.Request)
	}{
		{"a completion", "POST", "/gateway/gw/v1/chat/completions", chatBody(1), []func(*http.Request){auth}},
		{"a stream", "POST", "/gateway/gw/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`, []func(*http.Request){auth}},
		{"the model list", "GET", "/gateway/gw/v1/models", "", []func(*http.Request){auth}},
		{"401", "POST", "/gateway/gw/v1/chat/completions", chatBody(1), nil},
		{"404", "GET", "/gateway/gw/v1/embeddings", "", []func(*http.Request){auth}},
		{"403", "POST", "/gateway/gw/v1/chat/completions", chatBody(1), []func(*http.Request){auth, withHeader("Origin", "https://evil.example")}},
		{"415", "POST", "/gateway/gw/v1/chat/completions", chatBody(1), []func(*http.Request){auth, withHeader("Content-Type", "text/html")}},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
		if c.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for _, e := range c.edits {
			e(req)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		wantSafe(t, fmt.Sprintf("%s (%d)", c.what, resp.StatusCode), resp.Header)
	}
}
