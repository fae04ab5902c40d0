package storeutil

import (
	"bytes"

	"kompact"
)

// EffectOfRestore compares the session's messages now with a revision's.
func EffectOfRestore(current, restored []kompact.Message) kompact.RestoreEffect {
	return RestoreEffectOf(messageIDs(current), messageIDs(restored), func(i, j int) bool {
		return bytes.Equal(current[i].AppendJSON(nil), restored[j].AppendJSON(nil))
	})
}

// RestoreEffectOf is EffectOfRestore of lists known by their messages'
// ids, current and restored: same(i, j) reports whether current[i] and
// restored[j], of one id, have one JSON form. It is asked once per id
// both lists hold, of the last message with that id in each.
func RestoreEffectOf(current, restored []string, same func(i, j int) bool) kompact.RestoreEffect {
	out := kompact.RestoreEffect{Messages: len(restored), Drops: []string{}, Adds: []string{}}
	now, then := lastIndex(current), lastIndex(restored)
	kept := make(map[string]bool, min(len(now), len(then)))
	for id, i := range now {
		if j, ok := then[id]; ok && same(i, j) {
			kept[id] = true
		}
	}
	for _, id := range current {
		if !kept[id] {
			out.Drops = append(out.Drops, id)
		}
	}
	for _, id := range restored {
		if !kept[id] {
			out.Adds = append(out.Adds, id)
		}
	}
	return out
}

func messageIDs(msgs []kompact.Message) []string {
	ids := make([]string, len(msgs))
	for i := range msgs {
		ids[i] = msgs[i].ID
	}
	return ids
}

// lastIndex maps each id of ids to the index of its last occurrence.
func lastIndex(ids []string) map[string]int {
	m := make(map[string]int, len(ids))
	for i, id := range ids {
		m[id] = i
	}
	return m
}
