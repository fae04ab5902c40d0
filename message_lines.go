package kompact

// MessageScanner is ScanMessage for many messages read one after another
// (the lines of a file): their parts share allocations, as DecodeSession's
// do, instead of each message taking one of its own.
type MessageScanner struct{ s scanner }

// Scan is ScanMessage, for the next message.
func (ms *MessageScanner) Scan(data []byte, ignoreKey string) (Message, bool) {
	s := &ms.s
	s.b, s.i, s.alias, s.ignored = data, 0, true, false
	m, ok := s.messageDoc(ignoreKey)
	if ok && s.ignored && holdsRaw(&m) {
		// Removing the key re-encodes the object, which escapes <, > and &
		// inside raw values; leave that to the precise path.
		return m, false
	}
	return m, ok
}
