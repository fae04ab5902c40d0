package service

import (
	"testing"

	"kompact"
)

// TestGatewayAnswerable (issue 38, High): a compaction request's history
// answers a session's summary when it continues the session, exactly:
// not when any of its messages is another (the last two included: a
// reshaped history is matched by the form its turns sent, ResentForms),
// nor when it is shorter.
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
		{"the last another", with(4, "e'"), false},
		{"the one before another", with(3, "d'"), false},
		{"an earlier message another", with(2, "c'"), false},
		{"shorter", session[:4], false},
	} {
		if got := st.answerable(ChainOf(tc.history)); got != tc.want {
			t.Errorf("%s: answerable %v, want %v", tc.name, got, tc.want)
		}
	}
}
