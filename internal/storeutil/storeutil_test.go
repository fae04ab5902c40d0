package storeutil

import (
	"strings"
	"testing"
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
