package storeutil

import (
	"bytes"
	"strconv"

	"kompact"
)

// Rebase applies a commit to the session's current messages: Replacement,
// then current[c.End:]. It fails with EConflict when current[:c.End]
// differs from c.Base[:c.End] (a compacted or kept message was changed,
// removed or reordered since the compaction read the session). Messages
// appended after the compacted range are kept.
func Rebase(current []kompact.Message, c kompact.Commit) ([]kompact.Message, error) {
	if c.End < 0 || c.End > len(c.Base) {
		return nil, kompact.Errorf(kompact.EInvalid, "commit end %d is outside the base's %d messages", c.End, len(c.Base))
	}
	if len(current) < c.End {
		return nil, kompact.Errorf(kompact.EConflict, "the session has %s now, fewer than the %d this compaction replaces", kompact.CountOf(len(current), "message"), c.End).
			WithFixes("Reload the session and compact again.")
	}
	var a, b []byte
	for i := 0; i < c.End; i++ {
		a = current[i].AppendJSON(a[:0])
		b = c.Base[i].AppendJSON(b[:0])
		if !bytes.Equal(a, b) {
			return nil, kompact.Errorf(kompact.EConflict, "message %s changed while the compaction ran", messageRef(current[i], i)).
				WithFixes("Reload the session and compact again; nothing was written.")
		}
	}
	out := make([]kompact.Message, 0, len(c.Replacement)+len(current)-c.End)
	out = append(out, c.Replacement...)
	return append(out, current[c.End:]...), nil
}

func messageRef(m kompact.Message, i int) string {
	if m.ID != "" {
		return strconv.Quote(m.ID)
	}
	return "#" + strconv.Itoa(i+1)
}
