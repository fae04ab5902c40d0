package service

import (
	"crypto/sha256"
	"testing"

	"kompact"
)

// fakeConv is a Conversation of plain messages whose digest is that of
// their JSON form.
type fakeConv []kompact.Message

func (c fakeConv) Len() int                               { return len(c) }
func (c fakeConv) Digest(i int) [32]byte                  { return sha256.Sum256(c[i].AppendJSON(nil)) }
func (c fakeConv) Message(i int) (kompact.Message, error) { return c[i], nil }

func text(role kompact.Role, s string) kompact.Message {
	return kompact.Message{Role: role, Content: []kompact.Part{kompact.TextPart(s)}}
}

// TestChainAndKey: the chain follows the messages' content in order, and
// the conversation key only the system message and the first user message.
func TestChainAndKey(t *testing.T) {
	a := fakeConv{text(kompact.RoleSystem, "be brief"), text(kompact.RoleUser, "hi"), text(kompact.RoleAssistant, "hello")}
	b := fakeConv{text(kompact.RoleSystem, "be brief"), text(kompact.RoleUser, "hi"), text(kompact.RoleAssistant, "HELLO")}
	ca, cb := ChainOf(a), ChainOf(b)
	if len(ca) != 4 || ca.at(2) != cb.at(2) || ca.at(3) == cb.at(3) || ca.at(4) != "" {
		t.Fatalf("chains: %v / %v", ca, cb)
	}
	role := func(c fakeConv) func(int) kompact.Role { return func(i int) kompact.Role { return c[i].Role } }
	ka, kb := ConversationKey("x", a, role(a)), ConversationKey("x", b, role(b))
	if ka != kb || ka == ConversationKey("y", a, role(a)) {
		t.Fatalf("keys: %s %s", ka, kb)
	}
	c := fakeConv{text(kompact.RoleSystem, "be brief"), text(kompact.RoleUser, "other")}
	if ConversationKey("x", c, role(c)) == ka {
		t.Fatal("another first user message gives the same key")
	}
}

func TestClientIndex(t *testing.T) {
	for id, want := range map[string]int{"g_0": 0, "g_17": 17, "g_": -1, "g_01": -1, "m_3": -1, "g_x": -1, "g_-1": -1, "": -1} {
		if got := clientIndex(id); got != want {
			t.Errorf("clientIndex(%q) = %d, want %d", id, got, want)
		}
	}
}

// TestSubstitutionScan derives the substitution from a session's messages
// as compactions leave them.
func TestSubstitutionScan(t *testing.T) {
	conv := fakeConv{}
	for i := range 10 {
		conv = append(conv, text(kompact.RoleUser, string(rune('a'+i))))
	}
	ch := ChainOf(conv)
	withID := func(m kompact.Message, id string) kompact.Message { m.ID = id; return m }
	sum := withID(text(kompact.RoleUser, "summary"), "m_12")
	cases := []struct {
		name        string
		msgs        []kompact.Message
		n           int
		head, count int
		nilSub      bool
	}{
		{"never compacted", []kompact.Message{withID(conv[0], "g_0"), withID(conv[1], "g_1")}, 2, 0, 0, true},
		{"system kept, tail preserved", []kompact.Message{withID(conv[0], "g_0"), sum, withID(conv[7], "g_7"), withID(conv[8], "g_8")}, 9, 1, 7, false},
		{"all compacted", []kompact.Message{sum}, 5, 0, 5, false},
		{"a second compaction", []kompact.Message{withID(conv[0], "g_0"), sum, withID(conv[9], "g_9")}, 10, 1, 9, false},
	}
	for _, c := range cases {
		var sc substitutionScan
		for _, m := range c.msgs {
			if !sc.add(m) {
				break
			}
		}
		sub := sc.result(c.n, ch)
		if c.nilSub {
			if sub != nil {
				t.Errorf("%s: %+v, want none", c.name, sub)
			}
			continue
		}
		if sub == nil || sub.Head != c.head || sub.Count != c.count || len(sub.Summary) != 1 || sub.Chain != ch.at(c.count) {
			t.Errorf("%s: %+v, want head %d count %d", c.name, sub, c.head, c.count)
		}
	}
}

// TestGatewayStateForward: a state's substitution applies to a request
// that begins with the compacted messages, and survives its JSON form.
func TestGatewayStateForward(t *testing.T) {
	conv := fakeConv{text(kompact.RoleSystem, "s"), text(kompact.RoleUser, "1"), text(kompact.RoleAssistant, "2"), text(kompact.RoleUser, "3")}
	ch := ChainOf(conv)
	st := &GatewayState{ClientCount: 4, ClientChain: ch.at(4), DerivedAt: 3,
		Sub: &Substitution{Head: 1, Count: 3, Chain: ch.at(3), Summary: []kompact.Message{text(kompact.RoleUser, "summary")}}}
	back, err := decodeGatewayState(st.encode())
	if err != nil {
		t.Fatal(err)
	}
	head, summary, from := back.forward(ch)
	if head != 1 || from != 3 || len(summary) != 1 || string(summary[0].AppendJSON(nil)) != string(st.Sub.Summary[0].AppendJSON(nil)) {
		t.Fatalf("forward: %d %v %d", head, summary, from)
	}
	if !back.matches(ch) || back.matches(ch[:3]) {
		t.Fatal("matches")
	}
	edited := append(fakeConv{text(kompact.RoleSystem, "s"), text(kompact.RoleUser, "1 edited")}, conv[2:]...)
	if _, summary, _ := back.forward(ChainOf(edited)); summary != nil {
		t.Fatal("an edited history got the summary")
	}
	if _, summary, _ := back.forward(ch[:3]); summary != nil {
		t.Fatal("a history shorter than the compacted part got the summary")
	}
}
