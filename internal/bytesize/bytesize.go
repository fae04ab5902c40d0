// Package bytesize renders byte counts for people.
package bytesize

import (
	"strconv"
	"strings"
)

// FormatBytes renders a size for people: "4 MiB", "1.5 KiB", "900 bytes".
func FormatBytes(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB"}
	f, u := float64(n), 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	if u == 0 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	return strings.TrimSuffix(strconv.FormatFloat(f, 'f', 1, 64), ".0") + " " + units[u]
}
