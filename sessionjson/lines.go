package sessionjson

import "kompact"

// MessageScanner reads messages one after another (the lines of a file,
// such as kimi-cli's context.jsonl) with the fast pass alone: their parts
// share allocations, as DecodeSession's do, instead of each message taking
// one of its own. Its zero value is ready to use.
type MessageScanner struct{ s scanner }

// Scan reads one message as kompact.DecodeMessage would after removing the
// key ignoreKey (any value) from the object, and reports false whenever it
// is not sure; the caller then uses kompact.DecodeMessage for the result or
// its error. The message's strings may share data's memory: data must not
// be modified afterwards.
func (ms *MessageScanner) Scan(data []byte, ignoreKey string) (kompact.Message, bool) {
	s := &ms.s
	s.B, s.I, s.Alias, s.ignored = data, 0, true, false
	m, ok := s.messageDoc(ignoreKey)
	if ok && s.ignored && holdsRaw(&m) {
		// Removing the key re-encodes the object, which escapes <, > and &
		// inside raw values; leave that to the precise path.
		return m, false
	}
	return m, ok
}
