package kompact

import "bytes"

// RestoreEffect says what restoring a revision would do to a session: the
// messages it would drop (in the session now, not in the revision) and
// bring back (in the revision, not in the session now), by id, in order. A
// message counts as the same when its id and its JSON form are.
type RestoreEffect struct {
	// Messages is the session's message count after the restore.
	Messages int      `json:"messages"`
	Drops    []string `json:"drops"`
	Adds     []string `json:"adds"`
}

// EffectOfRestore compares the session's messages now with a revision's.
func EffectOfRestore(current, restored []Message) RestoreEffect {
	return RestoreEffectOf(messageIDs(current), messageIDs(restored), func(i, j int) bool {
		return bytes.Equal(current[i].AppendJSON(nil), restored[j].AppendJSON(nil))
	})
}

// RestoreEffectOf is EffectOfRestore of lists known by their messages'
// ids, current and restored: same(i, j) reports whether current[i] and
// restored[j], of one id, have one JSON form. It is asked once per id
// both lists hold, of the last message with that id in each.
func RestoreEffectOf(current, restored []string, same func(i, j int) bool) RestoreEffect {
	out := RestoreEffect{Messages: len(restored), Drops: []string{}, Adds: []string{}}
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

func messageIDs(msgs []Message) []string {
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

// RestorePreview says what restoring a revision would do to a session now,
// without changing anything (Sessions.PreviewRestore).
type RestorePreview struct {
	Effect   RestoreEffect `json:"effect"`
	Revision RevisionInfo  `json:"revision"`
	// Version is the session's version the effect was worked out at.
	Version int64 `json:"version"`
}
