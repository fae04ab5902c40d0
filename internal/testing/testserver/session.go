package testserver

import "fmt"

// Session is a session document, as the import route takes it, of n
// user/assistant pairs after a system message: sys, u1, a1, u2, a2, ...;
// each answer holds a thinking part and a text part. An empty id leaves
// the id out.
func Session(id string, pairs int) map[string]any {
	msgs := []map[string]any{{"id": "sys", "role": "system", "content": "You are an agent."}}
	for i := 1; i <= pairs; i++ {
		msgs = append(msgs,
			map[string]any{"id": fmt.Sprintf("u%d", i), "role": "user", "content": fmt.Sprintf("question %d", i)},
			map[string]any{"id": fmt.Sprintf("a%d", i), "role": "assistant", "content": []any{
				map[string]any{"type": "think", "think": "hmm"}, map[string]any{"type": "text", "text": fmt.Sprintf("answer %d", i)}}})
	}
	doc := map[string]any{"messages": msgs}
	if id != "" {
		doc["id"] = id
	}
	return doc
}
