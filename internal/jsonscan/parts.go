package jsonscan

import "fmt"

// This file counts a message's parts, for the bounds on what one request
// may bring (PartBudget), without decoding anything, and holds the errors
// of a request past those bounds.

// PartDepth is how deep in a message the lists whose elements are parts
// lie: a list that is a field of the message (content, tool_calls), an
// element of such a list, or a field of one (a tool result's content).
const PartDepth = 3

// CountParts returns the number of parts of the message msg, a valid JSON
// value: the elements of every list nested at most PartDepth containers
// deep in it (the message object itself is depth 0). It stops counting
// past limit (limit >= 0), returning limit+1 then, so that what a refused
// message costs follows the limit, not the message. msg must be valid JSON
// (jsonscan.Value or encoding/json said so); CountParts does not check it.
func CountParts(msg []byte, limit int) int {
	n := 0
	// lists holds a bit per open container up to depth 63 (set for a
	// list); depth is the number of open containers.
	var lists uint64
	depth := 0
	inList := func() bool { at := depth - 1; return at >= 1 && at <= PartDepth && lists&(1<<at) != 0 }
	for i := 0; i < len(msg); i++ {
		switch c := msg[i]; c {
		case '"':
			i = stringEnd(msg, i) - 1
		case '[', '{':
			if depth < 64 {
				if c == '[' {
					lists |= 1 << depth
				} else {
					lists &^= 1 << depth
				}
			}
			depth++
			if c == '[' && inList() && !emptyAfter(msg, i+1, ']') {
				n++
			}
		case ']', '}':
			depth--
		case ',':
			if inList() {
				n++
			}
		}
		if n > limit {
			return limit + 1
		}
	}
	return n
}

// emptyAfter reports whether only white space lies between b[i] and the
// next close.
func emptyAfter(b []byte, i int, close byte) bool {
	for ; i < len(b) && isSpace(b[i]); i++ {
	}
	return i < len(b) && b[i] == close
}

// PartLimits bounds the parts one request may bring: a part is an element
// of a message's content list or tool_calls list, or of a content block's
// own content list (a tool result's); a string content is none. Message
// bounds one message's parts, Request those of all the request's messages
// together; 0 leaves that bound off. The parsers of the surfaces count
// parts while they scan (PartBudget, CountParts), before any message is decoded, so
// that what a refused request costs follows the bound, not the request.
type PartLimits struct {
	Message, Request int
}

// TooManyPartsError is the error of a request past a PartLimits bound:
// message Index holds more than Max parts (Request false), or brings the
// request's parts past Max (Request true).
type TooManyPartsError struct {
	Index   int
	Max     int
	Request bool
}

func (e *TooManyPartsError) Error() string {
	if e.Request {
		return fmt.Sprintf("the request brings more than %d parts (past them at messages[%d])", e.Max, e.Index)
	}
	return fmt.Sprintf("messages[%d] has more than %d parts", e.Index, e.Max)
}

// TooManyMessagesError is the error of a request whose messages array is
// longer than Max: the request parsers of the surfaces (openai's and
// anthropic's) stop at the first message past it, so that what a refused
// body costs follows the bound, not the body.
type TooManyMessagesError struct{ Max int }

func (e *TooManyMessagesError) Error() string {
	return fmt.Sprintf("the request brings more than %d messages", e.Max)
}

// PartBudget counts a request's parts against its limits, message by
// message: Room says how many parts the next message may hold, and Take
// adds the count (a counter that stops past Room, as
// CountParts does, keeps the cost of a refused message bounded).
type PartBudget struct {
	Limits PartLimits
	total  int
}

// Room is the most parts the next message may hold within both limits
// (a large number when neither is set).
func (b *PartBudget) Room() int {
	room := int(^uint(0) >> 2)
	if b.Limits.Message > 0 {
		room = b.Limits.Message
	}
	if b.Limits.Request > 0 {
		room = min(room, b.Limits.Request-b.total)
	}
	return max(room, 0)
}

// Take adds message index's n parts, returning a *TooManyPartsError when
// they are past a limit.
func (b *PartBudget) Take(index, n int) error {
	if b.Limits.Message > 0 && n > b.Limits.Message {
		return &TooManyPartsError{Index: index, Max: b.Limits.Message}
	}
	b.total += n
	if b.Limits.Request > 0 && b.total > b.Limits.Request {
		return &TooManyPartsError{Index: index, Max: b.Limits.Request, Request: true}
	}
	return nil
}
