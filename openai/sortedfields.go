package openai

import "slices"

// SortedFieldNames returns the keys of fields in order.
func SortedFieldNames(fields map[string]any) []string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
