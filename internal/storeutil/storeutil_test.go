package storeutil

import (
	"strings"
	"testing"

	"kompact"
)

func TestSessionIDs(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := NewSessionID()
		if len(id) != 14 || !strings.HasPrefix(id, "s_") || strings.Trim(id[2:], idAlphabet) != "" {
			t.Fatalf("session id %q is not s_ and 12 base32 characters", id)
		}
		if seen[id] {
			t.Fatalf("session id %q twice", id)
		}
		seen[id] = true
	}
}

// TestAssignIDs: new ids continue after the highest "m_N" id, skip taken
// ones and leave other ids alone; reading ids that are not "m_N" allocates
// nothing (a failed ParseInt would allocate its error for each).
func TestAssignIDs(t *testing.T) {
	msgs := []kompact.Message{{ID: "m_5"}, {ID: "x"}, {}, {ID: "m_abc"}, {}}
	next := int64(1)
	AssignIDs(msgs, map[string]bool{"m_6": true}, &next)
	var got []string
	for _, m := range msgs {
		got = append(got, m.ID)
	}
	if strings.Join(got, ",") != "m_5,x,m_7,m_abc,m_8" || next != 9 {
		t.Errorf("ids %v, next %d", got, next)
	}
	named := []kompact.Message{{ID: "u1"}, {ID: "call-2"}, {ID: "m_x"}}
	if n := testing.AllocsPerRun(100, func() { AssignIDs(named, nil, &next) }); n != 0 {
		t.Errorf("%v allocations reading ids that are not m_N", n)
	}
}
