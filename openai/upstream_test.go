package openai_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"kompact"
	"kompact/openai"
)

const testKey = "sk-gateway-secret-123"

func upstreamFor(env map[string]string) *openai.Upstream {
	return &openai.Upstream{Getenv: func(k string) string { return env[k] }}
}

// TestUpstreamChatCompletions: the request as sent: path, headers, the
// body's bytes; the answer handed back unread, an error status too.
func TestUpstreamChatCompletions(t *testing.T) {
	type seen struct{ method, path, query, auth, ctype, accept, body string }
	got := make(chan seen, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- seen{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), r.Header.Get("Accept"), string(b)}
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"error":{"message":"slow down"}}`)
	}))
	defer srv.Close()
	body := []byte(`{"model":"m", "messages":[{"role":"user","content":"hi"}]}`)
	u := upstreamFor(map[string]string{"KEY": testKey})
	for _, tc := range []struct {
		base, env, auth string
		want            seen
	}{
		{srv.URL + "/v1", "KEY", "", seen{"POST", "/v1/chat/completions", "", "Bearer " + testKey, "application/json", "application/json, text/event-stream", string(body)}},
		{srv.URL + "/v1/?api-version=2", "KEY", "Bearer client-own", seen{"POST", "/v1/chat/completions", "api-version=2", "Bearer client-own", "application/json", "application/json, text/event-stream", string(body)}},
		{srv.URL, "", "", seen{"POST", "/chat/completions", "", "", "application/json", "application/json, text/event-stream", string(body)}},
		{srv.URL, "UNSET", "Basic abc", seen{"POST", "/chat/completions", "", "Basic abc", "application/json", "application/json, text/event-stream", string(body)}},
	} {
		resp, err := u.ChatCompletions(context.Background(), kompact.LLMConfig{BaseURL: tc.base, APIKeyEnv: tc.env}, body, tc.auth)
		if err != nil {
			t.Fatalf("%s: %v", tc.base, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests || string(b) != `{"error":{"message":"slow down"}}` {
			t.Errorf("answer %d %s", resp.StatusCode, b)
		}
		if s := <-got; s != tc.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.base, s, tc.want)
		}
	}
}

func TestUpstreamModels(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/v1/models" || r.Header.Get("Authorization") != "Bearer "+testKey || r.Header.Get("Accept") != "application/json" {
			t.Errorf("%s %s %q", r.Method, r.URL.Path, r.Header)
		}
		io.WriteString(w, `{"data":[{"id":"m"}]}`)
	}))
	defer srv.Close()
	resp, err := upstreamFor(map[string]string{"KEY": testKey}).Models(context.Background(), kompact.LLMConfig{BaseURL: srv.URL + "/v1/", APIKeyEnv: "KEY"}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if b, _ := io.ReadAll(resp.Body); string(b) != `{"data":[{"id":"m"}]}` {
		t.Errorf("body %s", b)
	}
}

// TestUpstreamRefuses: a configuration that cannot work sends nothing.
func TestUpstreamRefuses(t *testing.T) {
	u := upstreamFor(nil)
	for _, llm := range []kompact.LLMConfig{{BaseURL: "", APIKeyEnv: "K"}, {BaseURL: "ftp://h/v1?token=" + testKey}, {BaseURL: "http://127.0.0.1:1/v1", APIKeyEnv: "UNSET_KEY"}} {
		_, err := u.ChatCompletions(context.Background(), llm, []byte(`{}`), "")
		if kompact.ErrorCodeOf(err) != kompact.EInvalid || strings.Contains(err.Error(), testKey) {
			t.Errorf("%+v: %v", llm, err)
		}
	}
}

// TestUpstreamRedirects: a redirect on the same host is followed with the
// key and the body; one to another host is not, and the other host hears
// nothing.
func TestUpstreamRedirects(t *testing.T) {
	var other atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { other.Add(1) }))
	defer elsewhere.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/chat/completions":
			http.Redirect(w, r, "/v2/chat/completions", http.StatusTemporaryRedirect)
		case "/v2/chat/completions":
			b, _ := io.ReadAll(r.Body)
			if r.Header.Get("Authorization") != "Bearer "+testKey || string(b) != `{"x":1}` {
				t.Errorf("after the redirect: %q %s", r.Header.Get("Authorization"), b)
			}
			io.WriteString(w, "ok")
		case "/off/chat/completions":
			http.Redirect(w, r, elsewhere.URL+"/steal", http.StatusTemporaryRedirect)
		}
	}))
	defer srv.Close()
	u := upstreamFor(map[string]string{"KEY": testKey})
	resp, err := u.ChatCompletions(context.Background(), kompact.LLMConfig{BaseURL: srv.URL + "/v1", APIKeyEnv: "KEY"}, []byte(`{"x":1}`), "")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "ok" {
		t.Errorf("same-host redirect: %s", b)
	}
	_, err = u.ChatCompletions(context.Background(), kompact.LLMConfig{BaseURL: srv.URL + "/off", APIKeyEnv: "KEY"}, []byte(`{"x":1}`), "")
	if kompact.ErrorCodeOf(err) != kompact.ELLM || !strings.Contains(err.Error(), "redirect") || strings.Contains(err.Error(), testKey) || other.Load() != 0 {
		t.Errorf("off-host redirect: %v (other host asked %d times)", err, other.Load())
	}
}

// TestUpstreamUnreachable: the error names the host, never the key or the
// URL's query.
func TestUpstreamUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL + "/v1?token=" + testKey
	srv.Close()
	_, err := upstreamFor(map[string]string{"KEY": testKey}).ChatCompletions(context.Background(), kompact.LLMConfig{BaseURL: base, APIKeyEnv: "KEY"}, []byte(`{}`), "")
	if kompact.ErrorCodeOf(err) != kompact.ELLM || strings.Contains(err.Error(), testKey) || !strings.Contains(err.Error(), strings.TrimPrefix(srv.URL, "http://")) {
		t.Errorf("%v", err)
	}
	for e := error(err); e != nil; e = unwrap(e) {
		if strings.Contains(e.Error(), testKey) {
			t.Errorf("the cause quotes the key: %v", e)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := upstreamFor(nil).Models(ctx, kompact.LLMConfig{BaseURL: "http://127.0.0.1:1/v1"}, ""); kompact.ErrorCodeOf(err) != kompact.ELLM {
		t.Errorf("cancelled: %v", err)
	}
}

func unwrap(err error) error {
	u, ok := err.(interface{ Unwrap() error })
	if !ok {
		return nil
	}
	return u.Unwrap()
}

// TestUpstreamSendPassesThrough: Send, for a face that passes the client's
// request through (the Responses face), sends the client's headers as they
// came but the connection's own and X-Kompact-*, its query after the base
// URL's, and the agent's key in place of the client's credentials unless
// forward; the client's own Accept and Content-Type stay.
func TestUpstreamSendPassesThrough(t *testing.T) {
	got := make(chan *http.Request, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	client := http.Header{"Session-Id": {"thread-1"}, "X-Codex-Turn-Metadata": {`{"a":1}`}, "Accept": {"text/event-stream"},
		"Authorization": {"Bearer client-own"}, "X-Api-Key": {"client-key"}, "X-Kompact-Token": {"server-token"}, "Connection": {"close"}}
	u := upstreamFor(map[string]string{"KEY": testKey})
	for _, forward := range []bool{false, true} {
		resp, err := u.Send(context.Background(), kompact.LLMConfig{BaseURL: srv.URL + "/v1?api-version=2", APIKeyEnv: "KEY"}, "responses", "trace=on", client, []byte(`{"input":[]}`), forward)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		r := <-got
		wantAuth, wantKey := "Bearer "+testKey, ""
		if forward {
			wantAuth, wantKey = "Bearer client-own", "client-key"
		}
		if r.Method != http.MethodPost || r.URL.Path != "/v1/responses" || r.URL.RawQuery != "api-version=2&trace=on" {
			t.Errorf("forward %v: %s %s?%s", forward, r.Method, r.URL.Path, r.URL.RawQuery)
		}
		if r.Header.Get("Session-Id") != "thread-1" || r.Header.Get("X-Codex-Turn-Metadata") != `{"a":1}` || r.Header.Get("Accept") != "text/event-stream" ||
			r.Header.Get("Content-Type") != "application/json" || r.Header.Get("X-Kompact-Token") != "" ||
			r.Header.Get("Authorization") != wantAuth || r.Header.Get("X-Api-Key") != wantKey {
			t.Errorf("forward %v: headers %q", forward, r.Header)
		}
	}
}
