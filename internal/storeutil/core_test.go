package storeutil

import (
	"testing"
	"time"
)

// TestNowGrows: the times a Core hands out only grow, in the database's
// precision, even past a clock that goes back.
func TestNowGrows(t *testing.T) {
	c := NewCore(nil, "test store", 0, time.Microsecond)
	a := c.now(time.Time{})
	b := c.now(a)
	if !b.After(a) || a.Location() != time.UTC || a.Nanosecond()%1000 != 0 {
		t.Fatalf("now: %s then %s, want growing UTC times in microseconds", a, b)
	}
	later := time.Now().Add(time.Hour)
	if got := c.now(later); !got.After(later) {
		t.Fatalf("now(after) = %s, not after %s", got, later)
	}
}
