package httpapi

// This file is what GET /v1/health knows of the store's writes: a store
// that answers reads but fails its writes (a full disk, a read-only
// database) is not healthy.

import (
	"context"
	"sync/atomic"
	"time"

	"kompact"
)

// writeHealth follows the outcome of the store's writes: failing says
// whether the last write failed for an outage (EUnavailable), since when
// (Unix nanoseconds; 0 when it did not).
type writeHealth struct{ failing atomic.Int64 }

// readOps are the store calls that do not write.
var readOps = map[string]bool{
	"get_session": true, "list_sessions": true, "list_revisions": true, "get_revision": true,
	"stream_session": true, "stream_window": true, "stream_revision": true, "close": true,
}

// note records the outcome of the store call op, whose error had code
// ("" when it succeeded).
func (h *writeHealth) note(op string, code kompact.ErrorCode) {
	switch {
	case code == kompact.EUnavailable:
		h.failing.CompareAndSwap(0, time.Now().UnixNano())
	case code == "" && !readOps[op]:
		h.failing.Store(0)
	}
}

// writeChecker is a store that can check that it takes writes, as the
// SQLite and PostgreSQL stores can.
type writeChecker interface {
	CheckWrite(ctx context.Context) error
}

// storeHealth says what is wrong with the store, "" when nothing: it
// does not answer, or its writes fail. While its writes fail, it tries a
// write of its own (when the store can), so that health recovers with the
// store even when no client writes.
func (s *Server) storeHealth(ctx context.Context) (string, error) {
	if err := s.cfg.Store.Ping(ctx); err != nil {
		return "not answering", err
	}
	if s.metrics.writes.failing.Load() == 0 {
		return "", nil
	}
	if s.writes == nil {
		return "failing writes", nil
	}
	if err := s.writes.CheckWrite(ctx); err != nil {
		return "failing writes", err
	}
	s.metrics.writes.failing.Store(0)
	return "", nil
}
