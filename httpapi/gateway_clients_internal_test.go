package httpapi

import (
	"net/http"
	"testing"

	"kompact"
	"kompact/service"
)

// TestSideCallRules (issue 39 §2): a side call is told by its client's
// identity and the request's shape: opencode's chat request without
// tools; Claude Code's Messages request without tools for another model
// than the agent's; Codex's Responses request without tools and with a
// "text" key (the hook the Responses face calls, with the headers of
// ../shared/codex/README.md). No other client's request is one, whatever
// its shape.
func TestSideCallRules(t *testing.T) {
	hdr := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	oc := hdr("User-Agent", "opencode/1.14.2", "X-Session-Affinity", "ses_1")
	cc := hdr("User-Agent", "claude-cli/2.1.332 (external, sdk-cli)")
	exec := hdr("Originator", "codex_exec", "User-Agent", "codex_exec/0.171.0 (Debian 12.0.0; x86_64) xterm (codex_exec; 0.171.0)")
	tui := hdr("Originator", "codex-tui")
	other := hdr("User-Agent", "OpenAI/Python 1.99.0")
	a := &kompact.Agent{LLM: kompact.LLMConfig{Model: "main-model"}}
	for _, c := range []struct {
		what string
		got  bool
		want bool
	}{
		{"opencode, no tools", chatSideCall(oc, false), true},
		{"opencode, tools", chatSideCall(oc, true), false},
		{"another chat client, no tools", chatSideCall(other, false), false},
		{"Claude Code, no tools, its small model", messagesSideCall(cc, a, false, "small-model"), true},
		{"Claude Code, no tools, the agent's model", messagesSideCall(cc, a, false, "main-model"), false},
		{"Claude Code, tools", messagesSideCall(cc, a, true, "small-model"), false},
		{"another Messages client, no tools", messagesSideCall(other, a, false, "small-model"), false},
		{"codex exec, no tools, text", codexSideCall(exec, false, true), true},
		{"codex tui, no tools, text", codexSideCall(tui, false, true), true},
		{"codex, tools, text", codexSideCall(exec, true, true), false},
		{"codex, no tools, no text", codexSideCall(exec, false, false), false},
		{"another Responses client, no tools, text", codexSideCall(other, false, true), false},
	} {
		if c.got != c.want {
			t.Errorf("%s: side call %v, want %v", c.what, c.got, c.want)
		}
	}
	if n := opencodeNaming(oc, &kompact.Agent{Name: "gw"}, service.GatewayNaming{}); n.Key != "opencode:gw:ses_1" || n.NewID != "ses_1" || !n.OneConversation || n.SideCall {
		t.Errorf("opencode's naming: %+v", n)
	}
	if n := opencodeNaming(oc, &kompact.Agent{Name: "gw"}, service.GatewayNaming{SessionID: "named"}); n.Key != "" || n.SessionID != "named" {
		t.Errorf("opencode's naming with X-Kompact-Session: %+v", n)
	}
	if n := opencodeNaming(hdr("X-Session-Affinity", "ses_1"), &kompact.Agent{Name: "gw"}, service.GatewayNaming{}); n.Key != "" || n.NewID != "" {
		t.Errorf("another client's x-session-affinity keys its conversation: %+v", n)
	}
}
