package storeutil

import (
	"context"
	"encoding/json"
	"strconv"

	"kompact"
)

// A session's pinned messages (kompact.Session.Pinned) are stored in its
// row as a JSON list of message ids ('' when none): a compaction keeps
// them verbatim after its summary, so their ids stay.

// DecodePinned reads a row's pinned column; nil when it holds none.
func DecodePinned(col string) []string {
	var ids []string
	if col == "" || json.Unmarshal([]byte(col), &ids) != nil || len(ids) == 0 {
		return nil
	}
	return ids
}

// EncodePinned is the pinned column of ids (” when none).
func EncodePinned(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	b, _ := json.Marshal(ids) // strings always encode
	return string(b)
}

// checkPinnedCount is EInvalid when a session pins more than
// kompact.MaxPinned messages.
func checkPinnedCount(n int) error {
	if n > kompact.MaxPinned {
		return kompact.Errorf(kompact.EInvalid, `"pinned" names %d messages; a session pins at most %d`, n, kompact.MaxPinned).
			WithFixes("Pin the messages every summary must keep word for word; compaction summarises the rest.")
	}
	return nil
}

// pinSet resolves a session document's pinned refs (message ids, or #N
// for the N-th message, as kompact.Session.Locate reads them) to the ids
// the messages are stored with, as the messages go by (an import's come in
// batches).
type pinSet struct {
	refs []string
	at   map[string]int // ref -> its index in refs
	ids  []string       // the id each ref names, "" while none
	byID []bool         // ids[i] is a message whose id is refs[i] (it wins over #N)
}

func newPinSet(refs []string) (*pinSet, error) {
	if err := checkPinnedCount(len(refs)); err != nil {
		return nil, err
	}
	p := &pinSet{at: make(map[string]int, len(refs))}
	for _, r := range refs {
		if _, dup := p.at[r]; !dup {
			p.at[r] = len(p.refs)
			p.refs = append(p.refs, r)
		}
	}
	p.ids, p.byID = make([]string, len(p.refs)), make([]bool, len(p.refs))
	return p, nil
}

// see notes msgs, stored with their ids from position pos on.
func (p *pinSet) see(msgs []kompact.Message, pos int64) {
	if len(p.refs) == 0 {
		return
	}
	for i := range msgs {
		if j, ok := p.at[msgs[i].ID]; ok {
			p.ids[j], p.byID[j] = msgs[i].ID, true
		}
		if j, ok := p.at["#"+strconv.FormatInt(pos+int64(i)+1, 10)]; ok && !p.byID[j] {
			p.ids[j] = msgs[i].ID
		}
	}
}

// column is the row's pinned column once every message went by: the ids,
// each once, in the refs' order. A ref that names no message is EInvalid.
func (p *pinSet) column() (string, error) {
	seen := make(map[string]bool, len(p.ids))
	var out []string
	for i, id := range p.ids {
		if id == "" {
			return "", kompact.Errorf(kompact.EInvalid, `"pinned" names %q, which is no message of the session`, p.refs[i]).
				WithFixes(`List in "pinned" the ids of the session's messages (or #N for the N-th), or leave the field out.`)
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return EncodePinned(out), nil
}

// pinnedColumn resolves refs among msgs, the whole stored session.
func pinnedColumn(refs []string, msgs []kompact.Message) (string, error) {
	p, err := newPinSet(refs)
	if err != nil {
		return "", err
	}
	p.see(msgs, 0)
	return p.column()
}

// livePinned checks that each of ids is a live message of session id (the
// settings' "pinned": ids only, each once) and returns the column.
func livePinned(ctx context.Context, tx Tx, id string, ids []string) (string, error) {
	if err := checkPinnedCount(len(ids)); err != nil {
		return "", err
	}
	seen := make(map[string]bool, len(ids))
	var out []string
	for _, m := range ids {
		if seen[m] {
			continue
		}
		seen[m] = true
		if _, _, err := tx.LiveMessage(ctx, id, m); err != nil {
			if !noRow(err) {
				return "", err
			}
			return "", kompact.Errorf(kompact.EInvalid, `"pinned" names %q, which is no message of session %q`, m, id).
				WithFixes(`Pin the ids of the session's messages (GET /v1/sessions/{id} lists them); send "pinned": [] to unpin all.`)
		}
		out = append(out, m)
	}
	return EncodePinned(out), nil
}

// checkAppendPins is EInvalid when pin (kompact.GatewayUpdate.Pin) names
// an id that is not one of msgs', the messages a swap appends, or when
// there are no messages to pin.
func checkAppendPins(pin []string, msgs []kompact.Message) error {
	if len(pin) == 0 {
		return nil
	}
	ids := make(map[string]bool, len(msgs))
	for i := range msgs {
		if msgs[i].ID != "" {
			ids[msgs[i].ID] = true
		}
	}
	for _, id := range pin {
		if !ids[id] {
			return kompact.Errorf(kompact.EInvalid, "the swap pins %q, which is not one of the messages it appends", id).
				WithFixes("Pin only messages the swap appends, by the ids given them; pin a stored message with the session's settings (\"pinned\").")
		}
	}
	return nil
}

// addPins is the pinned column col with ids added after the ones it
// holds, each once, as many as fit within kompact.MaxPinned (the rest are
// left unpinned: a gateway turn never fails for a pin); col as it is when
// none is added.
func addPins(col string, ids []string) string {
	pinned := DecodePinned(col)
	seen := make(map[string]bool, len(pinned)+len(ids))
	for _, id := range pinned {
		seen[id] = true
	}
	n := len(pinned)
	for _, id := range ids {
		if len(pinned) == kompact.MaxPinned {
			break
		}
		if !seen[id] {
			seen[id] = true
			pinned = append(pinned, id)
		}
	}
	if len(pinned) == n {
		return col
	}
	return EncodePinned(pinned)
}
