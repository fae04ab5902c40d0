package config

import (
	"strings"
	"testing"
)

// TestGatewayBlock reads an agent's gateway block (issue 22) and its
// defaults, and writes it back.
func TestGatewayBlock(t *testing.T) {
	c, err := Parse([]byte(base), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := c.Agents["kimi"].Gateway
	if g.Enabled || g.ForwardAuthorization || g.Precompute() != 0.8 || !g.AskStreamUsage() {
		t.Fatalf("defaults: %+v (precompute %v, stream usage %v)", g, g.Precompute(), g.AskStreamUsage())
	}
	c, err = Parse([]byte(base+"    gateway: {enabled: true, forward_authorization: true, precompute_ratio: 0, stream_usage: false}\n"), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g = c.Agents["kimi"].Gateway
	if !g.Enabled || !g.ForwardAuthorization || g.Precompute() != 0 || g.AskStreamUsage() {
		t.Fatalf("set: %+v", g)
	}
	for _, bad := range []struct{ yaml, msg string }{
		{"    gateway: {precompute_ratio: 1.5}\n", "agents.kimi.gateway.precompute_ratio: must be between 0 and 1, got 1.5"},
		{"    gateway: {enable: true}\n", `agents.kimi.gateway.enable: unknown field; did you mean "enabled"?`},
		{"    gateway: {stream_usage: maybe}\n", "agents.kimi.gateway.stream_usage"},
	} {
		_, err := Parse([]byte(base+bad.yaml), "agents.yaml")
		if err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%q: error %v, want it to say %q", bad.yaml, err, bad.msg)
		}
	}
}
