package storeutil

import (
	"testing"
	"time"

	"kompact"
)

func TestPreviewRules(t *testing.T) {
	lim := kompact.PreviewLimits{MaxCount: 2, MaxBytes: 10}
	for _, c := range []struct {
		n           int
		total, size int64
		want        bool
	}{
		{0, 0, 10, false}, {1, 4, 6, false}, {1, 5, 6, true}, {2, 0, 1, true},
	} {
		if got := PreviewsCrowded(c.n, c.total, c.size, lim); got != c.want {
			t.Errorf("PreviewsCrowded(%d, %d, %d) = %v, want %v", c.n, c.total, c.size, got, c.want)
		}
	}
	if _, err := PreviewSize(&kompact.Preview{Body: make([]byte, 11)}, lim); err == nil {
		t.Error("PreviewSize accepted 11 bytes over a 10-byte budget")
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := LivePreview(&kompact.Preview{ExpiresAt: now}, now); kompact.AsError(err).Code != kompact.ENotFound {
		t.Errorf("LivePreview at its expiry: %v, want ENotFound", err)
	}
	if p, err := LivePreview(&kompact.Preview{ExpiresAt: now.Add(time.Second)}, now); err != nil || p == nil {
		t.Errorf("LivePreview before its expiry: %v", err)
	}
}
