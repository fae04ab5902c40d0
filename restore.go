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
	out := RestoreEffect{Messages: len(restored), Drops: []string{}, Adds: []string{}}
	index := func(msgs []Message) map[string][]byte {
		m := make(map[string][]byte, len(msgs))
		for i := range msgs {
			m[msgs[i].ID] = msgs[i].AppendJSON(nil)
		}
		return m
	}
	now, then := index(current), index(restored)
	for i := range current {
		if b, ok := then[current[i].ID]; !ok || !bytes.Equal(b, now[current[i].ID]) {
			out.Drops = append(out.Drops, current[i].ID)
		}
	}
	for i := range restored {
		if b, ok := now[restored[i].ID]; !ok || !bytes.Equal(b, then[restored[i].ID]) {
			out.Adds = append(out.Adds, restored[i].ID)
		}
	}
	return out
}
