package service

import (
	"fmt"
	"unicode/utf8"

	"kompact"
)

// checkWindow refuses a window whose limit is out of bounds, whose offset is
// negative, that gives both an offset and Around, or whose Around is not a
// message id (kompact.MessageIDRule). Errors are kompact.EInvalid, with fixes.
func checkWindow(w kompact.MessageWindow) error {
	switch {
	case w.Limit < 1 || w.Limit > kompact.MaxWindowMessages:
		return kompact.Errorf(kompact.EInvalid, "limit %d is out of bounds: a window holds 1 to %d messages", w.Limit, kompact.MaxWindowMessages).
			WithFixes(fmt.Sprintf("Ask for at most %d messages (the default is %d), and page on with offset.", kompact.MaxWindowMessages, kompact.DefaultWindowMessages))
	case w.Offset < 0:
		return kompact.Errorf(kompact.EInvalid, "offset %d is negative: it counts the messages before the window", w.Offset).
			WithFixes("Use offset=0 for the first messages.")
	case w.Around != "" && w.Offset != 0:
		return kompact.Errorf(kompact.EInvalid, "the window has both an offset and around").
			WithFixes("Give offset to read from a place in the session, or around=MESSAGE_ID to read the messages around one message, not both.")
	case w.Around != "" && (!utf8.ValidString(w.Around) || !kompact.ValidMessageID(w.Around)):
		return kompact.Errorf(kompact.EInvalid, "around is not a message id; %s", kompact.MessageIDRule).
			WithFixes("Use the id of a message of the session.")
	}
	return nil
}
