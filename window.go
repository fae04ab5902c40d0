package kompact

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
