package artifacts

import (
	"index/suffixarray"
	"strings"
)

// Haystack is a text that is searched for many substrings (a summary,
// for the artifacts of a range): the first searches scan it, and once
// they are more than a few a suffix array of it, built once, answers each
// in time logarithmic in its length rather than linear.
type Haystack struct {
	text     string
	searches int
	index    *suffixarray.Index
}

// scansBeforeIndex is how many searches scan the text before the index is
// built: few searches do not pay for it.
const scansBeforeIndex = 16

// NewHaystack returns text to search.
func NewHaystack(text string) *Haystack { return &Haystack{text: text} }

// Contains reports whether sub is within the text (strings.Contains).
func (h *Haystack) Contains(sub string) bool {
	if h.index == nil {
		if h.searches < scansBeforeIndex || len(h.text) < 256 {
			h.searches++
			return strings.Contains(h.text, sub)
		}
		h.index = suffixarray.New([]byte(h.text))
	}
	return sub == "" || len(h.index.Lookup([]byte(sub), 1)) > 0
}
