package kompact

import (
	"crypto/sha256"
	"testing"
)

// fakeConv is a Conversation of plain messages whose digest is that of
// their JSON form.
type fakeConv []Message

func (c fakeConv) Len() int                       { return len(c) }
func (c fakeConv) Digest(i int) [32]byte          { return sha256.Sum256(c[i].AppendJSON(nil)) }
func (c fakeConv) Message(i int) (Message, error) { return c[i], nil }

func text(role Role, s string) Message { return Message{Role: role, Content: []Part{TextPart(s)}} }

// TestChainAndKey: the chain follows the messages' content in order, and
// the conversation key only the system message and the first user message.
func TestChainAndKey(t *testing.T) {
	a := fakeConv{text(RoleSystem, "be brief"), text(RoleUser, "hi"), text(RoleAssistant, "hello")}
	b := fakeConv{text(RoleSystem, "be brief"), text(RoleUser, "hi"), text(RoleAssistant, "HELLO")}
	ca, cb := ChainOf(a), ChainOf(b)
	if len(ca) != 4 || ca.at(2) != cb.at(2) || ca.at(3) == cb.at(3) || ca.at(4) != "" {
		t.Fatalf("chains: %v / %v", ca, cb)
	}
	role := func(c fakeConv) func(int) Role { return func(i int) Role { return c[i].Role } }
	ka, kb := ConversationKey("x", a, role(a)), ConversationKey("x", b, role(b))
	if ka != kb || ka == ConversationKey("y", a, role(a)) {
		t.Fatalf("keys: %s %s", ka, kb)
	}
	c := fakeConv{text(RoleSystem, "be brief"), text(RoleUser, "other")}
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
		conv = append(conv, text(RoleUser, string(rune('a'+i))))
	}
	ch := ChainOf(conv)
	withID := func(m Message, id string) Message { m.ID = id; return m }
	sum := withID(text(RoleUser, "summary"), "m_12")
	cases := []struct {
		name        string
		msgs        []Message
		n           int
		head, count int
		nilSub      bool
	}{
		{"never compacted", []Message{withID(conv[0], "g_0"), withID(conv[1], "g_1")}, 2, 0, 0, true},
		{"system kept, tail preserved", []Message{withID(conv[0], "g_0"), sum, withID(conv[7], "g_7"), withID(conv[8], "g_8")}, 9, 1, 7, false},
		{"all compacted", []Message{sum}, 5, 0, 5, false},
		{"a second compaction", []Message{withID(conv[0], "g_0"), sum, withID(conv[9], "g_9")}, 10, 1, 9, false},
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
	conv := fakeConv{text(RoleSystem, "s"), text(RoleUser, "1"), text(RoleAssistant, "2"), text(RoleUser, "3")}
	ch := ChainOf(conv)
	st := &GatewayState{ClientCount: 4, ClientChain: ch.at(4), DerivedAt: 3,
		Sub: &Substitution{Head: 1, Count: 3, Chain: ch.at(3), Summary: []Message{text(RoleUser, "summary")}}}
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
	edited := append(fakeConv{text(RoleSystem, "s"), text(RoleUser, "1 edited")}, conv[2:]...)
	if _, summary, _ := back.forward(ChainOf(edited)); summary != nil {
		t.Fatal("an edited history got the summary")
	}
	if _, summary, _ := back.forward(ch[:3]); summary != nil {
		t.Fatal("a history shorter than the compacted part got the summary")
	}
}
