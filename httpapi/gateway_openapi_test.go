package httpapi_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kompact/httpapi"
	"kompact/internal/golden"
)

// The gateway's routes in the OpenAPI document: the checker holds the
// gateway's answers to it as it holds the /v1 routes', and the document's
// examples of the gateway's errors are real ones (gateway_errors.golden).

// TestGatewayCheckerCatchesDrift: gateway answers the document does not
// allow fail the test that caused them: an error of the gateway's own
// that is not GatewayError, a relayed answer without X-Kompact-Forwarded,
// a stream chunk that is not a ChatCompletionChunk, an unknown gateway
// route's answer in the API's error form, and a request the document
// refuses that the server took. The upstream's own error, relayed as it
// came, is not held to GatewayError.
func TestGatewayCheckerCatchesDrift(t *testing.T) {
	const chat = "/gateway/gw/v1/chat/completions"
	const valid = `{"model":"m","messages":[{"role":"user","content":"hi"}]}`
	for _, c := range []struct {
		name, method, path, body string
		status                   int
		header                   []string
		answer, want             string
	}{
		{"an own error without fixes", "POST", chat, valid, 400, nil,
			`{"error":{"message":"no","type":"kompact_error","code":"invalid_request"}}`, "fixes"},
		{"an own error in the API's form", "POST", chat, valid, 404, nil,
			`{"code":"not_found","message":"no","fixes":[]}`, "error"},
		{"an answer without X-Kompact-Forwarded", "POST", chat, valid, 200, nil,
			`{"id":"c","object":"chat.completion","choices":[]}`, "X-Kompact-Forwarded"},
		{"a chunk whose choices are not a list", "POST", chat, valid, 200, []string{"X-Kompact-Forwarded", "as-sent", "Content-Type", "text/event-stream"},
			"data: {\"choices\":5}\n\ndata: [DONE]\n\n", "chunk"},
		{"an unknown route's answer in the API's form", "GET", "/gateway/gw/v1/embeddings", "", 404, nil,
			`{"code":"not_found","message":"no","fixes":[]}`, "error"},
		{"a request without messages taken", "POST", chat, `{"model":"m"}`, 200, []string{"X-Kompact-Forwarded", "as-sent"},
			`{"id":"c","object":"chat.completion","choices":[]}`, "yet the server did not refuse it"},
		{"the upstream's own 400, relayed", "POST", chat, valid, 400, []string{"X-Kompact-Forwarded", "as-sent"},
			`{"error":{"message":"bad request","type":"invalid_request_error","param":null,"code":null}}`, ""},
		{"the upstream's text, relayed", "POST", chat, valid, 503, []string{"X-Kompact-Forwarded", "as-sent", "Content-Type", "text/plain"},
			"upstream down", ""},
	} {
		rec := &recordTB{TB: t}
		h := httpapi.CheckedHandler(rec, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			for i := 0; i+1 < len(c.header); i += 2 {
				w.Header().Set(c.header[i], c.header[i+1])
			}
			w.WriteHeader(c.status)
			_, _ = io.WriteString(w, c.answer)
		}))
		req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
		if c.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		h.ServeHTTP(httptest.NewRecorder(), req)
		got := strings.Join(rec.errs, "\n")
		switch {
		case c.want == "" && got != "":
			t.Errorf("%s: the check reported what the document allows:\n%s", c.name, got)
		case c.want != "" && !strings.Contains(got, c.want):
			t.Errorf("%s: the check did not report %q; it reported:\n%s", c.name, c.want, got)
		}
	}
}

// TestGatewayErrorBodies pins the gateway's own errors, in OpenAI's form
// (testdata/gateway_errors.golden, whose entries are the document's
// examples).
func TestGatewayErrorBodies(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	srv := limitedGateway(t, newFakeUpstream(t), httpapi.Config{Token: token, Limits: httpapi.Limits{MaxRequestMessages: 3}})
	auth := withHeader("Authorization", "Bearer "+token)
	var out bytes.Buffer
	for _, c := range []struct {
		method, path, body string
		edits              []func(*http.Request)
	}{
		{"POST", "/gateway/nobody/v1/chat/completions", chatBody(1), []func(*http.Request){auth}},
		{"POST", "/gateway/gw/v1/chat/completions", chatBody(1), nil},
		{"POST", "/gateway/gw/v1/chat/completions", chatBody(1), []func(*http.Request){auth, withHeader("X-Kompact-Session", "a/b")}},
		{"POST", "/gateway/gw/v1/chat/completions", `{"model":"m"}`, []func(*http.Request){auth}},
		{"POST", "/gateway/gw/v1/chat/completions", chatBody(4), []func(*http.Request){auth}},
		{"GET", "/gateway/gw/v1/embeddings", "", []func(*http.Request){auth}},
	} {
		req, err := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		if c.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for _, edit := range c.edits {
			edit(req)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Fprintf(&out, "%s %s -> %d\n%s\n", c.method, c.path, resp.StatusCode, b)
	}
	golden.Check(t, "gateway_errors", out.Bytes())
}
