package integration

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testserver"
)

// The page over the gateway's own compactions (issue 28 §4): its
// precomputed summary is not a person's to review, and no Compact is
// offered while it compacts a session. The gateway's upstream and
// compaction LLM is gateway_test.go's fake, whose gate can hold a
// compaction.

// gatewayPageEnv starts a browser environment whose one agent, "gw", is
// the gateway tests' (testserver.GatewayAgents over up).
func gatewayPageEnv(t *testing.T, up *apitest.FakeUpstream, gw testserver.Gateway) *browserEnv {
	return newBrowserEnv(t, browserOptions{agents: func(string) string { return testserver.GatewayAgents(up.Srv.URL+"/v1", gw) }})
}

// TestBrowserGatewayPrecomputeApart: the gateway's precomputed summary is
// listed apart from a person's preview of the same session, says the
// gateway applies it by itself, has no Review button, and does not mark
// the session as having a summary to review; a person's preview beside it
// does.
func TestBrowserGatewayPrecomputeApart(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	e := gatewayPageEnv(t, up, testserver.Gateway{Auto: true, Precompute: 0.8})
	c := apitest.NewGatewayClient(e.srv.URL, option.WithHeader("X-Kompact-Session", "apart"))
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys")}}
	_, done := apitest.TurnsUntilCompacting(t, up, c, cv, e.srv.URL, "apart")
	<-done
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if p := e.apiList("/v1/sessions/apart/previews", "previews"); len(p) == 1 && p[0]["gateway"] == true {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the precomputed summary is not listed as the gateway's")
		}
	}
	gatewayItem := `document.querySelector('[data-testid="open-preview"][data-gateway="true"]')`
	waiting := `!!document.querySelector('[data-session-id="apart"] [data-testid="preview-waiting"]')`
	e.open("/#/s/apart")
	e.waitFor("the gateway's summary", gatewayItem)
	e.waitFor("the session listed", `!!document.querySelector('[data-session-id="apart"]')`)
	if text := e.evalString(gatewayItem + `.innerText`); !strings.Contains(text, "The gateway's precomputed summary") || !strings.Contains(text, "applies it by itself") || !strings.Contains(text, "Nothing to review") {
		t.Errorf("the gateway's summary says %q", text)
	}
	if e.evalBool(`!!document.querySelector('[data-testid="open-preview-reopen"]')`) {
		t.Error("the gateway's precomputed summary has a Review button")
	}
	if e.evalBool(waiting) || e.evalBool(`document.body.innerText.includes("summary to review")`) {
		t.Error("the session is marked as having a summary to review, with only the gateway's")
	}
	e.screenshot("browser-gateway-precompute.png")

	if status, body := e.api("POST", "/v1/sessions/apart/actions/compact_conversation", `{"preview":true}`); status != http.StatusOK || body["status"] != "preview" {
		t.Fatalf("a person's preview: %d %v", status, body)
	}
	e.do("reload the page", chromedp.Reload())
	e.waitFor("both summaries", `document.querySelectorAll('[data-testid="open-preview"]').length === 2`)
	e.waitFor("the mark of the person's", waiting)
	var items []struct {
		Gateway bool   `json:"gateway"`
		Text    string `json:"text"`
		Review  bool   `json:"review"`
	}
	e.eval(`JSON.stringify([...document.querySelectorAll('[data-testid="open-preview"]')].map((li) => ({
		gateway: li.dataset.gateway === "true", text: li.innerText,
		review: !!li.querySelector('[data-testid="open-preview-reopen"]')})))`, &items)
	gateways := 0
	for _, it := range items {
		if it.Gateway {
			gateways++
		}
		if it.Review == it.Gateway || strings.Contains(it.Text, "A summary to review") == it.Gateway || strings.Contains(it.Text, "precomputed") != it.Gateway {
			t.Errorf("a listed summary: %+v", it)
		}
	}
	if gateways != 1 {
		t.Errorf("%d of the 2 summaries are the gateway's: %+v", gateways, items)
	}
	e.screenshot("browser-gateway-precompute-and-preview.png")
	e.checkNoJSErrors()
}

// TestBrowserGatewayRunningNoCompact: while the gateway compacts a session
// before a turn (the fake LLM holds the compaction), the page on it says a
// compaction runs on the server and offers no Compact; once the
// gateway's compaction ended, Compact is offered again.
func TestBrowserGatewayRunningNoCompact(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	e := gatewayPageEnv(t, up, testserver.Gateway{Auto: true})
	openGate := apitest.ShutGate(t, up)
	c := apitest.NewGatewayClient(e.srv.URL, option.WithHeader("X-Kompact-Session", "held"))
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys")}}
	_, done := apitest.TurnsUntilCompacting(t, up, c, cv, e.srv.URL, "held")
	compact := `document.querySelector('[data-testid="compact-conversation"]')`
	e.open("/#/s/held")
	e.waitFor("the session", `document.querySelectorAll('[data-testid="message"]').length > 2`)
	e.waitFor("the running note", `!!document.querySelector('[data-testid="running-elsewhere"]')`)
	if note := e.evalString(`document.querySelector('[data-testid="running-elsewhere"]').innerText`); !strings.Contains(note, "gateway compaction") {
		t.Errorf("the running note says %q", note)
	}
	e.waitFor("the plan", planReady) // the dry run's answer must not offer Compact either
	if e.evalBool(compact + `.hidden || !` + compact + `.disabled`) {
		t.Error("Compact is offered while the gateway compacts the session")
	}
	e.screenshot("browser-gateway-running.png")
	openGate()
	if h := <-done; h.Get("X-Kompact-Forwarded") != "compacted" {
		t.Fatalf("the held turn was forwarded %q", h.Get("X-Kompact-Forwarded"))
	}
	e.waitFor("the note gone", `!document.querySelector('[data-testid="running-elsewhere"]')`)
	// Compact is no longer held by the gateway's run: offered, or disabled only
	// because the plan, read again after the compaction, has nothing left to
	// compact (the page reads it again when it sees the session changed).
	e.waitFor("Compact offered again", `!`+compact+`.hidden && (!`+compact+`.disabled || document.querySelector('[data-testid="will-compact"]').dataset.state === "noop")`)
	e.checkNoJSErrors()
}

// TestBrowserUnknownWindowNote: for an agent that compacts automatically
// but whose model's context size is unknown (no llm.max_context_size, no
// model list), the gauge's note says automatic compaction cannot run and
// what to set (service.UnknownWindowWarning's case); an agent whose size
// is known has no such note.
func TestBrowserUnknownWindowNote(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{agents: func(url string) string {
		return `default_agent: unsized
agents:
  unsized:
    llm: {base_url: ` + url + `, model: fake-chat}
    compaction:
      enabled: true
      type: kimi
      auto: {enabled: true}
  sized:
    llm: {base_url: ` + url + `, model: fake-chat, max_context_size: 100000}
    compaction:
      enabled: true
      type: kimi
      auto: {enabled: true}
`
	}})
	e.importSession(strings.Replace(longSession(t, "unsized", 3), `"agent":"tester"`, `"agent":"unsized"`, 1))
	e.importSession(strings.Replace(longSession(t, "sized", 3), `"agent":"tester"`, `"agent":"sized"`, 1))
	if _, c := e.api("GET", "/v1/sessions/unsized/context", ""); c["max_context_size"] != 0.0 || c["auto_compaction"] != true {
		t.Fatalf("the context of unsized: %v", c)
	}
	note := `(document.querySelector('[data-testid="context-gauge-note"]') || {}).innerText || ""`
	e.open("/#/s/unsized")
	e.waitFor("the gauge", `document.querySelector('#session-context [data-testid="context-gauge"]')?.dataset.known === "false"`)
	e.waitFor("the note", note)
	if got := e.evalString(note); !strings.Contains(got, "Automatic compaction is on but cannot run") || !strings.Contains(got, "context size is unknown") || !strings.Contains(got, "Set llm.max_context_size") {
		t.Errorf("the gauge's note says %q", got)
	}
	if code := e.evalString(`[...document.querySelectorAll('[data-testid="context-gauge-note"] code')].map((c) => c.textContent).join(",")`); !strings.Contains(code, "llm.max_context_size") {
		t.Errorf("the note's settings as code: %q", code)
	}
	e.screenshot("browser-unknown-window.png")
	e.open("/#/s/sized")
	e.waitFor("the sized gauge", `document.querySelector('#session-context [data-testid="context-gauge"]')?.dataset.known === "true"`)
	if got := e.evalString(note); got != "" {
		t.Errorf("a session whose window is known has the note %q", got)
	}
	e.checkNoJSErrors()
}
