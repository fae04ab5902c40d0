package httpapi_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"kompact/httpapi"
	"kompact/internal/testing/apitest"
)

// TestGatewayRouteBeforeBodyType (issue 40 §3): a form-encoded POST to a
// gateway route is told first what is wrong with its route and agent (an
// unknown agent, an OpenAI agent's Messages route, no such route: 404),
// and only then, for a good route and agent, that its body is not JSON
// (415). Without the server's token nothing is said about the agent.
func TestGatewayRouteBeforeBodyType(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	srv := limitedGateway(t, up, httpapi.Config{})
	post := func(base, path string, header ...string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", base+path, strings.NewReader("a=1&b=2"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	for _, c := range []struct {
		path   string
		status int
		says   string
	}{
		{"/gateway/nope/v1/messages", 404, `nope`},
		{"/gateway/nope/v1/chat/completions", 404, `nope`},
		{"/gateway/gw/v1/messages", 404, `agent \"gw\" speaks llm.api: openai`},
		{"/gateway/gw/v1/nothing", 404, "no gateway route POST /gateway/gw/v1/nothing"},
		{"/gateway/gw/v1/chat/completions", 415, "unsupported_media_type"},
	} {
		if status, body := post(srv.URL, c.path); status != c.status || !strings.Contains(body, c.says) {
			t.Errorf("POST %s: %d %s; want %d saying %s", c.path, status, body, c.status, c.says)
		}
	}
	const token = "0123456789abcdef0123456789abcdef"
	guarded := limitedGateway(t, up, httpapi.Config{Token: token})
	if status, body := post(guarded.URL, "/gateway/nope/v1/messages"); status != 415 {
		t.Errorf("without the token: %d %s; want 415", status, body)
	}
	if status, body := post(guarded.URL, "/gateway/nope/v1/messages", "Authorization", "Bearer "+token); status != 404 {
		t.Errorf("with the token: %d %s; want 404", status, body)
	}
	wantUntouched(t, up, srv.URL)
}
