package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testserver"
)

// TestUnknownAgentNamesNoServerPath: a client that names an agent the
// server lacks is told the agents it has, on /v1 and on the gateway, but
// not the path of the server's configuration file (agents.yaml in the
// tests).
func TestUnknownAgentNamesNoServerPath(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	r := e.do("POST", "/v1/sessions", map[string]any{"agent": "nope"})
	wantError(t, r, 400, "invalid_request")
	checkAgentError(t, "/v1", string(r.body), "fake, off")

	srv := newGatewayServer(t, testserver.SQLite(t), apitest.NewFakeUpstream(t), 0)
	resp, err := http.Post(srv.URL+"/gateway/nope/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 404 || !json.Valid(b) {
		t.Fatalf("gateway: %d %s", resp.StatusCode, b)
	}
	checkAgentError(t, "the gateway", string(b), "gw")
}

// checkAgentError: body names the agent asked for and the list of agents,
// and no file.
func checkAgentError(t *testing.T, where, body, list string) {
	t.Helper()
	if !strings.Contains(body, `no agent \"nope\"`) || !strings.Contains(body, "available agents: "+list) || strings.Contains(body, "agents.yaml") {
		t.Errorf("%s: an unknown agent's error: %s", where, body)
	}
}
