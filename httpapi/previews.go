package httpapi

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"kompact"
)

// Previews are kept in memory, for previewTTL, at most maxPreviews at a
// time and at most maxPreviewBytes of message text in all (the oldest go
// first), and each can be applied once.
const (
	previewTTL      = 30 * time.Minute
	maxPreviews     = 256
	maxPreviewBytes = 512 << 20
)

// preview is a compaction that ran but was not committed: its compacted
// outcome, whose result knows the base it read.
type preview struct {
	id        string
	sessionID string
	// version is the session's version when the compaction read it.
	version int64
	outcome kompact.Outcome
	expires time.Time
	// size estimates the memory the preview holds: the text of the session
	// it read (the result shares its messages).
	size int64
}

// previewSize returns the text bytes of the messages a preview keeps.
func previewSize(r *kompact.Result) int64 {
	var n int64
	for _, msgs := range [][]kompact.Message{r.Base(), r.Replacement()} {
		for i := range msgs {
			for j := range msgs[i].Content {
				c := &msgs[i].Content[j]
				n += int64(len(c.Text) + len(c.Think) + len(c.URL) + len(c.Data))
			}
		}
	}
	return n
}

type previewStore struct {
	mu    sync.Mutex
	items map[string]*preview
	ttl   time.Duration
	max   int
	bytes int64
	total int64
	now   func() time.Time
}

func newPreviewStore() *previewStore {
	return &previewStore{items: make(map[string]*preview), ttl: previewTTL, max: maxPreviews, bytes: maxPreviewBytes, now: time.Now}
}

// put keeps p under a new random id and returns the id.
func (ps *previewStore) put(p *preview) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	p.id = "pv_" + hex.EncodeToString(b[:])
	ps.mu.Lock()
	defer ps.mu.Unlock()
	p.expires = ps.now().Add(ps.ttl)
	ps.insert(p)
	return p.id
}

// putBack keeps a preview that could not be applied, if it has not expired.
func (ps *previewStore) putBack(p *preview) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.insert(p)
}

// insert drops the expired previews, and the oldest while the store is
// full, then adds p. ps.mu is held.
func (ps *previewStore) insert(p *preview) {
	now := ps.now()
	for _, q := range ps.items {
		if !now.Before(q.expires) {
			ps.remove(q)
		}
	}
	if !now.Before(p.expires) {
		return
	}
	for len(ps.items) > 0 && (len(ps.items) >= ps.max || ps.total+p.size > ps.bytes) {
		var oldest *preview
		for _, q := range ps.items {
			if oldest == nil || q.expires.Before(oldest.expires) {
				oldest = q
			}
		}
		ps.remove(oldest)
	}
	ps.items[p.id] = p
	ps.total += p.size
}

// remove forgets p. ps.mu is held.
func (ps *previewStore) remove(p *preview) {
	delete(ps.items, p.id)
	ps.total -= p.size
}

// take removes and returns the preview id of session sessionID; nil when
// there is none, or it has expired.
func (ps *previewStore) take(sessionID, id string) *preview {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	p, ok := ps.items[id]
	if !ok || p.sessionID != sessionID {
		return nil
	}
	ps.remove(p)
	if !ps.now().Before(p.expires) {
		return nil
	}
	return p
}

// len returns how many previews are kept.
func (ps *previewStore) len() int {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return len(ps.items)
}
