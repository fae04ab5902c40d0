package integration

import (
	"context"
	"io"
	"strings"
	"testing"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testenv"
)

// TestBrowserGatewayContinuedFrom (issue 39 §2): after Claude Code
// compacted on its own side, the session the gateway starts beside names
// the one it continues (continued_from), and the page links each to the
// other.
func TestBrowserGatewayContinuedFrom(t *testing.T) {
	fake := apitest.LeakFake(t)
	t.Setenv("KOMPACT_TEST_ANTHROPIC_KEY", "sk-agent")
	opt := browserOptions{agents: func(string) string { return apitest.CCAgents(fake.URL, "") }}
	atWidth(t, opt, func(e *browserEnv, shot func(string) string) {
		const sid = "c0ffee00-0000-4000-8000-000000000392"
		url := e.srv.URL + "/gateway/cc/v1/messages?beta=true"
		cont := `{"role":"user","content":` + apitest.JSONString(testenv.ClaudeCodeContinuation(t)+"\n\nSummary:\nthe upstream's own summary") + `}`
		var ids []string
		for _, msgs := range []string{`[{"role":"user","content":"fix the build"}]`, "[" + cont + `,{"role":"user","content":"go on"}]`} {
			resp := apitest.PostMessages(t, context.Background(), url, apitest.CCHeaders(sid), apitest.CCBody(msgs))
			_, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			ids = append(ids, resp.Header.Get("X-Kompact-Session"))
		}
		if ids[0] != sid || ids[1] == sid || !strings.HasPrefix(ids[1], sid+"-") {
			t.Fatalf("sessions %q", ids)
		}
		e.open("/#/s/" + ids[1])
		e.waitFor("the link to the session it continues", `[...document.querySelectorAll('[data-testid="session-gateway-note"] a')].some(a => a.getAttribute("href") === "#/s/`+sid+`")`)
		e.screenshot(shot("gateway-continued"))
		e.open("/#/s/" + sid)
		e.waitFor("the link to the session that continues it", `[...document.querySelectorAll('[data-testid="session-gateway-note"] a')].some(a => a.getAttribute("href") === "#/s/`+ids[1]+`")`)
	})
}
