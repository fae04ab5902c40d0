package kompact

import (
	"fmt"
	"unicode/utf8"
)

// A window of a session's messages: the paged read (Store.StreamWindow)
// behind GET /v1/sessions/{id}/messages, whose cost follows the window,
// not the session.

// MaxWindowMessages is the most messages one window read gives
// (MessageWindow.Limit): a few screens of a conversation, so that a read
// holds a bounded part of a session of any length.
const MaxWindowMessages = 500

// DefaultWindowMessages is the window's size when a request gives none.
const DefaultWindowMessages = 100

// MessageWindow picks the messages of a window read: Limit messages (1 to
// MaxWindowMessages) from Offset on, Offset being how many of the
// session's messages come before the window (0: from the first); or, when
// Around is not "", Limit messages around the live message with that id
// (WindowStart), Offset then being 0.
type MessageWindow struct {
	Offset int64
	Limit  int
	Around string
}

// Check refuses a window whose limit is out of bounds, whose offset is
// negative, that gives both an offset and Around, or whose Around is not a
// message id (MessageIDRule). Errors are EInvalid, with fixes.
func (w MessageWindow) Check() error {
	switch {
	case w.Limit < 1 || w.Limit > MaxWindowMessages:
		return Errorf(EInvalid, "limit %d is out of bounds: a window holds 1 to %d messages", w.Limit, MaxWindowMessages).
			WithFixes(fmt.Sprintf("Ask for at most %d messages (the default is %d), and page on with offset.", MaxWindowMessages, DefaultWindowMessages))
	case w.Offset < 0:
		return Errorf(EInvalid, "offset %d is negative: it counts the messages before the window", w.Offset).
			WithFixes("Use offset=0 for the first messages.")
	case w.Around != "" && w.Offset != 0:
		return Errorf(EInvalid, "the window has both an offset and around").
			WithFixes("Give offset to read from a place in the session, or around=MESSAGE_ID to read the messages around one message, not both.")
	case w.Around != "" && (!utf8.ValidString(w.Around) || !ValidMessageID(w.Around)):
		return Errorf(EInvalid, "around is not a message id; %s", MessageIDRule).
			WithFixes("Use the id of a message of the session.")
	}
	return nil
}

// WindowStart returns the offset of the window of limit messages around
// the message at index at (0-based) of a session of n messages: the
// window starts limit/2 messages before it, later near the start and
// earlier near the end, so that it holds limit messages where the session
// has them, the message always among them.
func WindowStart(at, n int64, limit int) int64 {
	return max(0, min(at-int64(limit/2), n-int64(limit)))
}

// WindowHead describes a window read (Store.StreamWindow): the session
// (Messages nil; its kimi-cli context, token account and breaker not
// read), how many messages it has, and the offset of the window: how many
// of its messages come before the window's first. An offset at or past
// the end is kept as it was asked for, and the window has no message.
type WindowHead struct {
	Session *StoredSession
	Total   int64
	Offset  int64
}

// NoMessageError is the ENotFound error of a message id no live message of
// session id has.
func NoMessageError(id, msgID string) error {
	return Errorf(ENotFound, "session %q has no message with the id %q", id, msgID).
		WithFixes("Use the id of a message the session has now: a compaction replaces the messages it summarises with its summary message.")
}
