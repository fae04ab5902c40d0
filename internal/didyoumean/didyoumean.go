// Package didyoumean finds the name a user probably meant: the closest of a
// list of valid names to a mistyped one. The configuration's unknown fields
// and agents and the CLI's unknown flags and commands share it.
package didyoumean

import (
	"math"
	"strings"
)

// Closest returns the candidate closest to s, ignoring case, or "" when none
// is close: within an edit distance of a third of s (at least 1, and less
// than all of s), or else, for an s of three bytes or more, the first
// candidate that starts with s.
func Closest(s string, candidates []string) string {
	best, bestD := "", math.MaxInt
	ls := strings.ToLower(s)
	for _, c := range candidates {
		if d := Distance(ls, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	if best != "" && bestD <= max(1, len(s)/3) && bestD < len(s) {
		return best
	}
	if len(s) >= 3 {
		for _, c := range candidates {
			if strings.HasPrefix(strings.ToLower(c), ls) {
				return c
			}
		}
	}
	return ""
}

// Distance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and transpositions of bytes.
func Distance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
