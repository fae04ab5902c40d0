package integration

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"kompact/internal/testing/fakellm"
)

// TestBrowserGatewaySideCalls (issue 39 §2): the page's list leaves out
// the gateway's side calls (opencode's title request) and lists the
// ordinary client's first turn; "Show side calls" lists them, marked; a
// side call opened by its address is shown with its title.
func TestBrowserGatewaySideCalls(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	e.llm.SetDefault(fakellm.Answer(fakellm.Text("Flaky test fix")))
	post := func(h http.Header, body string) string {
		t.Helper()
		req, _ := http.NewRequest("POST", e.srv.URL+"/gateway/tiny/v1/chat/completions", strings.NewReader(body))
		req.Header = h
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("X-Kompact-Session") == "" {
			t.Fatalf("gateway: %d %v %s", resp.StatusCode, resp.Header, b)
		}
		return resp.Header.Get("X-Kompact-Session")
	}
	oc := http.Header{"User-Agent": {"opencode/1.14.2"}, "X-Session-Affinity": {"ses_browser0000001"}}
	side := post(oc, `{"model":"fake-chat","messages":[{"role":"system","content":"You name conversations."},{"role":"user","content":"Why does the build fail?"}]}`)
	plain := post(http.Header{}, `{"model":"fake-chat","messages":[{"role":"user","content":"What is a flaky test?"}]}`)
	item := func(id string) string { return `document.querySelector('[data-session-id="` + id + `"]')` }
	e.open("/")
	e.waitFor("the ordinary client's session", item(plain)+` !== null`)
	if e.evalBool(item(side) + ` !== null`) {
		t.Fatal("the side call is listed by default")
	}
	e.check(`[data-testid="show-side-calls"]`)
	e.waitFor("the side call, marked", item(side)+`?.querySelector('[data-testid="session-side-call"]') != null`)
	if e.evalBool(item(plain) + `.querySelector('[data-testid="session-side-call"]') !== null`) {
		t.Fatal("the ordinary client's session is marked a side call")
	}
	e.open("/#/s/" + side)
	e.waitFor("the side call's conversation", `document.body.innerText.includes("Why does the build fail?")`)
	e.waitFor("its title", `document.querySelector('[data-testid="session-title"]')?.innerText.includes("Why does the build fail?")`)
}
