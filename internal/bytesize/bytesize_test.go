package bytesize_test

import (
	"testing"

	"kompact/internal/bytesize"
)

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{900: "900 bytes", 1 << 10: "1 KiB", 1536: "1.5 KiB", 4 << 20: "4 MiB", 32<<20 - 1<<10: "32 MiB", 1 << 30: "1 GiB"} {
		if got := bytesize.FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
