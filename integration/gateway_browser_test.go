package integration

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"kompact/internal/testing/fakellm"
)

// TestBrowserGatewaySession: a conversation that came through the gateway
// is an ordinary session on the page, marked as the gateway's (issue 22
// §2), at 1280 and 400 px.
func TestBrowserGatewaySession(t *testing.T) {
	atWidth(t, browserOptions{}, func(e *browserEnv, shot func(string) string) {
		e.llm.SetDefault(fakellm.Answer(fakellm.Text("Looking at the build.")))
		body := `{"model":"fake-chat","messages":[{"role":"system","content":"You are a coding agent."},{"role":"user","content":"Why does the build fail?"}]}`
		req, _ := http.NewRequest("POST", e.srv.URL+"/gateway/tiny/v1/chat/completions", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Kompact-Session", "gw-demo")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(answer), "Looking at the build.") || resp.Header.Get("X-Kompact-Session") != "gw-demo" {
			t.Fatalf("gateway: %d %v %s", resp.StatusCode, resp.Header, answer)
		}
		e.importSession(browserSession(t, "plain"))
		e.open("/#/s/gw-demo")
		e.waitFor("the gateway mark", `document.querySelector('[data-session-id="gw-demo"] [data-testid="session-gateway"]') !== null`)
		if n := e.evalInt(`document.querySelectorAll('[data-session-id="plain"] [data-testid="session-gateway"]').length`); n != 0 {
			t.Fatalf("a session the gateway does not keep is marked (%d)", n)
		}
		e.waitFor("the conversation", `document.body.innerText.includes("Why does the build fail?")`)
		e.waitFor("the gateway note", `document.querySelector('[data-testid="session-gateway-note"]').innerText.includes("/gateway/tiny/v1")`)
		// Issue 28 §4: the client owns the conversation, so the page offers
		// no continue form on it and says why.
		e.waitFor("no continue form", `document.querySelector('[data-testid="continue-form"]').hidden`)
		if note := e.evalString(`document.querySelector('[data-testid="session-gateway-note"]').innerText`); !strings.Contains(note, "owns it") {
			t.Fatalf("the gateway note does not say why there is no continue form: %q", note)
		}
		e.screenshot(shot("gateway-session"))
		e.open("/#/s/plain")
		e.waitFor("the plain session", `document.querySelector('[data-testid="session-id"]')?.innerText === "plain"`)
		if note := e.evalString(`document.querySelector('[data-testid="session-gateway-note"]').innerText`); note != "" {
			t.Fatalf("a plain session has the gateway note: %q", note)
		}
		if e.evalBool(`document.querySelector('[data-testid="continue-form"]').hidden`) {
			t.Fatal("a plain session has no continue form")
		}
	})
}
