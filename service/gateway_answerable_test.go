package service

import (
	"testing"

	"kompact"
)

// TestGatewayAnswerable (issue 38, High): a compaction request's history
// answers a session's summary when it continues the session, or when it
// holds as many messages of which all but the last two are the session's
// (Claude Code's /compact reshapes its last assistant message); not when
// it shares less, nor when it is longer or shorter.
func TestGatewayAnswerable(t *testing.T) {
	session := fakeConv{text(kompact.RoleUser, "a"), text(kompact.RoleAssistant, "b"), text(kompact.RoleUser, "c"),
		text(kompact.RoleAssistant, "d"), text(kompact.RoleUser, "e")}
	st := &GatewayState{}
	st.setClient(len(session), ChainOf(session))
	with := func(i int, s string) fakeConv {
		c := append(fakeConv{}, session...)
		c[i] = text(c[i].Role, s)
		return c
	}
	for _, tc := range []struct {
		name    string
		history fakeConv
		want    bool
	}{
		{"the same", session, true},
		{"continued", append(append(fakeConv{}, session...), text(kompact.RoleAssistant, "f")), true},
		{"the last reshaped", with(4, "e'"), true},
		{"the one before reshaped", with(3, "d'"), true},
		{"an earlier message another", with(2, "c'"), false},
		{"only the first the same", fakeConv{session[0], text(kompact.RoleAssistant, "x"), text(kompact.RoleUser, "y"), text(kompact.RoleAssistant, "z"), text(kompact.RoleUser, "w")}, false},
		{"shorter", session[:4], false},
	} {
		if got := st.answerable(ChainOf(tc.history)); got != tc.want {
			t.Errorf("%s: answerable %v, want %v", tc.name, got, tc.want)
		}
	}
	old := &GatewayState{ClientCount: st.ClientCount, ClientChain: st.ClientChain} // written before SettledChain was kept
	if old.answerable(ChainOf(with(3, "d'"))) || !old.answerable(ChainOf(session)) {
		t.Errorf("a state without SettledChain answers only the session's own history")
	}
}
