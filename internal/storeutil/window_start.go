package storeutil

import "kompact"

// WindowStart returns the offset of the window of limit messages around
// the message at index at (0-based) of a session of n messages: the
// window starts limit/2 messages before it, later near the start and
// earlier near the end, so that it holds limit messages where the session
// has them, the message always among them.
func WindowStart(at, n int64, limit int) int64 {
	return max(0, min(at-int64(limit/2), n-int64(limit)))
}

// NoMessageError is the kompact.ENotFound error of a message id no live message of
// session id has.
func NoMessageError(id, msgID string) error {
	return kompact.Errorf(kompact.ENotFound, "session %q has no message with the id %q", id, msgID).
		WithFixes("Use the id of a message the session has now: a compaction replaces the messages it summarises with its summary message.")
}
