package httpapi_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakeanthropic"
)

// TestMessagesDuplicatedKeyHeader (issue 38, Low): a forwarding Messages
// agent checks every value of x-api-key and Authorization, since every
// value goes upstream: a request that repeats one with the server's
// token in a later value is refused (401) and nothing reaches the
// upstream. On 33b084b only the first value was checked and the token
// went upstream.
func TestMessagesDuplicatedKeyHeader(t *testing.T) {
	fake := fakeanthropic.New(t, func(fakeanthropic.Request) fakeanthropic.Answer {
		return fakeanthropic.Answer{Body: fakeanthropic.TextMessage(apitest.CCModel, "ok", fakeanthropic.Usage{Input: 1, Output: 1})}
	})
	const token = "server-token-123"
	body := `{"model":"` + apitest.CCModel + `","max_tokens":8,"messages":[{"role":"user","content":"hi"}]}`
	fwd := messagesServer(t, apitest.CCAgents(fake.URL, ", forward_authorization: true"), token)
	for _, header := range []string{"X-Api-Key", "Authorization"} {
		h := apitest.CCHeaders("dup-" + header)
		h.Set("X-Kompact-Token", token)
		h.Set(header, "sk-own")
		h.Add(header, token)
		resp := apitest.PostMessages(t, context.Background(), fwd.URL+"/gateway/cc/v1/messages", h, body)
		wantMessagesError(t, resp, 401, "authentication_error")
	}
	for _, r := range fake.Requests() {
		for _, v := range append(r.Header.Values("X-Api-Key"), r.Header.Values("Authorization")...) {
			if strings.Contains(v, token) {
				t.Errorf("the server's token went upstream: %q", v)
			}
		}
	}
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("%d refused requests went upstream", n)
	}
}

// TestMessagesRelayRefusalNamesMessagesAPI (issue 38, Low): an upstream
// answer the gateway does not relay (an HTML page) is refused on the
// Messages face with a fix that names the Messages API its api:
// anthropic agent must point at, not an OpenAI-compatible one.
func TestMessagesRelayRefusalNamesMessagesAPI(t *testing.T) {
	fake := fakeanthropic.New(t, func(fakeanthropic.Request) fakeanthropic.Answer {
		return fakeanthropic.Answer{Header: map[string]string{"Content-Type": "text/html"}, Body: "<html>a proxy's page</html>"}
	})
	srv := messagesServer(t, apitest.CCAgents(fake.URL, ""), "")
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", apitest.CCHeaders("relay-1"),
		`{"model":"`+apitest.CCModel+`","max_tokens":8,"messages":[{"role":"user","content":"hi"}]}`)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 502 || !strings.Contains(string(b), "Anthropic Messages API") || strings.Contains(string(b), "OpenAI-compatible") {
		t.Errorf("got %d %s, want 502 with a fix naming the Messages API", resp.StatusCode, b)
	}
}

// TestGatewayFaceListed (issue 39 §2): the session list names the face a
// gateway session's conversation comes through: messages for an api:
// anthropic agent's (Claude Code's), chat_completions for another's; a
// session that is not the gateway's has none.
func TestGatewayFaceListed(t *testing.T) {
	fake := fakeanthropic.New(t, func(fakeanthropic.Request) fakeanthropic.Answer {
		return fakeanthropic.Answer{Body: fakeanthropic.TextMessage(apitest.CCModel, "ok", fakeanthropic.Usage{Input: 1, Output: 1})}
	})
	srv := messagesServer(t, apitest.CCAgents(fake.URL, ""), "")
	resp := apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/cc/v1/messages", apitest.CCHeaders("face-1"),
		`{"model":"`+apitest.CCModel+`","max_tokens":8,"messages":[{"role":"user","content":"hi"}]}`)
	_, _ = io.ReadAll(resp.Body)
	h := apitest.CCHeaders("")
	h.Set("X-Kompact-Session", "face-2")
	resp = apitest.PostMessages(t, context.Background(), srv.URL+"/gateway/chat/v1/chat/completions", h, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	_, _ = io.ReadAll(resp.Body)
	resp = apitest.PostMessages(t, context.Background(), srv.URL+"/v1/sessions", http.Header{"Content-Type": {"application/json"}}, `{"id":"face-3","agent":"cc","messages":[{"role":"user","content":"hi"}]}`)
	if resp.StatusCode != 201 {
		t.Fatalf("create: %d", resp.StatusCode)
	}
	var list struct {
		Sessions []struct {
			ID   string `json:"id"`
			Face string `json:"gateway_face"`
		} `json:"sessions"`
	}
	apitest.GetJSON(t, srv.URL, "/v1/sessions", &list)
	got := map[string]string{}
	for _, s := range list.Sessions {
		got[s.ID] = s.Face
	}
	if got["face-1"] != "messages" || got["face-2"] != "chat_completions" || got["face-3"] != "" || len(got) != 3 {
		t.Errorf("faces %v", got)
	}
}
